// What a template send names: the template, its language and the values of its slots, either as the spec's
// flat `parameters` list (campaigns take only this form) or by part (messageSend). Checked against the
// template's own components in resolvers/templates/templates.ts.
import { z } from 'zod';
import { BUTTON_SUB_TYPES } from '../../adapters/providers/templates.js';

/** A template to send: its name, language and the values of its slots in reading order. */
export const templateInput = z.object({
  name: z.string().regex(/^[a-z0-9_]{1,512}$/, { message: 'must be lowercase letters, digits and underscores' }),
  language: z.string().regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/, { message: 'must be a language tag such as en_US' }),
  parameters: z
    .array(z.string().trim().min(1, { message: 'must not be empty' }).max(1024))
    .max(100)
    .nullish()
    .transform((value) => value ?? []),
});

const mediaKind = z.enum(['image', 'video', 'document'], { message: 'must be image, video or document' });
const httpsLink = z
  .string()
  .trim()
  .regex(/^https:\/\/\S+$/, { message: 'must be an https URL' })
  .max(2048);
const value = z.string().trim().min(1, { message: 'must not be empty' }).max(1024);

/**
 * A template send with its slots by part (issue 15): `header` a text or a media {type, link | id}, `body` a
 * list (positional variables) or an object (named variables), `buttons` the values of button variables.
 * The flat `parameters` list stays accepted, but not beside these.
 */
export const templateSendInput = templateInput
  .extend({
    header: z
      .union([
        value,
        z
          .object({
            type: mediaKind,
            link: httpsLink.nullish(),
            id: z
              .string()
              .trim()
              .regex(/^\d{1,32}$/, { message: 'must be a media id' })
              .nullish(),
          })
          .refine((media) => !media.link !== !media.id, { message: 'give either link or id' }),
      ])
      .nullish(),
    body: z
      .union([
        z.array(value).max(100),
        z.record(z.string().regex(/^[a-z_][a-z0-9_]{0,63}$/, { message: 'must be a variable name' }), value),
      ])
      .nullish(),
    buttons: z
      .array(
        z.object({
          index: z.number().int().min(0).max(9),
          sub_type: z.enum(BUTTON_SUB_TYPES, { message: `must be one of ${BUTTON_SUB_TYPES.join(', ')}` }),
          value: z.string().trim().min(1, { message: 'must not be empty' }).max(2000),
        }),
      )
      .max(10)
      .nullish(),
  })
  .superRefine((template, context) => {
    const parts = template.header != null || template.body != null || template.buttons != null;
    if (parts && template.parameters.length) {
      context.addIssue({ code: 'custom', path: ['parameters'], message: 'give either parameters or header, body and buttons, not both' });
    }
  });

export type TemplateRequest = z.infer<typeof templateSendInput>;

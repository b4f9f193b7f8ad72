// Message templates of the workspace's integration, read from its provider (cached briefly by the provider
// registry), and the check that a template may be sent: APPROVED, with every placeholder filled.
import { z } from 'zod';
import { TEMPLATE_STATUSES, type MessagingProvider, type Template } from '../../adapters/providers/types.js';
import {
  describeListSlots,
  listSlotCount,
  slotProblems,
  templateSlots,
  valuesFromList,
  type TemplateValues,
} from '../../adapters/providers/templates.js';
import type { TemplateRequest } from './templateInput.js';
import type { Context } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { connectedIntegration, providerIntegration } from '../workspace/integrations.js';
import { providerFailure } from '../shared/providerFailure.js';
import { parseInput } from '../shared/validation.js';

const listInput = z.object({
  provider: z.string().trim().min(1, { message: 'must not be empty' }).max(64).nullish(),
  status: z
    .string()
    .transform((value) => value.trim().toUpperCase())
    .pipe(z.enum(TEMPLATE_STATUSES, { message: 'must be one of approved, pending, rejected, paused, disabled' }))
    .nullish(),
});

async function providerTemplates(provider: MessagingProvider): Promise<readonly Template[]> {
  try {
    return await provider.listTemplates();
  } catch (error) {
    throw providerFailure(error);
  }
}

/** The templates of the workspace's connected integration (of `provider` when named), by name and language. */
export async function listTemplates(ctx: Context, raw: z.input<typeof listInput>) {
  const input = parseInput(listInput, raw);
  const integration = await connectedIntegration(ctx.prisma, requireActor(ctx).workspaceId, input.provider);
  const all = [...(await providerTemplates(ctx.messaging.for(providerIntegration(ctx.secrets, integration))))].sort(
    (a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language),
  );
  const templates = input.status ? all.filter((template) => template.status === input.status) : all;
  return { templates, total: templates.length };
}

/** BCP 47 (en-US) and the provider's form (en_US) name the same language. */
function sameLanguage(a: string, b: string): boolean {
  const normal = (tag: string) => tag.replace(/-/g, '_').toLowerCase();
  return normal(a) === normal(b);
}

/** The values a request gives, by part, or null when it gives the flat list. */
function valuesByPart(request: TemplateRequest): TemplateValues | null {
  const { header, body, buttons } = request;
  if (header == null && body == null && buttons == null) return null;
  return {
    header:
      header == null
        ? null
        : typeof header === 'string'
          ? { text: header }
          : { type: header.type, link: header.link ?? undefined, id: header.id ?? undefined },
    body: body ?? [],
    buttons: buttons ?? [],
  };
}

/** The template to send with the values of its slots, or the reason it cannot be sent with these values. */
export async function sendableTemplate(
  provider: MessagingProvider,
  request: TemplateRequest,
): Promise<{ template: Template; values: TemplateValues }> {
  const templates = await providerTemplates(provider);
  const template = templates.find((candidate) => candidate.name === request.name && sameLanguage(candidate.language, request.language));
  if (!template || template.status !== 'APPROVED') {
    const what = `Template ${request.name} (${request.language})`;
    throw new DomainError(
      'TEMPLATE_NOT_APPROVED',
      template ? `${what} is ${template.status}; only APPROVED templates can be sent` : `${what} does not exist`,
      { name: request.name, language: request.language, status: template?.status ?? null },
    );
  }
  const slots = templateSlots(template);
  const byPart = valuesByPart(request);
  if (byPart) {
    const problems = slotProblems(slots, byPart);
    if (Object.keys(problems).length)
      throw new DomainError('VALIDATION_ERROR', `The values do not fit template ${template.name}`, problems);
    return { template, values: byPart };
  }
  const expected = listSlotCount(slots);
  if (request.parameters.length !== expected) {
    throw new DomainError('VALIDATION_ERROR', `Template ${template.name} needs ${expected} parameter(s)`, {
      'template.parameters': `must hold exactly ${expected} value(s): ${describeListSlots(slots)}`,
    });
  }
  if (slots.headerMedia && !/^https:\/\/\S+$/.test(request.parameters[0] ?? '')) {
    throw new DomainError('VALIDATION_ERROR', `Template ${template.name} needs a header ${slots.headerMedia} link`, {
      'template.parameters.0': `must be the https URL of the header ${slots.headerMedia}`,
    });
  }
  const values = valuesFromList(slots, request.parameters);
  const problems = slotProblems(slots, values);
  if (Object.keys(problems).length) throw new DomainError('VALIDATION_ERROR', `The values do not fit template ${template.name}`, problems);
  return { template, values };
}

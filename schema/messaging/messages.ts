// Messages: the Message type (the spec's send response shape) and the messageSend mutation, whose payload
// is the REST envelope {message} itself.
import { builder } from '../builder.js';
import { oneOf, URI } from '../shared/jsonSchemaHints.js';
import { sendMessage, type MessageSendResult } from '../../resolvers/messaging/messages.js';
import type { MessageView } from '../../resolvers/shared/views.js';
import { OUTBOUND_MEDIA_TYPES } from '../../adapters/providers/types.js';

const Message = builder.objectRef<MessageView>('Message').implement({
  description: 'A message of a conversation, inbound (from the contact) or outbound (to the contact).',
  fields: (t) => ({
    id: t.exposeID('id'),
    conversation_id: t.exposeID('conversation_id'),
    body: t.exposeString('body', { description: 'The text; for a template send, the rendered header, body and footer.' }),
    direction: t.exposeString('direction', oneOf(['inbound', 'outbound'])),
    status: t.exposeString('status', {
      description:
        'Outbound: pending (provider not yet answered), sent, delivered, read or failed; it only moves forward. Inbound: received.',
    }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
  }),
});

const MessageSendPayload = builder.objectRef<MessageSendResult>('MessageSendPayload').implement({
  fields: (t) => ({ message: t.field({ type: Message, resolve: (payload) => payload.message }) }),
});

const TemplateButtonInput = builder.inputType('TemplateButtonInput', {
  description: "The value of a button's variable: a URL button's suffix, a copy-code button's code, a quick reply's payload.",
  fields: (t) => ({
    index: t.int({ required: true, description: "The button's position among the template's buttons, from 0." }),
    sub_type: t.string({ required: true, ...oneOf(['url', 'copy_code', 'quick_reply']) }),
    value: t.string({ required: true }),
  }),
});

export const TemplateSendInput = builder.inputType('TemplateSendInput', {
  description:
    'An approved template to send, with the values of its variable slots: the flat parameters list, or (messageSend only) ' +
    'header, body and buttons.',
  fields: (t) => ({
    name: t.string({ required: true }),
    language: t.string({ required: true, description: 'The template language, such as en_US.' }),
    parameters: t.stringList({
      required: false,
      description: "Values in reading order: a media header's https link, the header text's {{n}}, then the body's {{n}}.",
    }),
    header: t.field({
      type: 'JSON',
      required: false,
      description: "The header variable's text, or the header media {type: image|video|document, link | id}.",
    }),
    body: t.field({
      type: 'JSON',
      required: false,
      description: 'The body variables: a list for {{1}}, {{2}} …, or an object by name for named variables ({{first_name}}).',
    }),
    buttons: t.field({ type: [TemplateButtonInput], required: false }),
  }),
});

const MediaUploadInput = builder.inputType('MediaUploadInput', {
  description: 'A file to upload to the provider before sending it.',
  fields: (t) => ({
    filename: t.string({ required: true }),
    content_type: t.string({
      required: true,
      description: 'One WhatsApp takes for the media type, such as image/jpeg or application/pdf.',
    }),
    content_base64: t.string({
      required: true,
      description: 'The file, base64-encoded; the request body limit (MAX_BODY_BYTES) bounds it.',
    }),
  }),
});

const MediaSendInput = builder.inputType('MediaSendInput', {
  description:
    'A media message: a file by public https link or uploaded here. WhatsApp limits: image (jpeg, png) 5 MB; video (mp4, 3gpp) ' +
    '16 MB; audio (aac, amr, mpeg, mp4, ogg) 16 MB, no caption; document (pdf, txt, Office) 100 MB.',
  fields: (t) => ({
    type: t.string({ required: true, ...oneOf(OUTBOUND_MEDIA_TYPES) }),
    link: t.string({ required: false, description: 'A public https URL of the file; or give upload.', ...URI }),
    upload: t.field({ type: MediaUploadInput, required: false }),
    caption: t.string({ required: false, description: 'Up to 1024 characters; not for audio.' }),
  }),
});

builder.mutationField('messageSend', (t) =>
  t.field({
    type: MessageSendPayload,
    description:
      "Sends a free-form body or media (only within 24 hours of the contact's last inbound message) or an approved template (any time), " +
      'on a conversation or to a contact by `to`. An Idempotency-Key header makes retries safe.',
    authScopes: { permission: 'messages' },
    args: {
      conversation_id: t.arg.id({ required: false, description: 'The conversation to send on; or give `to`.' }),
      to: t.arg.string({
        required: false,
        description:
          'First contact: an E.164 phone number or a business-scoped user id. The contact is found or created, and its open ' +
          'conversation on the integration reused or one opened (a template send only; a body needs an open window).',
      }),
      integration_id: t.arg.id({
        required: false,
        description: "With `to`: the integration to send through; default the workspace's connected one.",
      }),
      body: t.arg.string({ required: false }),
      template: t.arg({ type: TemplateSendInput, required: false }),
      media: t.arg({ type: MediaSendInput, required: false }),
    },
    resolve: (_root, args, ctx) =>
      sendMessage(ctx, { ...args, conversation_id: args.conversation_id?.toString(), integration_id: args.integration_id?.toString() }),
  }),
);

// The message record of every read surface (MessageDetail): the spec's six Message fields unchanged, plus what
// a transcript needs. Its parts (template, sender, error, media) are built from the row's columns here.
import { isRetryableCode } from '../../adapters/providers/errors.js';
import { builder } from '../builder.js';
import { getMessage, listConversationMessages, searchMessages } from '../../resolvers/messaging/transcripts.js';
import type { MessageDetailRow } from '../../resolvers/shared/views.js';
import { pageType } from '../shared/page.js';
import { contentOf, MessageContactCard, MessageLocation, MessageReaction, MessageReply } from './messageContent.js';
import { limitArg } from '../shared/pageLimit.js';
import { oneOf } from '../shared/jsonSchemaHints.js';
import type { MessagePricing } from '../../adapters/providers/types.js';

/** The stored pricing (written only by status moves, in MessagePricing's shape), or null. */
function pricingOf(stored: unknown): MessagePricing | null {
  return stored && typeof stored === 'object' && 'category' in stored ? (stored as MessagePricing) : null;
}

type Media = {
  id: string | null;
  mime_type: string | null;
  filename: string | null;
  size: number | null;
  sha256: string | null;
  caption: string | null;
};

const MessageMedia = builder.objectRef<Media>('MessageMedia').implement({
  description: 'The media of an image, video, audio, document or sticker message.',
  fields: (t) => ({
    id: t.exposeString('id', { nullable: true, description: "The provider's media id." }),
    mime_type: t.exposeString('mime_type', { nullable: true }),
    filename: t.exposeString('filename', { nullable: true }),
    size: t.exposeInt('size', { nullable: true, description: 'In bytes.' }),
    sha256: t.exposeString('sha256', { nullable: true }),
    caption: t.exposeString('caption', { nullable: true }),
  }),
});

function mediaOf(value: unknown): Media | null {
  if (typeof value !== 'object' || value === null) return null;
  const media = value as Partial<Record<keyof Media, unknown>>;
  const text = (field: unknown) => (typeof field === 'string' ? field : null);
  return {
    id: text(media.id),
    mime_type: text(media.mime_type),
    filename: text(media.filename),
    size: typeof media.size === 'number' ? media.size : null,
    sha256: text(media.sha256),
    caption: text(media.caption),
  };
}

const MessageTemplate = builder.objectRef<{ name: string; language: string }>('MessageTemplate').implement({
  description: 'The template a template message was sent from.',
  fields: (t) => ({ name: t.exposeString('name'), language: t.exposeString('language') }),
});

const MessageSender = builder.objectRef<{ type: string; id: string | null }>('MessageSender').implement({
  description: 'Who wrote the message.',
  fields: (t) => ({
    type: t.exposeString('type', oneOf(['contact', 'user', 'api_key', 'agent', 'campaign', 'automation', 'consent'])),
    id: t.exposeString('id', {
      nullable: true,
      description:
        "The contact's, user's, API key's, campaign's or automation rule's id; null for the agent and for sends recorded before senders were.",
    }),
  }),
});

const MessageError = builder.objectRef<{ code: string | null; title: string | null; details: string | null }>('MessageError').implement({
  description:
    "Why a message failed, as the provider said it (Meta's codes unchanged): 131047 the 24-hour window was closed (the conversation's window is then closed until the contact writes); 131026 undeliverable and 131049 marketing frequency cap are final; 131050 the contact stopped marketing messages (the contact is then opted out, source provider); 130429 throughput and 131056 pair rate were retried with backoff before failing.",
  fields: (t) => ({
    code: t.exposeString('code', {
      nullable: true,
      description: "The provider's error code (or the service's, such as SEND_OUTCOME_UNKNOWN).",
    }),
    title: t.exposeString('title', { nullable: true, description: "The provider's title of the error." }),
    details: t.exposeString('details', { nullable: true, description: "The provider's details (Meta's error_data.details)." }),
    retryable: t.boolean({
      description:
        'Whether sending the message again later may succeed (a rate limit or the provider unavailable); false for a final refusal.',
      resolve: (error) => isRetryableCode(error.code),
    }),
  }),
});

const MessagePricingType = builder.objectRef<MessagePricing>('MessagePricing').implement({
  description: "What the provider charges for an outbound message, from its status reports (WhatsApp's `pricing` object).",
  fields: (t) => ({
    billable: t.exposeBoolean('billable', { nullable: true, description: 'Whether the message is charged.' }),
    category: t.exposeString('category', {
      description: 'The pricing category: marketing, utility, authentication, authentication_international, service, …',
    }),
    pricing_model: t.exposeString('pricing_model', { nullable: true, description: 'PMP (per-message pricing), or CBP before it.' }),
    type: t.exposeString('type', {
      nullable: true,
      description: 'regular (charged), free_customer_service or free_entry_point.',
    }),
  }),
});

const MESSAGE_TYPES = [
  'text',
  'image',
  'video',
  'audio',
  'document',
  'sticker',
  'location',
  'contacts',
  'interactive',
  'button',
  'reaction',
  'template',
  'unsupported',
] as const;

export const MessageDetail = builder.objectRef<MessageDetailRow>('MessageDetail').implement({
  description: 'A message of a conversation as transcripts show it: the Message fields plus its type, media, sender and delivery times.',
  fields: (t) => ({
    id: t.exposeID('id'),
    conversation_id: t.exposeID('conversation_id'),
    body: t.exposeString('body', {
      description:
        "The text; for a template send, the rendered header, body and footer; for media, the caption, else a document's file name, else the kind in brackets ([audio]); for other kinds, a short text form ([location] …, a reply's title).",
    }),
    direction: t.exposeString('direction', oneOf(['inbound', 'outbound'])),
    status: t.exposeString('status', {
      description: 'Outbound: pending, sent, delivered, read or failed (only moves forward). Inbound: received.',
    }),
    created_at: t.expose('created_at', {
      type: 'DateTime',
      description: 'When the service recorded the message (inbound: the time the contact sent it).',
    }),
    type: t.exposeString('type', oneOf(MESSAGE_TYPES)),
    media: t.field({ type: MessageMedia, nullable: true, resolve: (message) => mediaOf(message.media) }),
    location: t.field({ type: MessageLocation, nullable: true, resolve: (message) => contentOf(message.content).location ?? null }),
    contacts: t.field({
      type: [MessageContactCard],
      nullable: true,
      description: 'The contact cards of a contacts message.',
      resolve: (message) => contentOf(message.content).contacts ?? null,
    }),
    reply: t.field({
      type: MessageReply,
      nullable: true,
      description: 'The option chosen, for an interactive or button message.',
      resolve: (message) => contentOf(message.content).reply ?? null,
    }),
    reaction: t.field({ type: MessageReaction, nullable: true, resolve: (message) => contentOf(message.content).reaction ?? null }),
    template: t.field({
      type: MessageTemplate,
      nullable: true,
      resolve: (message) =>
        message.template_name && message.template_language ? { name: message.template_name, language: message.template_language } : null,
    }),
    sender: t.field({
      type: MessageSender,
      resolve: (message) => ({
        type: message.sender_type ?? (message.direction === 'inbound' ? 'contact' : 'api_key'),
        id: message.sender_id,
      }),
    }),
    reply_to_message_id: t.exposeID('reply_to_message_id', {
      nullable: true,
      description: 'The message this one answers (a WhatsApp reply) or reacts to, when it is in this workspace.',
    }),
    error: t.field({
      type: MessageError,
      nullable: true,
      description: 'Set when the status is failed; null otherwise.',
      resolve: (message) =>
        message.status === 'failed' ? { code: message.error_code, title: message.error_title, details: message.error_details } : null,
    }),
    pricing: t.field({
      type: MessagePricingType,
      nullable: true,
      description: 'Outbound: what the provider charges for it, once a status report told; null before and for inbound messages.',
      resolve: (message) => pricingOf(message.pricing),
    }),
    sent_at: t.expose('sent_at', {
      type: 'DateTime',
      nullable: true,
      description: 'Outbound: when the provider accepted it. Inbound: when the contact sent it.',
    }),
    delivered_at: t.expose('delivered_at', {
      type: 'DateTime',
      nullable: true,
      description: "When it reached the contact's device (outbound).",
    }),
    read_at: t.expose('read_at', { type: 'DateTime', nullable: true, description: 'When the contact read it (outbound).' }),
    failed_at: t.expose('failed_at', { type: 'DateTime', nullable: true, description: 'When sending it failed (outbound).' }),
    provider_message_id: t.exposeString('provider_message_id', { nullable: true }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

export const MessageDetailList = pageType('MessageDetailList', MessageDetail);

builder.queryFields((t) => ({
  message: t.field({
    type: MessageDetail,
    description: 'One message of the workspace.',
    authScopes: { permission: 'conversations' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getMessage(ctx, { id: String(args.id) }),
  }),
  conversationMessages: t.field({
    type: MessageDetailList,
    description:
      "A conversation's messages, newest first. `before` (a message id) pages to older messages, `after` to newer ones; next_cursor continues in the same direction.",
    authScopes: { permission: 'conversations' },
    args: {
      conversation_id: t.arg.id({ required: true }),
      limit: limitArg(t.arg, 50),
      before: t.arg.id({ required: false }),
      after: t.arg.id({ required: false }),
    },
    resolve: (_root, args, ctx) =>
      listConversationMessages(ctx, {
        ...args,
        conversation_id: String(args.conversation_id),
        before: args.before?.toString(),
        after: args.after?.toString(),
      }),
  }),
  messageSearch: t.field({
    type: MessageDetailList,
    description: 'Messages whose body contains q (case-insensitive), newest first; cursor is the next_cursor of the previous page.',
    authScopes: { permission: 'conversations' },
    args: {
      q: t.arg.string({ required: true }),
      conversation_id: t.arg.id({ required: false }),
      limit: limitArg(t.arg, 50),
      cursor: t.arg.id({ required: false }),
    },
    resolve: (_root, args, ctx) =>
      searchMessages(ctx, { ...args, conversation_id: args.conversation_id?.toString(), cursor: args.cursor?.toString() }),
  }),
}));

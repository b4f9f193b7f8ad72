// Reads a WhatsApp Cloud API webhook payload into the work it asks for: inbound messages and delivery
// status reports, each with the phone number id that routes it to an integration, and template changes (status,
// quality, category) and number standing changes (numberQuality.ts), each with the business account (entry.id)
// that routes it; each on its own: a
// message, status report or change that is not the documented shape becomes a failure (kept as a dead
// letter with its raw JSON) and never costs the other parts. Kinds this service does not handle (other
// objects and fields, system messages, unknown statuses) yield no work. Only an envelope that is not the
// documented shape at all is malformed as a whole. Every string is cleaned first (cleanText.ts).
// Senders are named by wa_id (the phone number's digits), by business-scoped user id (BSUID: `user_id`,
// `from_user_id`, with `parent_user_id` where enabled), or both; the phone number may be withheld.
// Formats: https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components and
// https://developers.facebook.com/documentation/business-messaging/whatsapp/business-scoped-user-ids/
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { MAX_INBOUND_BODY_LENGTH, type InboundContent, type ReportedContact } from './inbound.js';
import { cleanJson } from './cleanText.js';
import {
  DELIVERY_STATUSES,
  TEMPLATE_CATEGORIES,
  type DeliveryStatus,
  type StatusUpdate,
  type TemplateStatus,
} from '../../adapters/providers/types.js';
import type { TemplateChange } from '../templates/templateStatus.js';
import { NUMBER_QUALITY_FIELD, readNumberQualityChange, type NumberWork } from './numberQuality.js';

/** A part of a payload that can never be stored as it is, with the JSON to keep for it. */
export type FailedPart = {
  kind: 'failure';
  phoneNumberId: string | null;
  part: 'message' | 'status' | 'change';
  reason: string;
  payload: unknown;
  fingerprint: string;
};

export type CallbackWork =
  | {
      kind: 'message';
      phoneNumberId: string;
      contact: ReportedContact;
      message: InboundContent & { provider_message_id: string; sent_at: Date };
      /** The part itself, kept as a dead letter if it cannot be stored. */
      raw: unknown;
    }
  | { kind: 'status'; phoneNumberId: string; update: StatusUpdate; recipientBsuid: string | null; raw: unknown }
  | FailedPart;

/** A change about a template of a business account (entry.id), routed by that account rather than a phone number. */
export type TemplateWork = { kind: 'template'; businessAccountId: string; templateId: string; change: TemplateChange };

const unixSeconds = z
  .union([z.string().regex(/^\d{1,12}$/), z.number().int().nonnegative()])
  .transform((value) => new Date(Number(value) * 1000));

const media = z.object({
  id: z.string().min(1).max(256).optional(),
  mime_type: z.string().max(255).optional(),
  sha256: z.string().max(128).optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});

/** A shared contact card (Meta's `contacts` message): name, phones, e-mails and organisation are kept. */
const contactCard = z.object({
  name: z.object({ formatted_name: z.string().optional(), first_name: z.string().optional(), last_name: z.string().optional() }).optional(),
  phones: z.array(z.object({ phone: z.string().optional(), wa_id: z.string().optional(), type: z.string().optional() })).optional(),
  emails: z.array(z.object({ email: z.string().optional(), type: z.string().optional() })).optional(),
  org: z.object({ company: z.string().optional() }).optional(),
});

const inboundMessage = z
  .object({
    from: z.string().min(1).max(128).optional(),
    from_user_id: z.string().min(1).max(160).optional(),
    from_parent_user_id: z.string().min(1).max(160).optional(),
    id: z.string().min(1).max(256),
    timestamp: unixSeconds,
    type: z.string().min(1),
    text: z.object({ body: z.string() }).optional(),
    image: media.optional(),
    video: media.optional(),
    audio: media.optional(),
    document: media.optional(),
    sticker: media.optional(),
    location: z
      .object({
        latitude: z.number(),
        longitude: z.number(),
        name: z.string().optional(),
        address: z.string().optional(),
        url: z.string().optional(),
      })
      .optional(),
    contacts: z.array(contactCard).optional(),
    button: z.object({ text: z.string(), payload: z.string().optional() }).optional(),
    interactive: z
      .object({
        type: z.string().optional(),
        button_reply: z.object({ id: z.string().optional(), title: z.string() }).optional(),
        list_reply: z.object({ id: z.string().optional(), title: z.string(), description: z.string().optional() }).optional(),
      })
      .optional(),
    reaction: z.object({ message_id: z.string().optional(), emoji: z.string().optional() }).optional(),
    context: z.object({ id: z.string().max(256).optional(), from: z.string().optional() }).optional(),
  })
  .superRefine((message, context) => {
    for (const type of ['text', 'location', 'button', 'contacts', 'reaction'] as const) {
      if (message.type === type && !message[type]) context.addIssue({ code: 'custom', path: [type], message: 'is required' });
    }
  });

type InboundMessage = z.infer<typeof inboundMessage>;

const statusReport = z.object({
  id: z.string().min(1).max(256),
  status: z.string().min(1),
  timestamp: unixSeconds,
  recipient_id: z.string().optional(),
  recipient_user_id: z.string().max(160).optional(),
  biz_opaque_callback_data: z.string().optional(),
  errors: z
    .array(
      z.object({
        code: z.number().int(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.object({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
  pricing: z
    .object({
      billable: z.boolean().optional(),
      category: z.string().min(1).max(64),
      pricing_model: z.string().max(64).optional(),
      type: z.string().max(64).optional(),
    })
    .optional(),
});

const reportedContact = z.object({
  wa_id: z.string().min(1).max(128).optional(),
  user_id: z.string().min(1).max(160).optional(),
  parent_user_id: z.string().min(1).max(160).optional(),
  profile: z.object({ name: z.string().optional(), username: z.string().optional() }).optional(),
});

/** A change's value, with its parts left unread: each is read on its own. */
const messagesValue = z.object({
  metadata: z.object({ phone_number_id: z.string().min(1) }),
  contacts: z.array(z.unknown()).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
});

const envelope = z.object({
  object: z.string(),
  entry: z.array(z.object({ id: z.string().optional(), changes: z.array(z.object({ field: z.string(), value: z.unknown() })) })),
});

/** The text kept as the message body: the text itself, a caption, a reply's title, or the kind in brackets. */
function bodyOf(message: InboundMessage): string {
  switch (message.type) {
    case 'text':
      return message.text?.body ?? '';
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker': {
      const attachment = message[message.type];
      return attachment?.caption || attachment?.filename || `[${message.type}]`;
    }
    case 'location': {
      const { latitude, longitude, name, address } = message.location!;
      return ['[location]', name, address, `(${latitude}, ${longitude})`].filter(Boolean).join(' ');
    }
    case 'button':
      return message.button?.text ?? '';
    case 'interactive':
      return message.interactive?.button_reply?.title ?? message.interactive?.list_reply?.title ?? '[interactive]';
    case 'contacts':
      return ['[contacts]', ...message.contacts!.map(cardOf).map((card) => card.name ?? card.phones[0]?.phone)].filter(Boolean).join(' ');
    case 'reaction':
      return message.reaction?.emoji ? `[reaction] ${message.reaction.emoji}` : '[reaction removed]';
    default:
      return `[${message.type}]`;
  }
}

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
const STORED_TYPES = [...MEDIA_TYPES, 'text', 'location', 'contacts', 'interactive', 'button', 'reaction'] as const;

function cardOf(card: z.infer<typeof contactCard>) {
  const { formatted_name, first_name, last_name } = card.name ?? {};
  return {
    name: formatted_name || [first_name, last_name].filter(Boolean).join(' ') || null,
    phones: (card.phones ?? []).flatMap(({ phone, wa_id, type }) =>
      phone || wa_id ? [{ phone: phone ?? null, wa_id: wa_id ?? null, type: type ?? null }] : [],
    ),
    emails: (card.emails ?? []).flatMap(({ email, type }) => (email ? [{ email, type: type ?? null }] : [])),
    organization: card.org?.company ?? null,
  };
}

/** What a message is beyond its text: its type, media, structured content, and the message it answers. */
function contentOf(message: InboundMessage): InboundContent {
  const type = (STORED_TYPES as readonly string[]).includes(message.type) ? (message.type as (typeof STORED_TYPES)[number]) : 'unsupported';
  const replyTo = message.type === 'reaction' ? message.reaction?.message_id : message.context?.id;
  const common = { type, body: bodyOf(message), media: null, content: null, reply_to_provider_message_id: replyTo ?? null };
  switch (type) {
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker': {
      const attachment = message[type] ?? {};
      return {
        ...common,
        media: {
          id: attachment.id ?? null,
          mime_type: attachment.mime_type ?? null,
          sha256: attachment.sha256 ?? null,
          filename: attachment.filename ?? null,
          caption: attachment.caption ?? null,
          size: null,
        },
      };
    }
    case 'location': {
      const { latitude, longitude, name, address, url } = message.location!;
      return { ...common, content: { location: { latitude, longitude, name: name ?? null, address: address ?? null, url: url ?? null } } };
    }
    case 'contacts':
      return { ...common, content: { contacts: message.contacts!.map(cardOf) } };
    case 'interactive': {
      const reply = message.interactive?.list_reply ?? message.interactive?.button_reply;
      const kind = message.interactive?.list_reply
        ? 'list_reply'
        : message.interactive?.button_reply
          ? 'button_reply'
          : (message.interactive?.type ?? 'unknown');
      const description = message.interactive?.list_reply?.description ?? null;
      return { ...common, content: { reply: { kind, id: reply?.id ?? null, title: reply?.title ?? null, description } } };
    }
    case 'button':
      return {
        ...common,
        content: { reply: { kind: 'quick_reply', id: message.button!.payload ?? null, title: message.button!.text, description: null } },
      };
    case 'reaction':
      return { ...common, content: { reaction: { emoji: message.reaction!.emoji || null } } };
    default:
      return common;
  }
}

const REFERENCE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toStatusUpdate(report: z.infer<typeof statusReport>): StatusUpdate | null {
  if (!(DELIVERY_STATUSES as readonly string[]).includes(report.status)) return null;
  const error = report.errors?.[0];
  const { pricing } = report;
  return {
    pricing: pricing
      ? {
          billable: pricing.billable ?? null,
          category: pricing.category,
          pricing_model: pricing.pricing_model ?? null,
          type: pricing.type ?? null,
        }
      : null,
    providerMessageId: report.id,
    status: report.status as DeliveryStatus,
    reference: report.biz_opaque_callback_data && REFERENCE.test(report.biz_opaque_callback_data) ? report.biz_opaque_callback_data : null,
    error: error
      ? {
          code: String(error.code),
          message: (error.title ?? error.message ?? 'Delivery failed').slice(0, 1000),
          details: (error.error_data?.details ?? error.message ?? null)?.slice(0, 1000) ?? null,
        }
      : null,
  };
}

export type ParsedCallback =
  { ok: true; work: CallbackWork[]; templates: TemplateWork[]; numbers: NumberWork[] } | { ok: false; problem: string };

function problemOf(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  return `${[where, ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'invalid'}`;
}

/** A part kept as a dead letter; its fingerprint (SHA-256 of its JSON) recognises a redelivery. */
export function failedPart(phoneNumberId: string | null, part: FailedPart['part'], reason: string, payload: unknown): FailedPart {
  const fingerprint = createHash('sha256').update(JSON.stringify(payload)).digest('hex');
  return { kind: 'failure', phoneNumberId, part, reason, payload, fingerprint };
}

/** A BSUID (US.1349…, US.ENT.1181…) where a wa_id is expected: early payloads put it in `from` and `wa_id`. */
const BSUID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

type Sender = z.infer<typeof reportedContact>;

/** Who sent a message, from the message's own fields and the contact entry that names the same user. */
function senderOf(message: InboundMessage, contacts: Sender[]): ReportedContact | string {
  const entry =
    contacts.find(
      (contact) =>
        (message.from !== undefined && contact.wa_id === message.from) ||
        (message.from_user_id !== undefined && contact.user_id === message.from_user_id),
    ) ?? (contacts.length === 1 ? contacts[0] : undefined);
  const ids = [message.from, entry?.wa_id].filter((id): id is string => id !== undefined);
  const waId = ids.find((id) => !BSUID.test(id)) ?? null;
  const userId = message.from_user_id ?? entry?.user_id ?? ids.find((id) => BSUID.test(id)) ?? null;
  const parentUserId = message.from_parent_user_id ?? entry?.parent_user_id ?? null;
  if (waId === null && userId === null) return 'names no sender: neither from nor from_user_id';
  if (waId !== null && !/^[A-Za-z0-9._:-]{1,128}$/.test(waId)) return 'from: is not a WhatsApp id';
  if (userId !== null && !BSUID.test(userId)) return 'from_user_id: is not a business-scoped user id';
  if (parentUserId !== null && !BSUID.test(parentUserId)) return 'from_parent_user_id: is not a business-scoped user id';
  return {
    wa_id: waId,
    user_id: userId,
    parent_user_id: parentUserId,
    username: entry?.profile?.username?.trim().slice(0, 64) || null,
    profile_name: entry?.profile?.name?.trim().slice(0, 256) || null,
  };
}

/** The change's metadata and contact entries: what a part keeps of its change beside itself. */
type Surroundings = { metadata: unknown; contacts?: unknown[] };

function readMessage(phoneNumberId: string, raw: unknown, contacts: Sender[], around: Surroundings): CallbackWork | null {
  const part = { ...around, messages: [raw] };
  const parsed = inboundMessage.safeParse(raw);
  if (!parsed.success) return failedPart(phoneNumberId, 'message', problemOf(parsed.error, 'message'), part);
  const message = parsed.data;
  if (message.type === 'system') return null;
  const content = contentOf(message);
  if (content.body.length > MAX_INBOUND_BODY_LENGTH) return failedPart(phoneNumberId, 'message', 'message: the text is too long', part);
  const contact = senderOf(message, contacts);
  if (typeof contact === 'string') return failedPart(phoneNumberId, 'message', `message.${contact}`, part);
  return {
    kind: 'message',
    phoneNumberId,
    contact,
    message: { ...content, provider_message_id: message.id, sent_at: message.timestamp },
    raw: part,
  };
}

function readStatus(phoneNumberId: string, raw: unknown, around: Surroundings): CallbackWork | null {
  const part = { metadata: around.metadata, statuses: [raw] };
  const parsed = statusReport.safeParse(raw);
  if (!parsed.success) return failedPart(phoneNumberId, 'status', problemOf(parsed.error, 'status'), part);
  const update = toStatusUpdate(parsed.data);
  if (!update) return null;
  const recipient = parsed.data.recipient_user_id;
  return { kind: 'status', phoneNumberId, update, recipientBsuid: recipient && BSUID.test(recipient) ? recipient : null, raw: part };
}

export function parseCallback(payload: unknown): ParsedCallback {
  const outer = envelope.safeParse(cleanJson(payload));
  if (!outer.success) return { ok: false, problem: problemOf(outer.error, 'payload') };
  if (outer.data.object !== 'whatsapp_business_account') return { ok: true, work: [], templates: [], numbers: [] };
  const work: CallbackWork[] = [];
  const templates: TemplateWork[] = [];
  const numbers: NumberWork[] = [];
  for (const [e, entry] of outer.data.entry.entries()) {
    for (const [c, change] of entry.changes.entries()) {
      if (TEMPLATE_FIELDS.includes(change.field)) {
        const read = readTemplateChange(entry.id, change.field, change.value);
        if (read && typeof read === 'object' && 'kind' in read) templates.push(read);
        else if (read) work.push(failedPart(null, 'change', `entry.${e}.changes.${c}.value: ${read}`, change));
        continue;
      }
      if (change.field === NUMBER_QUALITY_FIELD) {
        const read = readNumberQualityChange(entry.id, change.value);
        if (typeof read === 'string') work.push(failedPart(null, 'change', `entry.${e}.changes.${c}.value: ${read}`, change));
        else numbers.push(read);
        continue;
      }
      if (change.field !== 'messages') continue;
      const value = messagesValue.safeParse(change.value);
      if (!value.success) {
        const phoneNumberId = z.object({ metadata: z.object({ phone_number_id: z.string() }) }).safeParse(change.value);
        const where = `entry.${e}.changes.${c}.value`;
        work.push(failedPart(phoneNumberId.data?.metadata.phone_number_id ?? null, 'change', problemOf(value.error, where), change));
        continue;
      }
      const { metadata, contacts = [], messages = [], statuses = [] } = value.data;
      const senders = contacts.flatMap((contact) => {
        const parsed = reportedContact.safeParse(contact);
        return parsed.success ? [parsed.data] : [];
      });
      const phoneNumberId = metadata.phone_number_id;
      const around = { metadata: (change.value as { metadata: unknown }).metadata, contacts };
      for (const message of messages) {
        const read = readMessage(phoneNumberId, message, senders, around);
        if (read) work.push(read);
      }
      for (const report of statuses) {
        const read = readStatus(phoneNumberId, report, around);
        if (read) work.push(read);
      }
    }
  }
  return { ok: true, work, templates, numbers };
}

const TEMPLATE_FIELDS = ['message_template_status_update', 'message_template_quality_update', 'template_category_update'];
const templateId = z.union([z.string().regex(/^\d{1,32}$/), z.number().int().nonnegative()]).transform(String);
const statusChange = z.object({ event: z.string().min(1), message_template_id: templateId, reason: z.string().nullish() });
const qualityChange = z.object({ message_template_id: templateId, new_quality_score: z.string().min(1).max(32) });
const categoryChange = z.object({ message_template_id: templateId, new_category: z.string() });

/** Meta's template events folded into the spec's five statuses (FLAGGED: still sendable, its quality is low). */
const TEMPLATE_EVENT_STATUS: Record<string, TemplateStatus> = {
  APPROVED: 'APPROVED',
  REINSTATED: 'APPROVED',
  FLAGGED: 'APPROVED',
  PENDING: 'PENDING',
  IN_APPEAL: 'PENDING',
  REJECTED: 'REJECTED',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
  LIMIT_EXCEEDED: 'DISABLED',
  PENDING_DELETION: 'DISABLED',
  DELETED: 'DISABLED',
  ARCHIVED: 'DISABLED',
};

/** One template change, or why it is not the documented shape; null for an event this service does not track. */
function readTemplateChange(account: string | undefined, field: string, value: unknown): TemplateWork | string | null {
  if (!account) return 'entry.id: the business account is required';
  const at = (change: TemplateChange, id: string): TemplateWork => ({
    kind: 'template',
    businessAccountId: account,
    templateId: id,
    change,
  });
  if (field === 'message_template_status_update') {
    const parsed = statusChange.safeParse(value);
    if (!parsed.success) return problemOf(parsed.error, 'value');
    const status = TEMPLATE_EVENT_STATUS[parsed.data.event.toUpperCase()];
    const reason = parsed.data.reason && parsed.data.reason !== 'NONE' ? parsed.data.reason.slice(0, 200) : null;
    return status ? at({ kind: 'status', status, reason }, parsed.data.message_template_id) : null;
  }
  if (field === 'message_template_quality_update') {
    const parsed = qualityChange.safeParse(value);
    if (!parsed.success) return problemOf(parsed.error, 'value');
    return at({ kind: 'quality', score: parsed.data.new_quality_score.toUpperCase() }, parsed.data.message_template_id);
  }
  const parsed = categoryChange.safeParse(value);
  if (!parsed.success) return problemOf(parsed.error, 'value');
  const category = TEMPLATE_CATEGORIES.find((candidate) => candidate === parsed.data.new_category.toUpperCase());
  if (!category) return `value.new_category: must be one of ${TEMPLATE_CATEGORIES.join(', ')}`;
  return at({ kind: 'category', category }, parsed.data.message_template_id);
}

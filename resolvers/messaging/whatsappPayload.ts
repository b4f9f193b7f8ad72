// Reads a WhatsApp Cloud API webhook payload into the work it asks for: inbound messages and delivery
// status reports, each with the phone number id that routes it to an integration. Kinds of payload this
// service does not handle (other objects and fields, system messages, unknown statuses) yield no work;
// a payload that is not the documented shape is malformed and yields no work at all.
// Format: https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components
import { z } from 'zod';
import { MAX_INBOUND_BODY_LENGTH } from './inbound.js';
import { DELIVERY_STATUSES, type DeliveryStatus, type StatusUpdate } from '../../adapters/providers/types.js';

export type CallbackWork =
  | {
      kind: 'message';
      phoneNumberId: string;
      contact: { wa_id: string; profile_name: string | null };
      message: { provider_message_id: string; body: string; sent_at: Date };
    }
  | { kind: 'status'; phoneNumberId: string; update: StatusUpdate };

const unixSeconds = z
  .union([z.string().regex(/^\d{1,12}$/), z.number().int().nonnegative()])
  .transform((value) => new Date(Number(value) * 1000));

const media = z.object({ caption: z.string().optional(), filename: z.string().optional() });

const inboundMessage = z
  .object({
    from: z.string().min(1).max(128),
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
      .object({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional() })
      .optional(),
    button: z.object({ text: z.string() }).optional(),
    interactive: z
      .object({ button_reply: z.object({ title: z.string() }).optional(), list_reply: z.object({ title: z.string() }).optional() })
      .optional(),
    reaction: z.object({ emoji: z.string().optional() }).optional(),
  })
  .superRefine((message, context) => {
    for (const type of ['text', 'location', 'button'] as const) {
      if (message.type === type && !message[type]) context.addIssue({ code: 'custom', path: [type], message: 'is required' });
    }
  });

type InboundMessage = z.infer<typeof inboundMessage>;

const statusReport = z.object({
  id: z.string().min(1).max(256),
  status: z.string().min(1),
  timestamp: unixSeconds,
  recipient_id: z.string().optional(),
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
});

const messagesValue = z.object({
  metadata: z.object({ phone_number_id: z.string().min(1) }),
  contacts: z.array(z.object({ wa_id: z.string().min(1), profile: z.object({ name: z.string().optional() }).optional() })).optional(),
  messages: z.array(inboundMessage).optional(),
  statuses: z.array(statusReport).optional(),
});

const envelope = z.object({
  object: z.string(),
  entry: z.array(z.object({ changes: z.array(z.object({ field: z.string(), value: z.unknown() })) })),
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
    case 'reaction':
      return message.reaction?.emoji ? `[reaction] ${message.reaction.emoji}` : '[reaction removed]';
    default:
      return `[${message.type}]`;
  }
}

const REFERENCE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toStatusUpdate(report: z.infer<typeof statusReport>): StatusUpdate | null {
  if (!(DELIVERY_STATUSES as readonly string[]).includes(report.status)) return null;
  const error = report.errors?.[0];
  return {
    providerMessageId: report.id,
    status: report.status as DeliveryStatus,
    reference: report.biz_opaque_callback_data && REFERENCE.test(report.biz_opaque_callback_data) ? report.biz_opaque_callback_data : null,
    error: error
      ? {
          code: String(error.code),
          message: (error.error_data?.details ?? error.message ?? error.title ?? 'Delivery failed').slice(0, 1000),
        }
      : null,
  };
}

export type ParsedCallback = { ok: true; work: CallbackWork[] } | { ok: false; problem: string };

function problemOf(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  return `${[where, ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'invalid'}`;
}

export function parseCallback(payload: unknown): ParsedCallback {
  const outer = envelope.safeParse(payload);
  if (!outer.success) return { ok: false, problem: problemOf(outer.error, 'payload') };
  if (outer.data.object !== 'whatsapp_business_account') return { ok: true, work: [] };
  const work: CallbackWork[] = [];
  for (const [e, entry] of outer.data.entry.entries()) {
    for (const [c, change] of entry.changes.entries()) {
      if (change.field !== 'messages') continue;
      const value = messagesValue.safeParse(change.value);
      if (!value.success) return { ok: false, problem: problemOf(value.error, `entry.${e}.changes.${c}.value`) };
      const { metadata, contacts = [], messages = [], statuses = [] } = value.data;
      const phoneNumberId = metadata.phone_number_id;
      for (const message of messages) {
        if (message.type === 'system') continue;
        const body = bodyOf(message);
        if (body.length > MAX_INBOUND_BODY_LENGTH) return { ok: false, problem: `message ${message.id}: the text is too long` };
        const profile = contacts
          .find((contact) => contact.wa_id === message.from)
          ?.profile?.name?.trim()
          .slice(0, 256);
        work.push({
          kind: 'message',
          phoneNumberId,
          contact: { wa_id: message.from, profile_name: profile || null },
          message: { provider_message_id: message.id, body, sent_at: message.timestamp },
        });
      }
      for (const report of statuses) {
        const update = toStatusUpdate(report);
        if (update) work.push({ kind: 'status', phoneNumberId, update });
      }
    }
  }
  return { ok: true, work };
}

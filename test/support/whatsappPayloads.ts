// WhatsApp Cloud API webhook payloads and signatures, built the way the provider builds them, for tests
// that play the provider's part (and for the fake Graph server's status callbacks). Shapes follow Meta's
// reference: https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/payload-examples (messages,
// statuses, with the `pricing` object of per-message pricing on sent and delivered) and, for users known by a business-scoped user id (contacts[].user_id, profile.username,
// messages[].from_user_id, statuses[].recipient_user_id, with wa_id/from/recipient_id withheld when the
// phone number is), https://developers.facebook.com/documentation/business-messaging/whatsapp/business-scoped-user-ids/
import { createHmac, randomBytes } from 'node:crypto';

export function hubSignature(rawBody: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

export function providerMessageId(): string {
  return `wamid.${randomBytes(24).toString('base64url')}`;
}

export function unixSeconds(date: Date): string {
  return String(Math.floor(date.getTime() / 1000));
}

export function envelope(phoneNumberId: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550100000', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

export type InboundOptions = {
  /** The sender's wa_id (its phone number's digits); absent when Meta withholds the number. */
  from?: string;
  /** The sender's business-scoped user id (contacts[].user_id, messages[].from_user_id). */
  userId?: string;
  parentUserId?: string;
  username?: string;
  name?: string;
  id?: string;
  at?: Date;
  /** The message object beyond from/id/timestamp; a text message by default. */
  message?: Record<string, unknown>;
  text?: string;
};

export function inboundPayload(phoneNumberId: string, options: InboundOptions) {
  const message = options.message ?? { type: 'text', text: { body: options.text ?? 'Hello!' } };
  const profile = { name: options.name ?? 'Ana Silva', ...(options.username ? { username: options.username } : {}) };
  const ids = {
    ...(options.from ? { wa_id: options.from } : {}),
    ...(options.userId ? { user_id: options.userId } : {}),
    ...(options.parentUserId ? { parent_user_id: options.parentUserId } : {}),
  };
  const sender = {
    ...(options.from ? { from: options.from } : {}),
    ...(options.userId ? { from_user_id: options.userId } : {}),
    ...(options.parentUserId ? { from_parent_user_id: options.parentUserId } : {}),
  };
  return envelope(phoneNumberId, {
    contacts: [{ profile, ...ids }],
    messages: [{ ...sender, id: options.id ?? providerMessageId(), timestamp: unixSeconds(options.at ?? new Date()), ...message }],
  });
}

export type StatusOptions = {
  id: string;
  status: string;
  recipient: string;
  /** The recipient's business-scoped user id, reported beside its phone number. */
  recipientUserId?: string;
  reference?: string;
  errors?: { code: number; title: string; message?: string; error_data?: { details: string } }[];
  /** What the message costs, reported with sent and delivered (default: a free service reply). */
  pricing?: StatusPricing;
};

/** The `pricing` object of a status webhook, as Meta reports it under per-message pricing (PMP). */
export type StatusPricing = { billable: boolean; pricing_model: string; category: string; type: string };

/** A reply inside the customer service window: free. */
export const SERVICE_PRICING: StatusPricing = { billable: false, pricing_model: 'PMP', category: 'service', type: 'free_customer_service' };

/** A template of `category` (MARKETING, UTILITY, AUTHENTICATION), charged at the regular rate. */
export function templatePricing(category: string): StatusPricing {
  return { billable: true, pricing_model: 'PMP', category: category.toLowerCase(), type: 'regular' };
}

export function statusPayload(phoneNumberId: string, options: StatusOptions) {
  return envelope(phoneNumberId, {
    statuses: [
      {
        id: options.id,
        status: options.status,
        timestamp: unixSeconds(new Date()),
        // A business-scoped user id is reported as recipient_user_id, a phone number as recipient_id.
        ...(/^[A-Z]{2}\./.test(options.recipient) ? { recipient_user_id: options.recipient } : { recipient_id: options.recipient }),
        ...(options.recipientUserId ? { recipient_user_id: options.recipientUserId } : {}),
        ...(options.reference ? { biz_opaque_callback_data: options.reference } : {}),
        ...(options.status === 'sent' || options.status === 'delivered' ? { pricing: options.pricing ?? SERVICE_PRICING } : {}),
        ...(options.errors ? { errors: options.errors } : {}),
      },
    ],
  });
}

/** A template change of a business account, as Meta sends it: entry.id is the WABA id, the field names the kind. */
function templateEnvelope(businessAccountId: string, field: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: businessAccountId, time: Math.floor(Date.now() / 1000), changes: [{ value, field }] }],
  };
}

export type TemplateRef = { id: string; name: string; language: string };

/** message_template_status_update (Meta's reference: event, message_template_id as a number, reason NONE when approved). */
export function templateStatusPayload(businessAccountId: string, template: TemplateRef, event: string, reason = 'NONE') {
  return templateEnvelope(businessAccountId, 'message_template_status_update', {
    event,
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
    reason,
  });
}

/** message_template_quality_update. */
export function templateQualityPayload(businessAccountId: string, template: TemplateRef, previous: string, next: string) {
  return templateEnvelope(businessAccountId, 'message_template_quality_update', {
    previous_quality_score: previous,
    new_quality_score: next,
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
  });
}

/** template_category_update. */
export function templateCategoryPayload(businessAccountId: string, template: TemplateRef, previous: string, next: string) {
  return templateEnvelope(businessAccountId, 'template_category_update', {
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
    previous_category: previous,
    new_category: next,
  });
}

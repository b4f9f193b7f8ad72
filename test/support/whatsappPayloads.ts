// WhatsApp Cloud API webhook payloads and signatures, built the way the provider builds them, for tests
// that play the provider's part (and for the fake Graph server's status callbacks).
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
  from: string;
  name?: string;
  id?: string;
  at?: Date;
  /** The message object beyond from/id/timestamp; a text message by default. */
  message?: Record<string, unknown>;
  text?: string;
};

export function inboundPayload(phoneNumberId: string, options: InboundOptions) {
  const message = options.message ?? { type: 'text', text: { body: options.text ?? 'Hello!' } };
  return envelope(phoneNumberId, {
    contacts: [{ profile: { name: options.name ?? 'Ana Silva' }, wa_id: options.from }],
    messages: [{ from: options.from, id: options.id ?? providerMessageId(), timestamp: unixSeconds(options.at ?? new Date()), ...message }],
  });
}

export type StatusOptions = {
  id: string;
  status: string;
  recipient: string;
  reference?: string;
  errors?: { code: number; title: string; message?: string; error_data?: { details: string } }[];
};

export function statusPayload(phoneNumberId: string, options: StatusOptions) {
  return envelope(phoneNumberId, {
    statuses: [
      {
        id: options.id,
        status: options.status,
        timestamp: unixSeconds(new Date()),
        recipient_id: options.recipient,
        ...(options.reference ? { biz_opaque_callback_data: options.reference } : {}),
        ...(options.status === 'sent'
          ? {
              conversation: { id: 'CONVERSATION_ID', origin: { type: 'service' } },
              pricing: { billable: true, pricing_model: 'PMP', category: 'service' },
            }
          : {}),
        ...(options.errors ? { errors: options.errors } : {}),
      },
    ],
  });
}

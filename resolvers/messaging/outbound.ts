// The one path of an outbound message, shared by messageSend and the campaign runner: the message is recorded
// (status pending) before the provider is called, the provider is called outside any transaction, and its
// outcome (sent with the provider's id, or failed with its error) is recorded after, with its message.status
// event. The pending message is recorded with a message.created event, so dashboards see it at once. A
// provider failure leaves the message recorded as failed, never lost.
import { z } from 'zod';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { MessagingProvider, OutboundContent } from '../../adapters/providers/types.js';
import { fillTemplate } from '../../adapters/providers/templates.js';
import { ProviderError } from '../../adapters/providers/errors.js';
import type { Db } from '../shared/context.js';
import { advanceMessageStatus, type Failure } from './messageStatus.js';
import { recordMessageEvent } from './messageEvents.js';
import { sendableTemplate } from './templates.js';

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

export type TemplateRequest = z.infer<typeof templateInput>;

/** What is sent, whoever sends it. */
export type OutboundMessage = {
  content: OutboundContent;
  /** The text stored as the message body (for a template: its rendered header, body and footer). */
  body: string;
  template: TemplateRequest | null;
};

/** Who wrote a message: the contact, a user, an API key, the AI agent or a campaign, and its id. */
export type MessageSender = { type: 'contact' | 'user' | 'api_key' | 'agent' | 'campaign'; id: string | null };

export type OutboundSend = OutboundMessage & {
  workspaceId: string;
  sender: MessageSender;
  conversationId: string;
  provider: MessagingProvider;
  /** The contact's provider address. */
  to: string;
};

/** Where the provider reaches a contact: its wa_id, else its phone number without the +; null when it has neither. */
export function messagingAddress(contact: { wa_id: string | null; phone_number: string | null }): string | null {
  return contact.wa_id ?? contact.phone_number?.replace(/^\+/, '') ?? null;
}

/** The message of an APPROVED template with every slot filled, or the reason it cannot be sent. */
export async function templateMessage(provider: MessagingProvider, request: TemplateRequest): Promise<OutboundMessage> {
  const template = await sendableTemplate(provider, request);
  const filled = fillTemplate(template, request.parameters);
  return { content: filled.content, body: filled.text, template: request };
}

/** Records the outbound message as pending with its message.created event, in the caller's transaction; returns its id. */
export async function recordPendingMessage(tx: Db, send: OutboundSend): Promise<string> {
  const { id } = await tx.message.create({
    data: {
      company_id: send.workspaceId,
      conversation_id: send.conversationId,
      direction: 'outbound',
      body: send.body,
      type: send.template ? 'template' : 'text',
      status: 'pending',
      sender_type: send.sender.type,
      sender_id: send.sender.id,
      template_name: send.template?.name ?? null,
      template_language: send.template?.language ?? null,
      template_parameters: send.template ? send.template.parameters : undefined,
    },
    select: { id: true },
  });
  await recordMessageEvent(tx, send.workspaceId, 'message.created', id);
  return id;
}

function failureRecord(error: unknown): Failure {
  if (error instanceof ProviderError) return { error_code: error.code ?? error.reason, error_title: error.message };
  return { error_code: 'internal', error_title: 'Unexpected error while sending' };
}

export type DispatchOutcome = { sent: true; providerMessageId: string } | { sent: false; error: unknown };

/** Hands a recorded pending message to the provider (outside any transaction) and records the outcome. */
export async function dispatchMessage(prisma: PrismaClient, send: OutboundSend, messageId: string): Promise<DispatchOutcome> {
  const { workspaceId } = send;
  let providerMessageId: string;
  try {
    ({ providerMessageId } = await send.provider.send({ to: send.to, reference: messageId, content: send.content }));
  } catch (error) {
    await prisma.$transaction((tx) => advanceMessageStatus(tx, workspaceId, messageId, 'failed', failureRecord(error)));
    return { sent: false, error };
  }
  // A status report that arrived first may already have moved the message further; then this is a no-op.
  await prisma.$transaction((tx) => advanceMessageStatus(tx, workspaceId, messageId, 'sent', { provider_message_id: providerMessageId }));
  return { sent: true, providerMessageId };
}

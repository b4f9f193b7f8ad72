// The one path of an outbound message, shared by messageSend and the campaign runner: the message is recorded
// (status pending) before the provider is called, the provider is called outside any transaction, and its
// outcome (sent with the provider's id, or failed with its error) is recorded after, with its message.status
// event. The pending message is recorded with a message.created event, so dashboards see it at once. A
// provider failure leaves the message recorded as failed, never lost. A request's send takes the whole path in one
// call (deliverMessage); a campaign records in its own transaction and dispatches after.
import type { MessagingProvider, OutboundContent, Recipient } from '../../adapters/providers/types.js';
import { fillTemplate } from '../../adapters/providers/templates.js';
import type { TemplateRequest } from '../templates/templateInput.js';
import { ProviderError } from '../../adapters/providers/errors.js';
import type { Context, Db } from '../shared/context.js';
import { providerFailure } from '../shared/providerFailure.js';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { applyFailureEffects } from './failureEffects.js';
import { forwardMove } from './messageStatus.js';
import type { Failure, StatusMoves } from '../shared/statusMoves.js';
import { v7 as uuidv7 } from 'uuid';
import { recordingMessageEvent } from './messageEvents.js';
import { messageViewSelect, type MessageView } from '../shared/views.js';
import { sendableTemplate } from '../templates/templates.js';

export { templateInput, templateSendInput, type TemplateRequest } from '../templates/templateInput.js';

/** What is sent, whoever sends it. */
export type OutboundMessage = {
  content: OutboundContent;
  /** The text stored as the message body (for a template: its rendered header, body and footer). */
  body: string;
  template: TemplateRequest | null;
  /** A template's category (MARKETING, UTILITY, AUTHENTICATION): a MARKETING one needs the contact's consent. */
  category?: string;
  /** What the record keeps of a media message's file. */
  media?: Record<string, unknown>;
};

/** Who wrote a message: the contact, a user, an API key, the AI agent, a campaign, an automation rule or a consent
 * keyword's confirmation, and its id. */
export type MessageSender = {
  type: 'contact' | 'user' | 'api_key' | 'agent' | 'campaign' | 'automation' | 'consent';
  id: string | null;
};

export type OutboundSend = OutboundMessage & {
  workspaceId: string;
  sender: MessageSender;
  conversationId: string;
  provider: MessagingProvider;
  /** The contact's provider address. */
  to: Recipient;
};

export type AddressableContact = { wa_id: string | null; phone_number: string | null; bsuid: string | null };

/**
 * Where the provider reaches a contact: its wa_id, else its phone number without the +, else its
 * business-scoped user id (Meta prefers the phone number when there is one); null when it has none.
 */
export function messagingAddress(contact: AddressableContact): Recipient | null {
  const phone = contact.wa_id ?? contact.phone_number?.replace(/^\+/, '') ?? null;
  if (phone) return { kind: 'phone', id: phone };
  return contact.bsuid ? { kind: 'bsuid', id: contact.bsuid } : null;
}

/** The message of an APPROVED template with every slot filled, or the reason it cannot be sent. */
export async function templateMessage(provider: MessagingProvider, request: TemplateRequest): Promise<OutboundMessage> {
  const { template, values } = await sendableTemplate(provider, request);
  const filled = fillTemplate(template, values);
  return { content: filled.content, body: filled.text, template: request, category: template.category };
}

/** What a template send is stored with: its flat list, or its parts. */
function storedParameters(template: TemplateRequest) {
  if (template.parameters.length || (template.header == null && template.body == null && template.buttons == null))
    return template.parameters;
  return { header: template.header ?? null, body: template.body ?? null, buttons: template.buttons ?? null };
}

/** A JSON column's value: SQL NULL when there is none. */
const jsonValue = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** Records the outbound message as pending with its message.created event, in one statement; returns its id. */
export async function recordPendingMessage(db: Db, send: OutboundSend): Promise<string> {
  const type = send.content.type === 'media' ? send.content.media.type : send.content.type;
  const [recorded] = await db.$queryRaw<{ id: string }[]>`
    WITH message AS (
      INSERT INTO messages (id, company_id, conversation_id, direction, body, type, media, status, sender_type, sender_id,
                            template_name, template_language, template_parameters, created_at, updated_at)
      VALUES (${uuidv7()}::uuid, ${send.workspaceId}::uuid, ${send.conversationId}::uuid, 'outbound', ${send.body}, ${type},
              ${jsonValue(send.media)}::jsonb, 'pending', ${send.sender.type}, ${send.sender.id},
              ${send.template?.name ?? null}, ${send.template?.language ?? null},
              ${jsonValue(send.template ? storedParameters(send.template) : null)}::jsonb, now(), now())
      RETURNING *),
    ${recordingMessageEvent(send.workspaceId, 'message.created')}
    SELECT id FROM viewed`;
  return recorded!.id;
}

function failureRecord(error: unknown): Failure {
  if (error instanceof ProviderError) {
    return { error_code: error.code ?? error.reason, error_title: error.message, error_details: error.details };
  }
  return { error_code: 'internal', error_title: 'Unexpected error while sending' };
}

/** `message` is the message as sent, or null when a status report got there first and moved it further. */
export type DispatchOutcome = { sent: true; providerMessageId: string; message: MessageView | null } | { sent: false; error: unknown };

/**
 * Hands a recorded pending message to the provider (outside any transaction; the provider adapter retries
 * throughput and pair-rate refusals itself) and records the outcome, with what the provider's error code changes
 * beyond the message (failureEffects.ts).
 */
export async function dispatchMessage(
  { prisma, statusMoves }: { prisma: PrismaClient; statusMoves: StatusMoves },
  send: OutboundSend,
  messageId: string,
): Promise<DispatchOutcome> {
  const { workspaceId } = send;
  let providerMessageId: string;
  try {
    ({ providerMessageId } = await send.provider.send({ to: send.to, reference: messageId, content: send.content }));
  } catch (error) {
    const failure = failureRecord(error);
    await statusMoves.move(workspaceId, forwardMove(messageId, 'failed', failure));
    await applyFailureEffects(prisma, workspaceId, messageId, failure.error_code);
    return { sent: false, error };
  }
  // A status report that arrived first may already have moved the message further; then this is a no-op.
  const moved = await statusMoves.move(workspaceId, forwardMove(messageId, 'sent', { provider_message_id: providerMessageId }));
  return { sent: true, providerMessageId, message: moved };
}

/** A checked send of a request (messageSend): recorded pending, handed to the provider, and answered as it stands
 * after; the provider's refusal is PROVIDER_ERROR naming the message, which stays recorded as failed. */
export async function deliverMessage(ctx: Pick<Context, 'prisma' | 'statusMoves'>, send: OutboundSend): Promise<MessageView> {
  const id = await recordPendingMessage(ctx.prisma, send);
  const outcome = await dispatchMessage(ctx, send, id);
  if (!outcome.sent) throw providerFailure(outcome.error, { message_id: id });
  return outcome.message ?? (await ctx.prisma.message.findUniqueOrThrow({ where: { id }, select: messageViewSelect }));
}

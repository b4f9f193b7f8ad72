// Delivery status of outbound messages. Statuses only move forward, in this order:
//   pending (recorded, provider not yet answered) < sent < failed < delivered < read
// so a late or redelivered report never undoes a later one (read never becomes delivered). `failed`
// ranks above sent (the provider gave up after accepting) but below delivered and read, which prove
// delivery. Inbound messages have the single status `received`. A campaign recipient follows its message's
// status in the same transaction (resolvers/campaigns/recipients.ts).
import { z } from 'zod';
import { DELIVERY_STATUSES, type StatusUpdate } from '../../adapters/providers/types.js';
import type { Context, Db } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { followingRecipients } from './campaignRecipients.js';
import { recordingMessageEvent, VIEWED_MESSAGE } from './messageEvents.js';
import type { MessageView } from '../shared/views.js';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { adoptReportedIdentities, bsuid } from '../contacts/channels.js';
import { parseInput, uuid } from '../shared/validation.js';

const OUTBOUND_STATUSES = ['pending', 'sent', 'failed', 'delivered', 'read'] as const;
type OutboundStatus = (typeof OUTBOUND_STATUSES)[number];
export const INBOUND_STATUS = 'received';

function statusesBefore(status: OutboundStatus): OutboundStatus[] {
  return OUTBOUND_STATUSES.slice(0, OUTBOUND_STATUSES.indexOf(status));
}

/** Why a message failed: the provider's code, its short title and, when it gave them, its details. */
export type Failure = { error_code: string; error_title: string; error_details?: string | null };
type Extra = Partial<Failure> & { provider_message_id?: string };

/**
 * The message a status move is for: by our id, or as a provider's report names it (its id for the message, or,
 * while our own send has not yet recorded that id, the reference we gave it: our message id).
 */
type MessageTarget = { id: string } | { providerMessageId: string; reference: string | null };

/** The condition on the messages table (named `table` in the statement) that picks the target. */
function targetCondition(target: MessageTarget, table = 'messages'): Prisma.Sql {
  const column = (name: string) => Prisma.raw(`${table}.${name}`);
  if ('id' in target) return Prisma.sql`${column('id')} = ${target.id}::uuid`;
  if (!target.reference) return Prisma.sql`${column('provider_message_id')} = ${target.providerMessageId}`;
  return Prisma.sql`(${column('provider_message_id')} = ${target.providerMessageId} OR (${column('id')} = ${target.reference}::uuid AND ${column('provider_message_id')} IS NULL))`;
}

/**
 * One conditional UPDATE: the status moves only from one of `from`; the time of the new status is stamped, and
 * so are the times of the steps it implies and that were never reported (read implies delivered and sent).
 */
async function moveMessage(
  tx: Db,
  workspaceId: string,
  target: MessageTarget,
  from: OutboundStatus[],
  status: OutboundStatus,
  extra: Extra,
): Promise<MessageView | null> {
  const reached = (step: OutboundStatus) => OUTBOUND_STATUSES.indexOf(status) >= OUTBOUND_STATUSES.indexOf(step) && status !== 'failed';
  // One statement: the move, the moved row read with its conversation and contact, its message.status event and
  // the campaign recipient that follows it. Being one statement it is atomic without a transaction of its own.
  const [moved] = await tx.$queryRaw<MessageView[]>`
    WITH message AS (
      UPDATE messages SET
        status = ${status},
        provider_message_id = COALESCE(${extra.provider_message_id ?? null}, provider_message_id),
        error_code = COALESCE(${extra.error_code ?? null}, error_code),
        error_title = COALESCE(${extra.error_title ?? null}, error_title),
        error_details = COALESCE(${extra.error_details ?? null}, error_details),
        sent_at = CASE WHEN ${reached('sent')} THEN COALESCE(sent_at, now()) ELSE sent_at END,
        delivered_at = CASE WHEN ${reached('delivered')} THEN COALESCE(delivered_at, now()) ELSE delivered_at END,
        read_at = CASE WHEN ${reached('read')} THEN COALESCE(read_at, now()) ELSE read_at END,
        failed_at = CASE WHEN ${status === 'failed'} THEN COALESCE(failed_at, now()) ELSE failed_at END,
        updated_at = now()
      WHERE ${targetCondition(target)} AND company_id = ${workspaceId}::uuid AND direction = 'outbound' AND status = ANY(${from}::text[])
      RETURNING *),
    ${recordingMessageEvent(workspaceId, 'message.status')},
    followed AS (${followingRecipients(Prisma.sql`message`)})
    SELECT ${VIEWED_MESSAGE} FROM viewed`;
  return moved ?? null;
}

/**
 * Moves an outbound message forward to `status` and records message.status, in the caller's transaction, and
 * returns the message as moved; does nothing (and returns null) when the message is already there or further.
 */
export function advanceMessageStatus(
  tx: Db,
  workspaceId: string,
  messageId: string,
  status: OutboundStatus,
  extra: Extra = {},
): Promise<MessageView | null> {
  return moveMessage(tx, workspaceId, { id: messageId }, statusesBefore(status), status, extra);
}

/** Fails a message that is still pending (the provider never answered for it); false when it has moved on. */
export async function failPendingMessage(tx: Db, workspaceId: string, messageId: string, failure: Failure): Promise<boolean> {
  return (await moveMessage(tx, workspaceId, { id: messageId }, ['pending'], 'failed', failure)) !== null;
}

const statusUpdateInput = z.object({
  providerMessageId: z.string().min(1).max(256),
  status: z.enum(DELIVERY_STATUSES),
  reference: uuid.nullable(),
  error: z.object({ code: z.string().max(64), message: z.string().max(1000) }).nullable(),
  recipientBsuid: bsuid.nullish(),
});

/** A delivery report, with the business-scoped user id of its recipient when the provider names it. */
export type ReportedStatus = StatusUpdate & { recipientBsuid?: string | null };

/**
 * Applies a provider's delivery report to the message it names, for the actor's workspace. The message is
 * found by its provider id or, while our own send has not yet recorded that id, by the reference we gave
 * the provider (our message id). Reports about unknown messages are ignored. The recipient's business-scoped
 * user id (`recipient_user_id`), when reported, becomes the contact's BSUID where it has none: a contact
 * first written to by phone number is then known by its BSUID too. A report without one (most of them) is one
 * statement that finds and moves the message.
 */
export async function applyStatusUpdate(ctx: Context, update: ReportedStatus): Promise<{ applied: boolean }> {
  const { workspaceId } = requireActor(ctx);
  const input = parseInput(statusUpdateInput, update);
  const failure: Partial<Failure> =
    input.status === 'failed' && input.error ? { error_code: input.error.code, error_title: input.error.message } : {};
  const extra = { provider_message_id: input.providerMessageId, ...failure };
  if (!input.recipientBsuid) {
    const target = { providerMessageId: input.providerMessageId, reference: input.reference };
    const moved = await moveMessage(ctx.prisma, workspaceId, target, statusesBefore(input.status), input.status, extra);
    return { applied: moved !== null };
  }
  const recipientBsuid = input.recipientBsuid;
  const target = { providerMessageId: input.providerMessageId, reference: input.reference };
  return ctx.prisma.$transaction(async (tx) => {
    // The contact adopts the reported id even when the message has already moved past this status.
    const [message] = await tx.$queryRaw<{ id: string; customer_id: string; provider: string }[]>`
      SELECT message.id, conversation.customer_id, conversation.provider
      FROM messages message JOIN conversations conversation ON conversation.id = message.conversation_id
      WHERE ${targetCondition(target, 'message')} AND message.company_id = ${workspaceId}::uuid AND message.direction = 'outbound'`;
    if (!message) return { applied: false };
    const { customer_id, provider } = message;
    await adoptReportedIdentities(tx, workspaceId, customer_id, [{ type: 'bsuid', provider, value: recipientBsuid }]);
    const moved = await advanceMessageStatus(tx, workspaceId, message.id, input.status, extra);
    return { applied: moved !== null };
  });
}

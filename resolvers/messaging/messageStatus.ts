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
import { EVENT_OF_EACH_ROW, recordingMessageEvent, VIEWED_MESSAGE } from './messageEvents.js';
import { newEvent } from '../shared/outbox.js';
import type { MessageView } from '../shared/views.js';
import {
  OUTBOUND_STATUSES,
  type Failure,
  type MessageTarget,
  type MoveRecord,
  type OutboundStatus,
  type StatusMove,
} from '../shared/statusMoves.js';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { adoptReportedIdentities, bsuid } from '../contacts/channels.js';
import { parseInput, uuid } from '../shared/validation.js';
import { applyFailureEffects } from './failureEffects.js';

export const INBOUND_STATUS = 'received';

function statusesBefore(status: OutboundStatus): OutboundStatus[] {
  return OUTBOUND_STATUSES.slice(0, OUTBOUND_STATUSES.indexOf(status));
}

/** A move's target as SQL values: our id, or the provider's id and our reference; what a target does not name is NULL. */
type TargetValues = { id: Prisma.Sql; providerMessageId: Prisma.Sql; reference: Prisma.Sql };

/** The condition on the messages table that picks a move's message. */
function targetCondition(target: TargetValues): Prisma.Sql {
  return Prisma.sql`(messages.id = ${target.id} OR messages.provider_message_id = ${target.providerMessageId}
    OR (messages.id = ${target.reference} AND messages.provider_message_id IS NULL))`;
}

/** The names a move's target gives its message: our id, or the provider's id and our reference (our id). */
function targetNames(target: MessageTarget): string[] {
  if ('id' in target) return [`id:${target.id}`];
  return [`provider:${target.providerMessageId}`, ...(target.reference ? [`id:${target.reference}`] : [])];
}

/**
 * The moves in rounds, each a statement in which no two moves name the same message (an update moves a row once,
 * by one of the moves that match it): a later move of a message waits for the round after its earlier one.
 */
function rounds(moves: StatusMove[]): number[][] {
  const result: { indexes: number[]; names: Set<string> }[] = [];
  moves.forEach((move, index) => {
    const names = targetNames(move.target);
    const round = result.findLastIndex((candidate) => names.some((name) => candidate.names.has(name))) + 1;
    if (round === result.length) result.push({ indexes: [], names: new Set() });
    result[round]!.indexes.push(index);
    for (const name of names) result[round]!.names.add(name);
  });
  return result.map((round) => round.indexes);
}

/**
 * Moves messages forward, each move one conditional update: the status moves only from one of its `from`; the time
 * of the new status is stamped, and so are the times of the steps it implies and that were never reported (read
 * implies delivered and sent). Each moved message records its message.status event and its campaign recipient
 * follows it. Answers each move's message as moved, or null when it was not found or already there or further.
 * One statement per round (each message once per round): atomic without a transaction of its own.
 */
export async function moveMessages(db: Db, workspaceId: string, moves: StatusMove[]): Promise<(MessageView | null)[]> {
  const moved: (MessageView | null)[] = moves.map(() => null);
  for (const round of rounds(moves)) {
    const rows = await moveRound(
      db,
      workspaceId,
      round.map((index) => moves[index]!),
    );
    for (const row of rows) moved[round[row.position - 1]!] = row;
  }
  return moved;
}

function moveRound(db: Db, workspaceId: string, moves: StatusMove[]): Promise<(MessageView & { position: number })[]> {
  return db.$queryRaw<(MessageView & { position: number })[]>(moveStatement(workspaceId, moves));
}

/** The least power of two that is `count` or more. */
function roundedUp(count: number): number {
  return 2 ** Math.ceil(Math.log2(count));
}

/** The one statement of a round of moves (exported for the test that reads its plan). */
export function moveStatement(workspaceId: string, moves: StatusMove[]): Prisma.Sql {
  const rows = moves.map((move, index) => {
    const event = newEvent();
    const { target, extra } = move;
    return {
      message_id: 'id' in target ? target.id : null,
      provider_message_id: 'id' in target ? null : target.providerMessageId,
      reference: 'id' in target ? null : target.reference,
      from_statuses: move.from.join(','),
      status: move.status,
      new_provider_message_id: extra.provider_message_id ?? null,
      error_code: extra.error_code ?? null,
      error_title: extra.error_title ?? null,
      error_details: extra.error_details ?? null,
      pricing: extra.pricing ?? null,
      event_id: event.id,
      event_at: event.createdAt,
      position: index + 1,
    };
  });
  // The moves are one JSON parameter: PostgreSQL then estimates the same number of rows for every call and keeps one
  // generic plan of the statement (0.03 ms to plan; arrays of moves were planned anew at each call, 0.6 ms). The
  // LIMIT (all of them) makes that estimate a few rows instead of a function's default hundred, for which the planner
  // hashed the whole messages table of a database of a few ten thousand messages at every move (10–17 ms a move).
  // The LIMIT is written into the statement, not passed: a parameter's value reaches only a custom plan, which the
  // planner then preferred to the generic one and made at every execution (about 1 ms of planning each). Rounded up to
  // a power of two, it makes ten statements of every round's size up to MAX_MOVES, each kept with its generic plan.
  return Prisma.sql`
    WITH move AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS move(message_id uuid, provider_message_id text,
        reference uuid, from_statuses text, status text, new_provider_message_id text, error_code text, error_title text,
        error_details text, pricing jsonb, event_id uuid, event_at timestamptz, position int)
      LIMIT ${Prisma.raw(String(roundedUp(rows.length)))}),
    target AS (
      SELECT move.*, found.id AS id
      FROM move CROSS JOIN LATERAL (
        SELECT messages.id FROM messages
        WHERE ${targetCondition({ id: Prisma.sql`move.message_id`, providerMessageId: Prisma.sql`move.provider_message_id`, reference: Prisma.sql`move.reference` })}
          AND messages.company_id = ${workspaceId}::uuid AND messages.direction = 'outbound'
          AND messages.status = ANY(string_to_array(move.from_statuses, ','))
        LIMIT 1) found),
    message AS (
      UPDATE messages SET
        status = target.status,
        provider_message_id = COALESCE(target.new_provider_message_id, messages.provider_message_id),
        error_code = COALESCE(target.error_code, messages.error_code),
        error_title = COALESCE(target.error_title, messages.error_title),
        error_details = COALESCE(target.error_details, messages.error_details),
        pricing = COALESCE(target.pricing, messages.pricing),
        sent_at = CASE WHEN target.status IN ('sent', 'delivered', 'read') THEN COALESCE(sent_at, now()) ELSE sent_at END,
        delivered_at = CASE WHEN target.status IN ('delivered', 'read') THEN COALESCE(delivered_at, now()) ELSE delivered_at END,
        read_at = CASE WHEN target.status = 'read' THEN COALESCE(read_at, now()) ELSE read_at END,
        failed_at = CASE WHEN target.status = 'failed' THEN COALESCE(failed_at, now()) ELSE failed_at END,
        updated_at = now()
      -- The status again: a move that waited for another's lock on the row moves only if the status it finds still allows.
      FROM target WHERE messages.id = target.id AND messages.status = ANY(string_to_array(target.from_statuses, ','))
      RETURNING messages.*, target.event_id, target.event_at, target.position),
    ${recordingMessageEvent(workspaceId, 'message.status', EVENT_OF_EACH_ROW)},
    followed AS (${followingRecipients(Prisma.sql`message`)})
    SELECT ${VIEWED_MESSAGE}, position FROM viewed`;
}

/**
 * Moves an outbound message forward to `status` and records message.status, in the caller's transaction, and
 * returns the message as moved; does nothing (and returns null) when the message is already there or further.
 */
export async function advanceMessageStatus(
  tx: Db,
  workspaceId: string,
  messageId: string,
  status: OutboundStatus,
  extra: MoveRecord = {},
): Promise<MessageView | null> {
  const [moved] = await moveMessages(tx, workspaceId, [forwardMove(messageId, status, extra)]);
  return moved!;
}

/** The move of our message `messageId` forward to `status` (from any status before it). */
export function forwardMove(messageId: string, status: OutboundStatus, extra: MoveRecord = {}): StatusMove {
  return { target: { id: messageId }, from: statusesBefore(status), status, extra };
}

/** Fails a message that is still pending (the provider never answered for it); false when it has moved on. */
export async function failPendingMessage(tx: Db, workspaceId: string, messageId: string, failure: Failure): Promise<boolean> {
  const [moved] = await moveMessages(tx, workspaceId, [{ target: { id: messageId }, from: ['pending'], status: 'failed', extra: failure }]);
  return moved !== null;
}

const statusUpdateInput = z.object({
  providerMessageId: z.string().min(1).max(256),
  status: z.enum(DELIVERY_STATUSES),
  reference: uuid.nullable(),
  error: z.object({ code: z.string().max(64), message: z.string().max(1000), details: z.string().max(1000).nullish() }).nullable(),
  pricing: z
    .object({ billable: z.boolean().nullable(), category: z.string(), pricing_model: z.string().nullable(), type: z.string().nullable() })
    .nullish(),
  recipientBsuid: bsuid.nullish(),
});

/** The SQL values of a report's target: the provider's id and our reference, no id of ours. */
function reportedTarget(input: { providerMessageId: string; reference: string | null }): TargetValues {
  return {
    id: Prisma.sql`NULL::uuid`,
    providerMessageId: Prisma.sql`${input.providerMessageId}`,
    reference: Prisma.sql`${input.reference}::uuid`,
  };
}

/** A delivery report, with the business-scoped user id of its recipient when the provider names it. */
export type ReportedStatus = StatusUpdate & { recipientBsuid?: string | null };

/**
 * Applies a provider's delivery report to the message it names, for the actor's workspace. The message is
 * found by its provider id or, while our own send has not yet recorded that id, by the reference we gave
 * the provider (our message id). Reports about unknown messages are ignored. The recipient's business-scoped
 * user id (`recipient_user_id`), when reported, becomes the contact's BSUID where it has none: a contact
 * first written to by phone number is then known by its BSUID too. A report without one (most of them) is applied
 * with the other reports that arrive at the same time, in one statement (statusMoves.ts).
 */
export async function applyStatusUpdate(ctx: Context, update: ReportedStatus): Promise<{ applied: boolean }> {
  const { workspaceId } = requireActor(ctx);
  const input = parseInput(statusUpdateInput, update);
  const failure: Partial<Failure> =
    input.status === 'failed' && input.error
      ? { error_code: input.error.code, error_title: input.error.message, error_details: input.error.details ?? null }
      : {};
  const extra = { provider_message_id: input.providerMessageId, pricing: input.pricing ?? null, ...failure };
  const applied = await applyReport(ctx, workspaceId, input, extra);
  if (applied && failure.error_code) await applyFailureEffects(ctx.prisma, workspaceId, applied.id, failure.error_code);
  return { applied: applied !== null };
}

async function applyReport(
  ctx: Context,
  workspaceId: string,
  input: z.infer<typeof statusUpdateInput>,
  extra: MoveRecord,
): Promise<MessageView | null> {
  if (!input.recipientBsuid) {
    const target = { providerMessageId: input.providerMessageId, reference: input.reference };
    return ctx.statusMoves.move(workspaceId, { target, from: statusesBefore(input.status), status: input.status, extra });
  }
  const recipientBsuid = input.recipientBsuid;
  return ctx.prisma.$transaction(async (tx) => {
    // The contact adopts the reported id even when the message has already moved past this status.
    const [message] = await tx.$queryRaw<{ id: string; customer_id: string; provider: string }[]>`
      SELECT messages.id, conversation.customer_id, conversation.provider
      FROM messages JOIN conversations conversation ON conversation.id = messages.conversation_id
      WHERE ${targetCondition(reportedTarget(input))} AND messages.company_id = ${workspaceId}::uuid AND messages.direction = 'outbound'`;
    if (!message) return null;
    const { customer_id, provider } = message;
    await adoptReportedIdentities(tx, workspaceId, customer_id, [{ type: 'bsuid', provider, value: recipientBsuid }]);
    return advanceMessageStatus(tx, workspaceId, message.id, input.status, extra);
  });
}

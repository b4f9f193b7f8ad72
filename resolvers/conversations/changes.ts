// Changing a conversation of the caller's workspace: its assignee, AI agent switch and details, and its
// status through the transition table of resolvers/conversations/status.ts. Each change that alters what a
// dashboard shows is announced by a `conversation.updated` event committed with it (webhooks, feed, live).
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { idInput, parseInput, uuid } from '../shared/validation.js';
import { CONVERSATION_TRANSITIONS, type ConversationAction } from './status.js';
import { recordEvent } from '../shared/outbox.js';
import { conversationViewSelect, type ConversationView } from '../shared/views.js';

type Query = { select?: Prisma.ConversationSelect; include?: Prisma.ConversationInclude };

const updateInput = z.object({
  id: uuid,
  assigned_user_id: uuid.nullish(),
  service_enabled: z.boolean({ message: 'must be true or false' }).optional(),
  details: z.record(z.string(), z.unknown(), { message: 'must be an object' }).nullish(),
});

export async function updateConversation(ctx: Context, input: Record<string, unknown>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id, assigned_user_id, service_enabled, details } = parseInput(updateInput, input);
  const found = await ctx.prisma.conversation.findFirst({ where: { id, company_id: workspaceId }, select: { id: true } });
  if (!found) throw notFound('Conversation');
  if (assigned_user_id) {
    const user = await ctx.prisma.user.findFirst({ where: { id: assigned_user_id, company_id: workspaceId }, select: { id: true } });
    if (!user) {
      throw new DomainError('VALIDATION_ERROR', 'Invalid assigned_user_id', {
        assigned_user_id: 'must be the id of a user of this workspace',
      });
    }
  }
  await changeWithEvent(ctx, workspaceId, id, (tx) =>
    tx.conversation.update({
      where: { id },
      data: {
        assigned_user_id,
        service_enabled,
        details: details === null ? Prisma.DbNull : (details as Prisma.InputJsonObject | undefined),
      },
      select: conversationViewSelect,
    }),
  );
  return ctx.prisma.conversation.findUniqueOrThrow({ ...query, where: { id } });
}

/** Applies a status action atomically: the update only matches a conversation in an allowed status. */
export async function transitionConversation(ctx: Context, action: ConversationAction, input: { id: string }, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  const { from, to } = CONVERSATION_TRANSITIONS[action];
  const changed = await changeWithEvent(ctx, workspaceId, id, async (tx) => {
    const before = await tx.conversation.findFirst({
      where: { id, company_id: workspaceId, status: { in: [...from] } },
      select: { status: true },
    });
    if (!before) return null;
    // closed_at dates the resolution that reports measure; reopening clears it. The status change is kept so that
    // reports can count reopenings (resolvers/reports/).
    const changedAt = new Date();
    await tx.conversation.update({ where: { id }, data: { status: to, closed_at: to === 'closed' ? changedAt : null } });
    await tx.conversationStatusChange.create({
      data: { company_id: workspaceId, conversation_id: id, from_status: before.status, to_status: to, created_at: changedAt },
    });
    return tx.conversation.findUniqueOrThrow({ where: { id }, select: conversationViewSelect });
  });
  if (!changed) {
    const current = await ctx.prisma.conversation.findFirst({ where: { id, company_id: workspaceId }, select: { status: true } });
    if (!current) throw notFound('Conversation');
    throw new DomainError('INVALID_TRANSITION', `Cannot ${action} a conversation whose status is ${current.status}`, {
      status: current.status,
      action,
      allowed_from: [...from],
    });
  }
  return ctx.prisma.conversation.findUniqueOrThrow({ ...query, where: { id } });
}

/** The fields of a conversation whose change a `conversation.updated` event announces. */
const ANNOUNCED_FIELDS = ['status', 'assigned_user_id', 'service_enabled', 'details'] as const;

/**
 * Runs one change of a conversation and, in the same transaction, records `conversation.updated` with the
 * conversation as it now is and the announced fields that changed; a change that changes none records nothing.
 */
function changeWithEvent(
  ctx: Context,
  workspaceId: string,
  id: string,
  change: (tx: Prisma.TransactionClient) => Promise<ConversationView | null>,
): Promise<ConversationView | null> {
  return ctx.prisma.$transaction((tx) => changeInTransaction(tx, workspaceId, id, change));
}

/** changeWithEvent inside a transaction the caller holds (an automation run's, whose actions commit together). */
export async function changeInTransaction(
  tx: Prisma.TransactionClient,
  workspaceId: string,
  id: string,
  change: (tx: Prisma.TransactionClient) => Promise<ConversationView | null>,
): Promise<ConversationView | null> {
  // The row lock orders concurrent changes, so each event's `changes` compares with the state it replaced.
  const [before] = await tx.$queryRaw<Pick<ConversationView, (typeof ANNOUNCED_FIELDS)[number]>[]>`
    SELECT status, assigned_user_id::text AS assigned_user_id, service_enabled, details
    FROM conversations WHERE id = ${id}::uuid FOR UPDATE`;
  const after = await change(tx);
  if (!before || !after) return after;
  const changes = ANNOUNCED_FIELDS.filter((field) => !isDeepStrictEqual(before[field], after[field]));
  if (changes.length > 0) {
    await recordEvent(tx, { workspaceId, type: 'conversation.updated', data: { conversation: after, changes } });
  }
  return after;
}

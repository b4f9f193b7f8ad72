// Changing a conversation of the caller's workspace: its assignee, AI agent switch and details, and its
// status through the transition table of resolvers/conversations/status.ts.
import { z } from 'zod';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { idInput, parseInput, uuid } from '../shared/validation.js';
import { CONVERSATION_TRANSITIONS, type ConversationAction } from './status.js';

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
  return ctx.prisma.conversation.update({
    ...query,
    where: { id },
    data: {
      assigned_user_id,
      service_enabled,
      details: details === null ? Prisma.DbNull : (details as Prisma.InputJsonObject | undefined),
    },
  });
}

/** Applies a status action atomically: the update only matches a conversation in an allowed status. */
export async function transitionConversation(ctx: Context, action: ConversationAction, input: { id: string }, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  const { from, to } = CONVERSATION_TRANSITIONS[action];
  const { count } = await ctx.prisma.conversation.updateMany({
    where: { id, company_id: workspaceId, status: { in: [...from] } },
    // closed_at dates the resolution that analytics measures; reopening clears it.
    data: { status: to, closed_at: to === 'closed' ? new Date() : null },
  });
  if (count === 0) {
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

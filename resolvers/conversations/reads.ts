// How far each person has read each conversation: inbound messages after their `last_read_at` are unread for
// them. Counted up to UNREAD_COUNT_CAP (an inbox shows "99+"), so an old unread conversation costs one short
// index scan. Both fields of one conversation come from one query per request.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { getConversation } from './conversations.js';

export const UNREAD_COUNT_CAP = 100;

type ReadState = { last_read_at: Date | null; unread_count: number };

const perRequest = new WeakMap<Context, Map<string, Promise<ReadState>>>();

/** The asking person's read state of a conversation; a key reads as the person who created it. */
export function readState(ctx: Context, conversationId: string): Promise<ReadState> {
  const { userId } = requireActor(ctx);
  let known = perRequest.get(ctx);
  if (!known) perRequest.set(ctx, (known = new Map<string, Promise<ReadState>>()));
  let state = known.get(conversationId);
  if (!state) {
    state = ctx.prisma
      .$queryRaw<ReadState[]>(
        Prisma.sql`
          SELECT r.last_read_at,
                 (SELECT count(*) FROM (
                    SELECT 1 FROM messages m
                    WHERE m.conversation_id = c.id AND m.direction = 'inbound'
                      AND m.created_at > COALESCE(r.last_read_at, '-infinity'::timestamptz)
                    LIMIT ${UNREAD_COUNT_CAP}) AS unread)::int AS unread_count
          FROM (SELECT ${conversationId}::uuid AS id) AS c
          LEFT JOIN conversation_reads r ON r.conversation_id = c.id AND r.user_id = ${userId}::uuid`,
      )
      .then((rows) => rows[0] ?? { last_read_at: null, unread_count: 0 });
    known.set(conversationId, state);
  }
  return state;
}

/** Marks the conversation read up to now for the asking person. */
export async function markConversationRead(ctx: Context, id: string, query: { select?: object; include?: object } = {}) {
  const { userId } = requireActor(ctx);
  const conversation = await getConversation(ctx, { id }, query);
  if (userId) {
    const now = new Date();
    await ctx.prisma.conversationRead.upsert({
      where: { conversation_id_user_id: { conversation_id: conversation.id, user_id: userId } },
      create: { conversation_id: conversation.id, user_id: userId, last_read_at: now },
      update: { last_read_at: now },
    });
  }
  perRequest.get(ctx)?.delete(conversation.id);
  return conversation;
}

// Reading what was said: one message, a conversation's messages, and a search over message bodies, all in the
// MessageDetail shape and all within the caller's workspace (a record of another workspace is "not found").
// Ids are UUIDv7, so "newest first" is id descending: the order in which the service recorded the messages.
// A conversation's messages page both ways: `before` walks to older messages, `after` to newer ones; each
// page is newest first and its next_cursor continues the walk in the direction it was asked.
import { z } from 'zod';
import { type Context, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { keysetPage, type Page } from '../shared/pagination.js';
import { idInput, limit, parseInput, searchTerm, uuid } from '../shared/validation.js';
import { messageDetailSelect, type MessageDetailRow } from '../shared/views.js';
import { MESSAGES } from './search.js';
import { matchingNewestFirst } from '../shared/substringSearch.js';

export async function getMessage(ctx: Context, input: { id: string }): Promise<MessageDetailRow> {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  const message = await ctx.prisma.message.findFirst({ where: { id, company_id: workspaceId }, select: messageDetailSelect });
  if (!message) throw notFound('Message');
  return message;
}

async function assertConversation(ctx: Context, workspaceId: string, conversationId: string): Promise<void> {
  const found = await ctx.prisma.conversation.findFirst({ where: { id: conversationId, company_id: workspaceId }, select: { id: true } });
  if (!found) throw notFound('Conversation');
}

const messagesInput = z
  .object({
    conversation_id: uuid,
    limit: limit(50),
    before: uuid.nullish(),
    after: uuid.nullish(),
  })
  .refine((input) => !(input.before && input.after), { path: ['after'], message: 'give before or after, not both' });

export type ConversationMessagesInput = z.input<typeof messagesInput>;

/** A page of a conversation's messages, newest first: older than `before`, newer than `after`, or the newest. */
export async function listConversationMessages(ctx: Context, input: ConversationMessagesInput): Promise<Page<MessageDetailRow>> {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(messagesInput, input);
  await assertConversation(ctx, workspaceId, args.conversation_id);
  const where = { company_id: workspaceId, conversation_id: args.conversation_id };
  if (args.after) {
    // The messages right after `after`, read oldest first so that the page joins the previous one, then shown newest first.
    const after = args.after;
    const page = await keysetPage(
      args.limit,
      (take) =>
        ctx.prisma.message.findMany({ where: { ...where, id: { gt: after } }, orderBy: { id: 'asc' }, take, select: messageDetailSelect }),
      (row) => row.id,
    );
    return { ...page, data: page.data.reverse() };
  }
  const before = args.before ? { id: { lt: args.before } } : {};
  return keysetPage(
    args.limit,
    (take) => ctx.prisma.message.findMany({ where: { ...where, ...before }, orderBy: { id: 'desc' }, take, select: messageDetailSelect }),
    (row) => row.id,
  );
}

const searchInput = z.object({
  q: searchTerm(200),
  conversation_id: uuid.nullish(),
  limit: limit(50),
  cursor: uuid.nullish(),
});

export type MessageSearchInput = z.input<typeof searchInput>;

/**
 * Messages whose body contains q (case-insensitive), newest first; `cursor` is the next_cursor of the previous
 * page. Newest first rather than ranked: a substring either matches or not, and a stable order pages exactly.
 * Within one conversation its messages are read in order; across the workspace resolvers/messaging/search.ts finds them.
 */
export async function searchMessages(ctx: Context, input: MessageSearchInput): Promise<Page<MessageDetailRow>> {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(searchInput, input);
  const cursor = args.cursor ?? null;
  const conversationId = args.conversation_id;
  if (conversationId) await assertConversation(ctx, workspaceId, conversationId);
  const read = conversationId
    ? (take: number) =>
        ctx.prisma.message.findMany({
          where: {
            company_id: workspaceId,
            conversation_id: conversationId,
            ...(cursor ? { id: { lt: cursor } } : {}),
            body: { contains: args.q, mode: 'insensitive' },
          },
          orderBy: { id: 'desc' },
          take,
          select: messageDetailSelect,
        })
    : async (take: number) => {
        const ids = await matchingNewestFirst(ctx.sql, MESSAGES, workspaceId, args.q, cursor, take);
        if (ids.length === 0) return [];
        const where = { id: { in: ids }, company_id: workspaceId };
        return ctx.prisma.message.findMany({ where, orderBy: { id: 'desc' }, select: messageDetailSelect });
      };
  return keysetPage(args.limit, read, (row) => row.id);
}

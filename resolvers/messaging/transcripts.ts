// Reading what was said: one message, a conversation's messages, and a search over message bodies, all in the
// MessageDetail shape and all within the caller's workspace (a record of another workspace is "not found").
// Ids are UUIDv7, so "newest first" is id descending: the order in which the service recorded the messages.
// A conversation's messages page both ways: `before` walks to older messages, `after` to newer ones; each
// page is newest first and its next_cursor continues the walk in the direction it was asked.
import { z } from 'zod';
import { type Context, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { statementRows } from '../shared/statements.js';
import { keysetPage, type Page } from '../shared/pagination.js';
import { idInput, limit, parseInput, searchTerm, uuid } from '../shared/validation.js';
import { messageDetailSelect, type MessageDetailColumns, type MessageDetailRow } from '../shared/views.js';
import { selectWithIsoTimestamps, type TimestampColumns, type WithIsoTimestamps } from '../shared/isoTimestamps.js';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { MESSAGES } from './search.js';
import { matchingNewestFirst } from '../shared/substringSearch.js';
import { searchedWorkspace } from '../shared/workspaceShares.js';

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

/** Every timestamp of a message, read as the API's text by the written statement below. */
const MESSAGE_TIMESTAMPS: TimestampColumns<MessageDetailColumns> = {
  created_at: true,
  sent_at: true,
  delivered_at: true,
  read_at: true,
  failed_at: true,
  updated_at: true,
};
const MESSAGE_COLUMNS = selectWithIsoTimestamps('message', Object.keys(messageDetailSelect), MESSAGE_TIMESTAMPS);

type MessageRange = { from: Prisma.Sql | null; order: 'ASC' | 'DESC' };

/**
 * Up to `take` of the workspace's conversation's messages in `range`, in one statement on the database's SQL
 * connection (as a page of contacts is read: Prisma's mapping of each row and its Dates was most of a page's cost),
 * the conversation checked by the same statement: no row when it is not the workspace's, one row of nulls when
 * none of its messages is in range.
 */
async function messagesOf(ctx: Context, workspaceId: string, conversationId: string, range: MessageRange, take: number) {
  const statement = Prisma.sql`
    SELECT message.* FROM conversations conversation
    LEFT JOIN LATERAL (
      SELECT ${MESSAGE_COLUMNS} FROM messages message
      WHERE message.conversation_id = conversation.id ${range.from ? Prisma.sql`AND ${range.from}` : Prisma.empty}
      ORDER BY message.id ${Prisma.raw(range.order)} LIMIT ${take}) AS message ON true
    WHERE conversation.id = ${conversationId}::uuid AND conversation.company_id = ${workspaceId}::uuid`;
  const rows = await statementRows<WithIsoTimestamps<MessageDetailColumns>>(ctx.sql, statement);
  if (rows.length === 0) throw notFound('Conversation');
  return rows.filter((row) => row.id !== null);
}

/** A page of a conversation's messages, newest first: older than `before`, newer than `after`, or the newest. */
export async function listConversationMessages(ctx: Context, input: ConversationMessagesInput): Promise<Page<MessageDetailRow>> {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(messagesInput, input);
  if (args.after) {
    // The messages right after `after`, read oldest first so that the page joins the previous one, then shown newest first.
    const range = { from: Prisma.sql`message.id > ${args.after}::uuid`, order: 'ASC' } as const;
    const page = await keysetPage(
      args.limit,
      (take) => messagesOf(ctx, workspaceId, args.conversation_id, range, take),
      (row) => row.id,
    );
    return { ...page, data: page.data.reverse() };
  }
  const range = { from: args.before ? Prisma.sql`message.id < ${args.before}::uuid` : null, order: 'DESC' } as const;
  return keysetPage(
    args.limit,
    (take) => messagesOf(ctx, workspaceId, args.conversation_id, range, take),
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
        const workspace = await searchedWorkspace(ctx.searchSql, workspaceId);
        const ids = await matchingNewestFirst(ctx.searchSql, MESSAGES, workspace, args.q, cursor, take);
        if (ids.length === 0) return [];
        const where = { id: { in: ids }, company_id: workspaceId };
        return ctx.prisma.message.findMany({ where, orderBy: { id: 'desc' }, select: messageDetailSelect });
      };
  return keysetPage(args.limit, read, (row) => row.id);
}

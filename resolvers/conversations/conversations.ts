// Conversations of the caller's workspace, listed or searched, newest activity first.
// Order: last_message_at descending, then id descending; conversations without any message come last
// (newest first by id). `before` takes an ISO 8601 date-time (only conversations whose last_message_at is
// older are returned, as the spec says) or the opaque next_cursor of the previous page, which also
// remembers the id so that ties are neither skipped nor repeated and the message-less tail is reachable —
// except for a walk that began with a date-time, whose cursors keep it to conversations with a message.
import { z } from 'zod';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { cursorArgument, keysetPage } from '../shared/pagination.js';
import { idInput, isoDateTime, isStorableInstant, limit, parseInput, searchTerm, uuid } from '../shared/validation.js';
import { type ConversationKey, type ConversationWalk, matchingConversationIds, ZERO_ID } from './search.js';
import { searchedWorkspace } from '../shared/workspaceShares.js';
import { type ConversationQuery, conversationsOfIds, conversationsWhere } from './rows.js';
import type { IsoTimestamp } from '../shared/isoTimestamps.js';

/** The guides call the active state `open`; it is accepted as a name for `active`. */
export const CONVERSATION_STATUSES = ['active', 'pending', 'closed'] as const;
const STATUS_ALIASES: Record<string, (typeof CONVERSATION_STATUSES)[number]> = { open: 'active' };

type Position = { at: Date | null; id: string; withMessagesOnly: boolean } | { before: Date };

const CURSOR_PATTERN = /^c1\.([0-9a-f-]{36})\.(\d+|-)(\.m)?$/;

/** A listed conversation's place in the order, read through Prisma (a Date) or by a written statement (ISO text). */
type Keyed = { id: string; last_message_at: Date | IsoTimestamp | null };

function encodeCursor(row: Keyed, withMessagesOnly: boolean): string {
  const at = row.last_message_at === null ? '-' : new Date(row.last_message_at).getTime();
  return `c1.${row.id}.${at}${withMessagesOnly ? '.m' : ''}`;
}

function decodeBefore(value: string): Position | null {
  const cursor = CURSOR_PATTERN.exec(value);
  if (cursor) {
    const [, id, millis, messagesOnly] = cursor as unknown as [string, string, string, string | undefined];
    const at = millis === '-' ? null : new Date(Number(millis));
    // A cursor not made here may name an instant the database cannot compare (or no Date at all).
    if (!uuid.safeParse(id).success || (at && !isStorableInstant(at))) return null;
    return { at, id, withMessagesOnly: messagesOnly !== undefined };
  }
  return isoDateTime.safeParse(value).success && isStorableInstant(new Date(value)) ? { before: new Date(value) } : null;
}

const listInput = z.object({
  status: z
    .string()
    .transform((value) => STATUS_ALIASES[value] ?? value)
    .pipe(z.enum(CONVERSATION_STATUSES, { message: 'must be one of active, closed, pending (or open)' }))
    .nullish(),
  limit: limit(20),
  before: cursorArgument(decodeBefore, 'must be an ISO 8601 date-time or a next_cursor value'),
  assigned_user_id: uuid.nullish(),
  customer_id: uuid.nullish(),
});

export async function listConversations(ctx: Context, input: z.input<typeof listInput>, query: ConversationQuery = {}) {
  const args = parseInput(listInput, input);
  const { workspaceId } = requireActor(ctx);
  const filters = [
    args.status ? Prisma.sql`conversation.status = ${args.status}` : null,
    args.assigned_user_id ? Prisma.sql`conversation.assigned_user_id = ${args.assigned_user_id}::uuid` : null,
    args.customer_id ? Prisma.sql`conversation.customer_id = ${args.customer_id}::uuid` : null,
  ].filter((filter) => filter !== null);
  return page(args, async (walk, take) => {
    // The index orders each part on its own: those with a message, then those without (in the index's order too:
    // ordered by id alone, the planner may walk the primary key through every workspace).
    const read = (part: Prisma.Sql, wanted: number) =>
      conversationsWhere(ctx, workspaceId, Prisma.join([...filters, part], ' AND '), wanted, query);
    const rows = walk.after?.at === null ? [] : await read(timedAfter(walk.after), take);
    if (rows.length < take && !walk.withMessagesOnly) {
      const after = walk.after?.at === null ? Prisma.sql` AND conversation.id < ${walk.after.id}::uuid` : Prisma.empty;
      rows.push(...(await read(Prisma.sql`conversation.last_message_at IS NULL${after}`, take - rows.length)));
    }
    return rows;
  });
}

/**
 * The conversations with a message after `after` (a key with a last_message_at, or the start).
 * `last_message_at <= at` bounds the index range the walk starts from; the OR alone was only a filter, so a page
 * deep in the list read every conversation before it (0.8–2.4 s at 500,000).
 */
function timedAfter(after: ConversationKey | null): Prisma.Sql {
  if (!after?.at) return Prisma.sql`conversation.last_message_at IS NOT NULL`;
  return Prisma.sql`conversation.last_message_at <= ${after.at}::timestamptz
    AND (conversation.last_message_at < ${after.at}::timestamptz OR conversation.id < ${after.id}::uuid)`;
}

const searchInput = z.object({
  q: searchTerm(200),
  limit: listInput.shape.limit,
  before: listInput.shape.before,
});

/** Conversations whose contact's name, phone number or email, or any of whose messages, contains q (resolvers/conversations/search.ts). */
export async function searchConversations(ctx: Context, input: z.input<typeof searchInput>, query: ConversationQuery = {}) {
  const args = parseInput(searchInput, input);
  const { workspaceId } = requireActor(ctx);
  const workspace = await searchedWorkspace(ctx.searchSql, workspaceId);
  return page(args, async (walk, take) =>
    conversationsOfIds(ctx, workspaceId, await matchingConversationIds(ctx.searchSql, workspace, args.q, walk, take), query),
  );
}

/** Where a page's walk starts: after the key of the previous page's last conversation, or after every conversation
 * of the instant of a date-time `before` (the zero id precedes every id), which also keeps the walk to
 * conversations with a message. */
function walkOf(position: Position | null): ConversationWalk {
  if (!position) return { after: null, withMessagesOnly: false };
  if ('before' in position) return { after: { at: position.before, id: ZERO_ID }, withMessagesOnly: true };
  return { after: { at: position.at, id: position.id }, withMessagesOnly: position.withMessagesOnly };
}

/** One page: `read` returns up to `take` conversations of the walk, in the list's order. */
async function page<Row extends Keyed>(
  args: { limit: number; before?: Position | null | undefined },
  read: (walk: ConversationWalk, take: number) => Promise<Row[]>,
) {
  const walk = walkOf(args.before ?? null);
  return keysetPage(
    args.limit,
    (take) => read(walk, take),
    (row) => encodeCursor(row, walk.withMessagesOnly),
  );
}

export async function getConversation(ctx: Context, input: { id: string }, query: ConversationQuery = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  const conversation = await ctx.prisma.conversation.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!conversation) throw notFound('Conversation');
  return conversation;
}

// Conversations of the caller's workspace, listed or searched, newest activity first.
// Order: last_message_at descending, then id descending; conversations without any message come last
// (newest first by id). `before` takes an ISO 8601 date-time (only conversations whose last_message_at is
// older are returned, as the spec says) or the opaque next_cursor of the previous page, which also
// remembers the id so that ties are neither skipped nor repeated and the message-less tail is reachable —
// except for a walk that began with a date-time, whose cursors keep it to conversations with a message.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { cursorArgument, keysetPage } from '../shared/pagination.js';
import { idInput, isoDateTime, limit, parseInput, uuid } from '../shared/validation.js';

type Query = { select?: Prisma.ConversationSelect; include?: Prisma.ConversationInclude };

/** The guides call the active state `open`; it is accepted as a name for `active`. */
export const CONVERSATION_STATUSES = ['active', 'pending', 'closed'] as const;
const STATUS_ALIASES: Record<string, (typeof CONVERSATION_STATUSES)[number]> = { open: 'active' };

type Position = { at: Date | null; id: string; withMessagesOnly: boolean } | { before: Date };

const CURSOR_PATTERN = /^c1\.([0-9a-f-]{36})\.(\d+|-)(\.m)?$/;

function encodeCursor(row: { id: string; last_message_at: Date | null }, withMessagesOnly: boolean): string {
  return `c1.${row.id}.${row.last_message_at ? row.last_message_at.getTime() : '-'}${withMessagesOnly ? '.m' : ''}`;
}

function decodeBefore(value: string): Position | null {
  const cursor = CURSOR_PATTERN.exec(value);
  if (cursor) {
    const [, id, at, messagesOnly] = cursor as unknown as [string, string, string, string | undefined];
    if (!uuid.safeParse(id).success) return null;
    return { at: at === '-' ? null : new Date(Number(at)), id, withMessagesOnly: messagesOnly !== undefined };
  }
  return isoDateTime.safeParse(value).success ? { before: new Date(value) } : null;
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

export async function listConversations(ctx: Context, input: z.input<typeof listInput>, query: Query = {}) {
  const args = parseInput(listInput, input);
  const filter: Prisma.ConversationWhereInput = {
    ...(args.status ? { status: args.status } : {}),
    ...(args.assigned_user_id ? { assigned_user_id: args.assigned_user_id } : {}),
    ...(args.customer_id ? { customer_id: args.customer_id } : {}),
  };
  return page(ctx, filter, args, query);
}

const searchInput = z.object({
  q: z.string({ message: 'is required' }).trim().min(1, { message: 'must be at least 1 character' }).max(200),
  limit: listInput.shape.limit,
  before: listInput.shape.before,
});

/** Conversations whose contact's name, phone number or email, or any of whose messages, contains q. */
export async function searchConversations(ctx: Context, input: z.input<typeof searchInput>, query: Query = {}) {
  const args = parseInput(searchInput, input);
  const text = { contains: args.q, mode: 'insensitive' } as const;
  const filter: Prisma.ConversationWhereInput = {
    OR: [{ customer: { OR: [{ name: text }, { phone_number: text }, { email: text }] } }, { messages: { some: { body: text } } }],
  };
  return page(ctx, filter, args, query);
}

async function page(
  ctx: Context,
  where: Prisma.ConversationWhereInput,
  args: { limit: number; before?: Position | null | undefined },
  query: Query,
) {
  const { workspaceId } = requireActor(ctx);
  const filter: Prisma.ConversationWhereInput = { ...where, company_id: workspaceId };
  const position = args.before ?? null;
  const withMessagesOnly = position !== null && ('before' in position || position.withMessagesOnly);

  /** The conversations with a message after the position, then (unless the walk excludes them) those without. */
  async function read(wanted: number) {
    const rows = [];
    const inTimestampedPart = !position || 'before' in position || position.at !== null;
    if (inTimestampedPart) {
      let after: Prisma.ConversationWhereInput = { last_message_at: { not: null } };
      if (position && 'before' in position) after = { last_message_at: { lt: position.before } };
      else if (position && position.at) {
        after = {
          OR: [{ last_message_at: { lt: position.at } }, { last_message_at: position.at, id: { lt: position.id } }],
        };
      }
      rows.push(
        ...(await ctx.prisma.conversation.findMany({
          ...query,
          where: { AND: [filter, after] },
          orderBy: [{ last_message_at: 'desc' }, { id: 'desc' }],
          take: wanted,
        })),
      );
    }
    if (rows.length < wanted && !withMessagesOnly) {
      const untimedAfter = position && !('before' in position) && position.at === null ? { id: { lt: position.id } } : {};
      rows.push(
        ...(await ctx.prisma.conversation.findMany({
          ...query,
          where: { AND: [filter, { last_message_at: null, ...untimedAfter }] },
          orderBy: { id: 'desc' },
          take: wanted - rows.length,
        })),
      );
    }
    return rows;
  }
  return keysetPage(args.limit, read, (row) => encodeCursor(row, withMessagesOnly));
}

export async function getConversation(ctx: Context, input: { id: string }, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  const conversation = await ctx.prisma.conversation.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!conversation) throw notFound('Conversation');
  return conversation;
}

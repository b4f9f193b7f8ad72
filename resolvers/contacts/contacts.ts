// Contacts (the spec's customers): list, search and get, always within the caller's workspace.
// Order is newest first by id; ids are UUIDv7, so the cursor (the last id seen) is a plain `id < cursor`.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { columnPage } from '../shared/pagination.js';
import { idInput, limit, parseInput, searchTerm, uuid } from '../shared/validation.js';
import { CONTACTS } from '../search/contacts.js';
import { matchingNewestFirst } from '../search/substringSearch.js';

type Query = { select?: Prisma.CustomerSelect; include?: Prisma.CustomerInclude };

const DEFAULT_LIMIT = 50;

const listInput = z.object({
  limit: limit(DEFAULT_LIMIT),
  cursor: uuid.nullish(),
  search: z.string().trim().min(1, { message: 'must not be empty' }).max(200).nullish(),
  tag_id: uuid.nullish(),
});

const searchInput = z.object({
  q: searchTerm(200),
  limit: limit(DEFAULT_LIMIT),
  cursor: uuid.nullish(),
});

/** Matches name, phone number or email, case-insensitively, anywhere in the value. */
function matching(text: string): Prisma.CustomerWhereInput {
  return {
    OR: [
      { name: { contains: text, mode: 'insensitive' } },
      { phone_number: { contains: text, mode: 'insensitive' } },
      { email: { contains: text, mode: 'insensitive' } },
    ],
  };
}

/** The contacts matching `term` (resolvers/search/contacts.ts chooses how to find them), newest first. */
function searchPage(ctx: Context, term: string, args: { limit: number; cursor?: string | null }, query: Query) {
  const { workspaceId } = requireActor(ctx);
  return columnPage('id', 'desc', args, async ({ take }) => {
    const ids = await matchingNewestFirst(ctx.prisma, CONTACTS, workspaceId, term, args.cursor ?? null, take);
    if (ids.length === 0) return [];
    return ctx.prisma.customer.findMany({ ...query, where: { id: { in: ids }, company_id: workspaceId }, orderBy: { id: 'desc' } });
  });
}

function page(ctx: Context, where: Prisma.CustomerWhereInput, args: { limit: number; cursor?: string | null }, query: Query) {
  const { workspaceId } = requireActor(ctx);
  return columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    ctx.prisma.customer.findMany({ ...query, where: { ...where, company_id: workspaceId, ...after }, orderBy, take }),
  );
}

export function listContacts(ctx: Context, input: z.input<typeof listInput>, query: Query = {}) {
  const args = parseInput(listInput, input);
  // With a tag, the tag's contacts are the candidates and the term filters them.
  if (args.search && !args.tag_id) return searchPage(ctx, args.search, args, query);
  const where: Prisma.CustomerWhereInput = {
    ...(args.search ? matching(args.search) : {}),
    ...(args.tag_id ? { tags: { some: { tag_id: args.tag_id } } } : {}),
  };
  return page(ctx, where, args, query);
}

export function searchContacts(ctx: Context, input: z.input<typeof searchInput>, query: Query = {}) {
  const args = parseInput(searchInput, input);
  return searchPage(ctx, args.q, args, query);
}

export async function getContact(ctx: Context, input: { id: string }, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  const contact = await ctx.prisma.customer.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!contact) throw notFound('Customer');
  return contact;
}

/** The workspace's contact with this exact phone number, as its primary number or another phone channel; the
 * oldest when several have it (a number may be a channel of each provider). Null when none has it. */
export function findContactByPhone(ctx: Context, phone: string, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  return ctx.prisma.customer.findFirst({
    ...query,
    where: { company_id: workspaceId, OR: [{ phone_number: phone }, { channels: { some: { type: 'phone', value: phone } } }] },
    orderBy: { id: 'asc' },
  });
}

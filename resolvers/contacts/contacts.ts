// Contacts (the spec's customers): list, search and get, always within the caller's workspace.
// Order is newest first by id; ids are UUIDv7, so the cursor (the last id seen) is a plain `id < cursor`.
// Pages of the list and of search, and a contact's detail, are the API's hottest reads, and each is one written
// statement run on the database's SQL connection rather than through Prisma: on a page of 50 contacts, findMany's
// query building and row mapping cost as much CPU as the rest of the request, $queryRaw's own mapping of the rows
// (each value serialized, then deserialized, each timestamp parsed into a Date) still a quarter of it, and the
// driver's rows are already what the API answers: the same values for the model's columns, the timestamps as the
// API's ISO text (resolvers/shared/isoTimestamps.ts), as a test checks against Prisma's (docs/performance.md).
import { z } from 'zod';
import { type Customer, Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import type { SqlConnection } from '../../infra/db/sql.js';
import { notFound } from '../shared/errors.js';
import { statementRows } from '../shared/statements.js';
import { keysetPage } from '../shared/pagination.js';
import { idInput, limit, parseInput, searchTerm, uuid } from '../shared/validation.js';
import { CONTACTS } from './search.js';
import { carriesTag } from './tags.js';
import { newestFirstMatches } from '../shared/substringSearch.js';
import { searchedWorkspace, type SearchedWorkspace } from '../shared/workspaceShares.js';
import { selectWithIsoTimestamps, type TimestampColumns, withIsoTimestamps, type WithIsoTimestamps } from '../shared/isoTimestamps.js';

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

const contact = Prisma.raw('c');
const TIMESTAMPS: TimestampColumns<Customer> = {
  last_message_at: true,
  created_at: true,
  updated_at: true,
  marketing_consent_updated_at: true,
};
/** Every column of the model (the generated search column is not one), as findMany reads them by default, of the
 * contact aliased `c`. */
export const CONTACT_COLUMNS = selectWithIsoTimestamps('c', Object.values(Prisma.CustomerScalarFieldEnum), TIMESTAMPS);

/** A contact as the written statements read it. */
export type ContactRow = WithIsoTimestamps<Customer>;

/** A contact with what its single record adds: its tags' names, alphabetically, and its number of conversations. */
export type ContactDetail = ContactRow & { tags: string[]; conversation_count: number };

/** A contact Prisma has just written, in the form of the written statements. */
export function asContactRow(written: Customer): ContactRow {
  return withIsoTimestamps(written, TIMESTAMPS);
}

/** The workspace's contact `id` with its tags and its number of conversations; null when it has none such. */
export async function contactDetail(sql: SqlConnection, workspaceId: string, id: string): Promise<ContactDetail | null> {
  const [found] = await statementRows<ContactDetail>(
    sql,
    Prisma.sql`
    SELECT ${CONTACT_COLUMNS},
      ARRAY(SELECT tag.name FROM customer_tags link JOIN tags tag ON tag.id = link.tag_id
            WHERE link.customer_id = c.id ORDER BY tag.name) AS tags,
      (SELECT count(*)::int FROM conversations conversation WHERE conversation.customer_id = c.id) AS conversation_count
    FROM customers c WHERE c.id = ${id}::uuid AND c.company_id = ${workspaceId}::uuid`,
  );
  return found ?? null;
}

/** The statement of up to `take` of the workspace's contacts meeting `condition` (on `c`, the contact), newest first. */
function newestContacts(workspaceId: string, condition: Prisma.Sql, take: number): Prisma.Sql {
  return Prisma.sql`
    SELECT ${CONTACT_COLUMNS} FROM customers c WHERE c.company_id = ${workspaceId}::uuid AND ${condition} ORDER BY c.id DESC LIMIT ${take}`;
}

/** The statement of up to `take` of the workspace's contacts matching `term` (resolvers/contacts/search.ts chooses
 * how to find them), newest first, older than `cursor` when given. */
export function contactSearch(workspace: SearchedWorkspace, term: string, cursor: string | null, take: number): Prisma.Sql {
  const matches = newestFirstMatches(CONTACTS, workspace, term, cursor, take);
  return newestContacts(workspace.id, Prisma.sql`c.id = ANY(ARRAY(SELECT id FROM (${matches}) AS found))`, take);
}

/** A page of the contacts matching `term`: one statement, on the connection for search statements. */
async function searchPage(ctx: Context, term: string, args: { limit: number; cursor?: string | null }) {
  const workspace = await searchedWorkspace(ctx.searchSql, requireActor(ctx).workspaceId);
  return keysetPage(
    args.limit,
    (take) => statementRows<ContactRow>(ctx.searchSql, contactSearch(workspace, term, args.cursor ?? null, take)),
    (row) => row.id,
  );
}

/** A page of the workspace's contacts with the tag, or all of them; with a term, those of them that contain it. */
function page(ctx: Context, args: { limit: number; cursor?: string | null; search?: string | null; tag_id?: string | null }) {
  const { workspaceId } = requireActor(ctx);
  const conditions = [
    args.cursor ? Prisma.sql`c.id < ${args.cursor}::uuid` : null,
    args.tag_id ? carriesTag(contact, args.tag_id) : null,
    args.search ? CONTACTS.matches(contact, args.search) : null,
  ].filter((condition) => condition !== null);
  const condition = conditions.length ? Prisma.join(conditions, ' AND ') : Prisma.sql`TRUE`;
  return keysetPage(
    args.limit,
    (take) => statementRows<ContactRow>(ctx.sql, newestContacts(workspaceId, condition, take)),
    (row) => row.id,
  );
}

export function listContacts(ctx: Context, input: z.input<typeof listInput>) {
  const args = parseInput(listInput, input);
  // With a tag, the tag's contacts are the candidates and the term filters them.
  if (args.search && !args.tag_id) return searchPage(ctx, args.search, args);
  return page(ctx, args);
}

export function searchContacts(ctx: Context, input: z.input<typeof searchInput>) {
  const args = parseInput(searchInput, input);
  return searchPage(ctx, args.q, args);
}

export async function getContact(ctx: Context, input: { id: string }) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  const contact = await contactDetail(ctx.sql, workspaceId, id);
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

// Conversations as the list and search read them: one written statement on the database's SQL connection, each
// conversation with its contact and the timestamps as the API's text, as a page of contacts or of messages is read
// (Prisma's query building and its mapping of each row, its Dates and the joined contact were most of a page's
// cost: docs/performance.md). A selection that needs more than that (the console's inbox asks for each
// conversation's last message) reads the same conversations through Prisma, by the ids the statement found.
import { type Conversation, Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { statementRows } from '../shared/statements.js';
import { CONTACT_COLUMNS, type ContactRow } from '../contacts/contacts.js';
import { selectWithIsoTimestamps, type TimestampColumns, type WithIsoTimestamps } from '../shared/isoTimestamps.js';

export type ConversationQuery = { select?: Prisma.ConversationSelect; include?: Prisma.ConversationInclude };

/** A conversation as the written statement reads it, with its contact. */
export type ConversationRow = WithIsoTimestamps<Conversation> & { customer: ContactRow };

/** A conversation as the list and search answer it: read by the statement, or through Prisma for a wider selection. */
export type ListedConversation = ConversationRow | Conversation;

const TIMESTAMPS: TimestampColumns<Conversation> = {
  last_message_at: true,
  closed_at: true,
  window_closed_at: true,
  snoozed_until: true,
  first_inbound_at: true,
  first_response_at: true,
  created_at: true,
  updated_at: true,
};
const COLUMNS = selectWithIsoTimestamps('conversation', Object.values(Prisma.ConversationScalarFieldEnum), TIMESTAMPS);

/** Whether the statement answers `query`: every column, and no relation but the contact with its own columns. */
function answersFromStatement(query: ConversationQuery): boolean {
  if (query.select) return false;
  return Object.entries(query.include ?? {}).every(([relation, wanted]) => relation === 'customer' && wanted === true);
}

const CONTACT = Prisma.sql`(SELECT to_json(contact) FROM (SELECT ${CONTACT_COLUMNS} FROM customers c
  WHERE c.id = conversation.customer_id) AS contact) AS customer`;
/** What the statement reads of each conversation: its columns and its contact. */
const LISTED = Prisma.sql`${COLUMNS}, ${CONTACT}`;

/** Up to `take` rows of `columns` of the workspace's conversations meeting `condition` (on the alias `conversation`),
 * in the order of the conversations index: last_message_at DESC (its nulls first), then id DESC. */
function readConversations<Row extends Record<string, unknown>>(
  ctx: Context,
  workspaceId: string,
  columns: Prisma.Sql,
  condition: Prisma.Sql,
  take: number,
) {
  const statement = Prisma.sql`
    SELECT ${columns} FROM conversations conversation
    WHERE conversation.company_id = ${workspaceId}::uuid AND ${condition}
    ORDER BY conversation.last_message_at DESC, conversation.id DESC LIMIT ${take}`;
  return statementRows<Row>(ctx.sql, statement);
}

/** Up to `take` of the workspace's conversations meeting `condition`, in the index's order, in the form `query` asks for. */
export async function conversationsWhere(
  ctx: Context,
  workspaceId: string,
  condition: Prisma.Sql,
  take: number,
  query: ConversationQuery,
): Promise<ListedConversation[]> {
  if (answersFromStatement(query)) return readConversations<ConversationRow>(ctx, workspaceId, LISTED, condition, take);
  const found = await readConversations<{ id: string }>(ctx, workspaceId, Prisma.sql`conversation.id`, condition, take);
  return conversationsOfIds(
    ctx,
    workspaceId,
    found.map((row) => row.id),
    query,
  );
}

/** The workspace's conversations of `ids`, in that order, in the form `query` asks for. */
export async function conversationsOfIds(
  ctx: Context,
  workspaceId: string,
  ids: string[],
  query: ConversationQuery,
): Promise<ListedConversation[]> {
  if (ids.length === 0) return [];
  const rows: ListedConversation[] = answersFromStatement(query)
    ? await readConversations<ConversationRow>(ctx, workspaceId, LISTED, Prisma.sql`conversation.id = ANY(${ids}::uuid[])`, ids.length)
    : await ctx.prisma.conversation.findMany({ ...query, where: { id: { in: ids }, company_id: workspaceId } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

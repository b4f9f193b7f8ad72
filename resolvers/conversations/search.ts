// Conversation search (substringSearch.ts decides how): a conversation matches when its contact's
// name, phone number or e-mail address, or the body of any of its messages, contains the term (ILIKE '%term%').
// The order is the conversation list's: those with a message by last_message_at then id, newest first, then those
// without a message by id. The index orders each of the two parts on its own, so a window reads both in order and
// keeps the first rows. A rare term's candidates are the conversations of the contacts and of the messages that
// the contact and message indexes list for it.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { SqlConnection } from '../../infra/db/sql.js';
import { statementRows } from '../shared/statements.js';
import { candidateRows, matchingInOrder, type SearchableList } from '../shared/substringSearch.js';
import type { SearchedWorkspace } from '../shared/workspaceShares.js';
import { CONTACTS } from '../contacts/search.js';
import { MESSAGES } from '../messaging/search.js';

/** A conversation's place in the order: `at` is its last_message_at, null for one without messages. */
export type ConversationKey = { at: Date | null; id: string };
/** A walk through the order: after a key (from the start when null), and whether it keeps to conversations with a
 * message (a walk begun at a date-time does). */
export type ConversationWalk = { after: ConversationKey | null; withMessagesOnly: boolean };
/** Precedes every id: the key { at, id: ZERO_ID } is the position just after every conversation of the instant `at`. */
export const ZERO_ID = '00000000-0000-0000-0000-000000000000';
/** Follows every id. */
const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/** A recent window tests this many conversations: each costs a contact and a range of its messages. */
const CONVERSATION_WINDOW = 300;

const contact = Prisma.raw('contact');
const message = Prisma.raw('message');

const ORDER = Prisma.sql`last_message_at DESC NULLS LAST, id DESC`;

function conversationList(workspace: SearchedWorkspace, term: string, withMessagesOnly: boolean): SearchableList {
  const workspaceId = workspace.id;
  /** The conversations with a message after `position` (a relation of one row: last_message_at, id), as a condition
   * on the alias `conversation`; false when the position is past them. */
  const timedAfter = (position: Prisma.Sql | null) =>
    position
      ? Prisma.sql`conversation.last_message_at <= (SELECT last_message_at FROM ${position})
          AND (conversation.last_message_at, conversation.id) < (SELECT last_message_at, id FROM ${position})`
      : Prisma.sql`conversation.last_message_at IS NOT NULL`;
  /** The same for the conversations without a message (null when the walk keeps to those with one): all of them
   * after a position among those with one, those of lower id after a position among them. */
  const untimedAfter = (position: Prisma.Sql | null) => {
    if (withMessagesOnly) return null;
    if (!position) return Prisma.sql`conversation.last_message_at IS NULL`;
    return Prisma.sql`conversation.last_message_at IS NULL AND EXISTS (SELECT FROM ${position})
      AND conversation.id < coalesce((SELECT id FROM ${position} WHERE last_message_at IS NULL), ${LAST_ID}::uuid)`;
  };
  const parts = (position: Prisma.Sql | null) => [timedAfter(position), untimedAfter(position)].filter((part) => part !== null);
  /** Every conversation after `position`, as a condition on the alias `conversation`. */
  const after = (position: Prisma.Sql) => Prisma.join(parts(position), ' OR ');
  /** The first `size` conversations after `position`: each part read in its index's order, then merged. */
  const window = (position: Prisma.Sql | null, size: Prisma.Sql) => {
    // Both in the index's own order (NULLS FIRST): ordered by id alone, the planner may walk the primary key instead.
    const reads = parts(position).map(
      (condition) =>
        Prisma.sql`(SELECT id, last_message_at, customer_id FROM conversations conversation
                    WHERE company_id = ${workspaceId}::uuid AND ${condition} ORDER BY last_message_at DESC, id DESC LIMIT ${size})`,
    );
    return Prisma.sql`SELECT * FROM (${Prisma.join(reads, ' UNION ALL ')}) AS parts ORDER BY ${ORDER} LIMIT ${size}`;
  };
  /**
   * The conversations after `position` of the contacts that the indexes list for the term: at least every one of them
   * among the first `take` in the list's order. A contact's last_message_at is never older than any of its
   * conversations' (a trigger keeps it so, migration 0050), so the conversations of the contacts read first (every
   * contact with a message at or after the position, whose conversations may fall either side of it, and the `take`
   * latest before it) bound the rest: a contact whose last message is older than the last of the first `take` of
   * those conversations has none among them, nor does one without a message, after a conversation with one. Only
   * the other contacts are read then, every one when the first contacts' conversations do not fill `take` with a
   * message. A phone fragment with ten thousand old matching contacts read each one's conversations (15 of its 38
   * ms at a million contacts).
   */
  const conversationsOfContacts = (position: Prisma.Sql, take: number) => {
    const at = Prisma.sql`(SELECT last_message_at FROM ${position})`;
    const conversationsOf = (contacts: Prisma.Sql) => Prisma.sql`
      SELECT conversation.id, conversation.last_message_at FROM ${contacts} AS contact
      CROSS JOIN LATERAL (
        SELECT conversation.id, conversation.last_message_at FROM conversations conversation
        WHERE conversation.customer_id = contact.id AND conversation.company_id = ${workspaceId}::uuid OFFSET 0) AS conversation
      WHERE ${after(position)}`;
    const bound = Prisma.sql`(SELECT last_message_at FROM first_bound)`;
    return Prisma.sql`
      SELECT * FROM (
        WITH found AS MATERIALIZED (${candidateRows(CONTACTS, contact, workspace, term, Prisma.sql`${contact}.id, ${contact}.last_message_at`)}),
        read_first AS MATERIALIZED (
          SELECT id FROM found WHERE last_message_at >= ${at}
          UNION ALL
          (SELECT id FROM found WHERE last_message_at < ${at} ORDER BY last_message_at DESC LIMIT ${take})),
        first_read AS MATERIALIZED (${conversationsOf(Prisma.raw('read_first'))} ORDER BY ${ORDER} LIMIT ${take}),
        first_bound AS MATERIALIZED (
          SELECT last_message_at FROM first_read WHERE (SELECT count(*) FROM first_read) = ${take}
          ORDER BY last_message_at ASC NULLS FIRST, id ASC LIMIT 1),
        read_then AS MATERIALIZED (
          SELECT id FROM found WHERE id NOT IN (SELECT id FROM read_first)
            AND NOT (${bound} IS NOT NULL AND (last_message_at IS NULL OR last_message_at < ${bound})))
        SELECT * FROM first_read
        UNION ALL
        ${conversationsOf(Prisma.raw('read_then'))}) AS of_contacts`;
  };
  return {
    window: CONVERSATION_WINDOW,
    key: Prisma.sql`id, last_message_at`,
    order: ORDER,
    reversed: Prisma.sql`last_message_at ASC NULLS FIRST, id ASC`,
    // The window is read first (a subquery with a limit is planned on its own), then its rows are tested one by
    // one, each against its contact and its own messages: a lateral subquery with a limit cannot be turned into a
    // hash of every message of every workspace that contains the term, which the planner otherwise prefers.
    after: (position, size) => Prisma.sql`
      SELECT conversation.id, conversation.last_message_at,
        ${CONTACTS.matches(contact, term)} OR said.found IS NOT NULL AS matched
      FROM (${window(position, size)}) AS conversation
      JOIN customers contact ON contact.id = conversation.customer_id
      LEFT JOIN LATERAL (
        SELECT true AS found FROM messages message
        WHERE message.conversation_id = conversation.id AND ${MESSAGES.matches(message, term)} LIMIT 1) AS said ON true`,
    // The conversations of the contacts and of the messages that the indexes list for the term; each is read
    // once, through the index of its contact or its primary key: a contact's conversations by a lateral subquery
    // (OFFSET 0 keeps it one), since the planner, overestimating the contacts found, hashed every conversation of
    // the table instead (2,500 contacts: 270 → 75 ms at a million). Only then are they kept to those after the
    // position (OFFSET 0): a position known only when the statement runs would otherwise have the planner read every
    // conversation after it and hash them. Of the contacts, only those whose conversations can be among the first
    // `take` are read (conversationsOfContacts).
    candidatesAfter: (position, take) => Prisma.sql`
      SELECT id, last_message_at FROM (
        ${conversationsOfContacts(position, take)}
        UNION
        SELECT conversation.id, conversation.last_message_at
        FROM (SELECT DISTINCT conversation_id FROM (${candidateRows(MESSAGES, message, workspace, term, Prisma.sql`${message}.conversation_id`)}) AS message) AS matched
        JOIN conversations conversation ON conversation.id = matched.conversation_id
        OFFSET 0) AS conversation
      WHERE ${after(position)}`,
  };
}

/** The statement of up to `take` ids of the workspace's conversations matching `term`, in the list's order, along
 * `walk`; null when the walk has nothing left: one kept to conversations with a message, already past them (a cursor
 * into those without). */
export function conversationSearch(workspace: SearchedWorkspace, term: string, walk: ConversationWalk, take: number): Prisma.Sql | null {
  if (walk.withMessagesOnly && walk.after?.at === null) return null;
  const start = walk.after ? Prisma.sql`SELECT ${walk.after.at}::timestamptz AS last_message_at, ${walk.after.id}::uuid AS id` : null;
  return matchingInOrder(conversationList(workspace, term, walk.withMessagesOnly), start, take);
}

/** Up to `take` ids of the workspace's conversations matching `term`, in the list's order, along `walk`: one statement. */
export async function matchingConversationIds(
  sql: SqlConnection,
  workspace: SearchedWorkspace,
  term: string,
  walk: ConversationWalk,
  take: number,
): Promise<string[]> {
  const statement = conversationSearch(workspace, term, walk, take);
  if (!statement) return [];
  const rows = await statementRows<{ id: string }>(sql, statement);
  return rows.map((row) => row.id);
}

// Conversation search (substringSearch.ts decides how): a conversation matches when its contact's
// name, phone number or e-mail address, or the body of any of its messages, contains the term (ILIKE '%term%').
// The order is the conversation list's: those with a message by last_message_at then id, newest first, then those
// without a message by id. The index orders each of the two parts on its own, so a window reads both in order and
// keeps the first rows. A rare term's candidates are the conversations of the contacts and of the messages that
// the contact and message indexes list for it.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db } from '../shared/context.js';
import { candidateRows, matchingInOrder, type SearchableList } from '../shared/substringSearch.js';
import { CONTACTS } from '../contacts/search.js';
import { MESSAGES } from '../messaging/search.js';

/** A conversation's place in the order: `at` is its last_message_at, null for one without messages. */
export type ConversationKey = { at: Date | null; id: string };
/** A walk through the order: after a key (from the start when null), and whether it keeps to conversations with a
 * message (a walk begun at a date-time does). */
export type ConversationWalk = { after: ConversationKey | null; withMessagesOnly: boolean };
/** Precedes every id: the key { at, id: ZERO_ID } is the position just after every conversation of the instant `at`. */
export const ZERO_ID = '00000000-0000-0000-0000-000000000000';

/** A recent window tests this many conversations: each costs a contact and a range of its messages. */
const CONVERSATION_WINDOW = 300;

const contact = Prisma.raw('contact');
const message = Prisma.raw('message');

const ORDER = Prisma.sql`last_message_at DESC NULLS LAST, id DESC`;

function conversationList(workspaceId: string, term: string, withMessagesOnly: boolean): SearchableList<ConversationKey> {
  /** The conversations with a message after `after`, as a condition on the alias `conversation` (null when
   * `after` is past them). */
  const timedAfter = (after: ConversationKey | null) => {
    if (!after) return Prisma.sql`conversation.last_message_at IS NOT NULL`;
    if (!after.at) return null;
    return Prisma.sql`(conversation.last_message_at, conversation.id) < (${after.at}::timestamptz, ${after.id}::uuid)`;
  };
  /** The same for the conversations without a message (null when the walk keeps to those with one). */
  const untimedAfter = (after: ConversationKey | null) => {
    if (withMessagesOnly) return null;
    if (!after || after.at) return Prisma.sql`conversation.last_message_at IS NULL`;
    return Prisma.sql`conversation.last_message_at IS NULL AND conversation.id < ${after.id}::uuid`;
  };
  // Never both null: matchingConversationIds answers a walk that has passed every conversation it keeps to.
  const parts = (key: ConversationKey | null) => [timedAfter(key), untimedAfter(key)].filter((part) => part !== null);
  const after = (key: ConversationKey | null) => Prisma.sql`(${Prisma.join(parts(key), ' OR ')})`;
  /** The first `size` conversations after `after`: each part read in its index's order, then merged. */
  const window = (key: ConversationKey | null, size: number) => {
    // Both in the index's own order (NULLS FIRST): ordered by id alone, the planner may walk the primary key instead.
    const reads = parts(key).map(
      (condition) =>
        Prisma.sql`(SELECT id, last_message_at, customer_id FROM conversations conversation
                    WHERE company_id = ${workspaceId}::uuid AND ${condition} ORDER BY last_message_at DESC, id DESC LIMIT ${size})`,
    );
    return Prisma.sql`SELECT * FROM (${Prisma.join(reads, ' UNION ALL ')}) AS parts ORDER BY ${ORDER} LIMIT ${size}`;
  };
  return {
    window: CONVERSATION_WINDOW,
    // The window is read first (a subquery with a limit is planned on its own), then its rows are tested one by
    // one, each against its contact and its own messages: a lateral subquery with a limit cannot be turned into a
    // hash of every message of every workspace that contains the term, which the planner otherwise prefers.
    recent: (key, size) => Prisma.sql`
      SELECT conversation.id, conversation.last_message_at,
        ${CONTACTS.matches(contact, term)} OR said.found IS NOT NULL AS matched
      FROM (${window(key, size)}) AS conversation
      JOIN customers contact ON contact.id = conversation.customer_id
      LEFT JOIN LATERAL (
        SELECT true AS found FROM messages message
        WHERE message.conversation_id = conversation.id AND ${MESSAGES.matches(message, term)} LIMIT 1) AS said ON true`,
    // The conversations of the contacts and of the messages that the indexes list for the term; each is read
    // once, through the index of its contact or its primary key.
    candidates: (boundary) => Prisma.sql`
      SELECT conversation.id, conversation.last_message_at
      FROM (${candidateRows(CONTACTS, contact, workspaceId, term)}) AS contact JOIN conversations conversation ON conversation.customer_id = contact.id
      WHERE conversation.company_id = ${workspaceId}::uuid AND ${after(boundary)}
      UNION
      SELECT conversation.id, conversation.last_message_at
      FROM (SELECT DISTINCT conversation_id FROM (${candidateRows(MESSAGES, message, workspaceId, term)}) AS message) AS matched
      JOIN conversations conversation ON conversation.id = matched.conversation_id
      WHERE ${after(boundary)}`,
    order: ORDER,
    keyOf: (row) => ({ at: row['last_message_at'] as Date | null, id: row['id'] as string }),
  };
}

/** Up to `take` ids of the workspace's conversations matching `term`, in the list's order, along `walk`. */
export async function matchingConversationIds(
  db: Db,
  workspaceId: string,
  term: string,
  walk: ConversationWalk,
  take: number,
): Promise<string[]> {
  // A walk kept to conversations with a message, already past them (a cursor into those without), has nothing left.
  if (walk.withMessagesOnly && walk.after?.at === null) return [];
  const keys = await matchingInOrder(db, conversationList(workspaceId, term, walk.withMessagesOnly), walk.after, take);
  return keys.map((key) => key.id);
}

// Message search (substringSearch.ts decides how): a message matches when its body contains the
// term, exactly as ILIKE '%term%'; the list is the workspace's messages newest first by id. Rare terms of three
// characters or more are found through the body's trigram index, shorter ones through the index of its one- and
// two-character pieces, `short_grams(body)` (migration 0022).
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db } from '../shared/context.js';
import { containsPattern, indexedPiece, indexedRows, isShortTerm, matchingInOrder, newestFirstList } from './substringSearch.js';

const messages = Prisma.raw('messages');
const message = Prisma.raw('message');

/** Whether the message row (`row` names its table or alias) contains the term. */
export function messageMatches(row: Prisma.Sql, pattern: string): Prisma.Sql {
  return Prisma.sql`${row}.body ILIKE ${pattern}`;
}

/** The workspace's messages that contain the term, through the trigram or short-gram indexes (aliased `message`):
 * the index looks up the term's longest word (indexedPiece), since a body is prose where a common word's trigrams
 * are in millions of rows. */
export function messageCandidates(workspaceId: string, term: string): Prisma.Sql {
  const piece = indexedPiece(term);
  const indexed = isShortTerm(piece)
    ? Prisma.sql`short_grams(message.body) @> ARRAY[lower(${piece})]`
    : messageMatches(message, containsPattern(piece));
  return indexedRows(messages, message, workspaceId, indexed, messageMatches(message, containsPattern(term)));
}

/** Up to `take` ids of the workspace's messages whose body contains `term`, newest first, older than `cursor`. */
export function matchingMessageIds(db: Db, workspaceId: string, term: string, cursor: string | null, take: number): Promise<string[]> {
  const list = newestFirstList(
    messages,
    workspaceId,
    messageMatches(messages, containsPattern(term)),
    messageCandidates(workspaceId, term),
  );
  return matchingInOrder(db, list, cursor, take);
}

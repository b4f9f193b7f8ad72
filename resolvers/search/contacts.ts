// Contact search (substringSearch.ts decides how): a contact matches when its name, phone number or
// e-mail address contains the term, exactly as ILIKE '%term%' on each; the list is newest first by id. Rare terms of
// three characters or more are found through the trigram indexes of the three fields, shorter ones through
// `search_grams`, every one- and two-character piece of the three lower-cased fields (migration 0017).
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db } from '../shared/context.js';
import { containsPattern, indexedRows, isShortTerm, matchingInOrder, newestFirstList } from './substringSearch.js';

const customers = Prisma.raw('customers');
const contact = Prisma.raw('contact');

/** Whether the contact row (`row` names its table or alias) contains the term. */
export function contactMatches(row: Prisma.Sql, pattern: string): Prisma.Sql {
  return Prisma.sql`(${row}.name ILIKE ${pattern} OR ${row}.phone_number ILIKE ${pattern} OR ${row}.email ILIKE ${pattern})`;
}

/** The workspace's contacts that contain the term, through the trigram or short-gram indexes (aliased `contact`).
 * The whole term is looked up, unlike a message's longest word (messages.ts): the three fields are short, and
 * the rows of all of a name's trigrams are fewer than those of its rarest word (`Zoe Larsen`: 13 ms, against
 * 111 ms through `Larsen`). */
export function contactCandidates(workspaceId: string, term: string): Prisma.Sql {
  const matches = contactMatches(contact, containsPattern(term));
  const indexed = isShortTerm(term) ? Prisma.sql`contact.search_grams @> ARRAY[lower(${term})]` : matches;
  return indexedRows(customers, contact, workspaceId, indexed, matches);
}

/** Up to `take` ids of the workspace's contacts matching `term`, newest first, older than `cursor` when given. */
export function matchingContactIds(db: Db, workspaceId: string, term: string, cursor: string | null, take: number): Promise<string[]> {
  const list = newestFirstList(
    customers,
    workspaceId,
    contactMatches(customers, containsPattern(term)),
    contactCandidates(workspaceId, term),
  );
  return matchingInOrder(db, list, cursor, take);
}

// Contact search (substringSearch.ts decides how): a contact matches when its name, phone number or
// e-mail address contains the term, exactly as ILIKE '%term%' on each; the list is newest first by id. Rare terms of
// three characters or more are found through the trigram indexes of the three fields, shorter ones through
// `search_grams`, every one- and two-character piece of the three lower-cased fields (migration 0017).
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { containsPattern, isShortTerm, type SearchedTable } from '../shared/substringSearch.js';

/**
 * Contacts, by name, phone number or e-mail address. The index looks up the whole term, unlike a message's longest
 * word (messages.ts): the three fields are short, and the rows of all of a name's trigrams are fewer than those of
 * its rarest word (`Zoe Larsen`: 13 ms, against 111 ms through `Larsen`).
 */
export const CONTACTS: SearchedTable = {
  table: Prisma.raw('customers'),
  matches: (row, pattern) =>
    Prisma.sql`(${row}.name ILIKE ${pattern} OR ${row}.phone_number ILIKE ${pattern} OR ${row}.email ILIKE ${pattern})`,
  indexed: (row, term) =>
    isShortTerm(term) ? Prisma.sql`${row}.search_grams @> ARRAY[lower(${term})]` : CONTACTS.matches(row, containsPattern(term)),
};

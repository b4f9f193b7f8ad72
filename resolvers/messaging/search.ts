// Message search (substringSearch.ts decides how): a message matches when its body contains the term, exactly as
// ILIKE '%term%'; the list is the workspace's messages newest first by id. Rare terms of three characters or more
// are found through the body's trigram index, shorter ones through the index of its one- and two-character pieces,
// `short_grams(body)` (migration 0022).
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { containsIgnoringCase, containsPattern, indexedPiece, isShortTerm, type SearchedTable } from '../shared/substringSearch.js';

/** Messages, by body. The index looks up the term's longest word (indexedPiece), since a body is prose where a
 * common word's trigrams are in millions of rows. */
export const MESSAGES: SearchedTable = {
  name: 'messages',
  matches: (row, term) => containsIgnoringCase(Prisma.sql`${row}.body`, term),
  lookups: (row, term) => {
    const piece = indexedPiece(term);
    const condition = isShortTerm(piece)
      ? Prisma.sql`short_grams(${row}.body) @> ARRAY[lower(${piece})]`
      : Prisma.sql`${row}.body ILIKE ${containsPattern(piece)}`;
    return [{ condition, check: piece === term && !isShortTerm(piece) ? null : MESSAGES.matches(row, term) }];
  },
};

// Which rows of a list contain a search term, in the list's own order (newest first), quickly for any term:
// contacts, conversations and messages are all searched this way (docs/search.md). No single index answers
// every term, so the search takes two steps:
// 1. the newest rows after the cursor are read in order and filtered (a `recent` window): a common term fills its
//    page there, at the cost of one short index range; a term found there but not often enough reads on in order
//    as far as its frequency says the page needs (up to LONGEST_FURTHER_WINDOW first windows);
// 2. otherwise the term is rare, and the rest is found through an index that lists its candidates (trigram
//    indexes for terms of three characters or more, short-gram indexes for shorter ones). The candidates are
//    materialized so that the planner cannot turn back to walking the whole list in order, which is what made
//    rare and absent terms slow.
// Each list says how to read its window and its candidates (SearchableList); this file decides which to use.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db } from './context.js';

const DEFAULT_WINDOW = 1000;
/** The most rows read in order after the first window, in first windows, for a term that the first window showed
 * to be common: 20,000 contacts or messages, 6,000 conversations (whose rows cost more to test). */
const LONGEST_FURTHER_WINDOW = 20;
/** Shorter terms have no trigram: they are found through a short-gram index. */
const SHORTEST_TRIGRAM_TERM = 3;

/** A LIKE pattern that matches `term` literally anywhere in a value. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (special) => `\\${special}`)}%`;
}

/** Whether `term` is too short for a trigram index, so that its candidates come from a short-gram index. */
export function isShortTerm(term: string): boolean {
  return Array.from(term).length < SHORTEST_TRIGRAM_TERM;
}

/**
 * The part of `term` that an index looks up: its longest word when that has a trigram. A trigram index answers
 * `%order R0799999%` by intersecting the rows of every trigram of both words, a hundred times slower than
 * `%R0799999%` alone when one word is as common as "order"; the rows it lists hold every word of the term, and
 * are then checked against the whole term.
 */
export function indexedPiece(term: string): string {
  const longest = term.split(/\s+/).reduce((best, word) => (Array.from(word).length > Array.from(best).length ? word : best), '');
  return isShortTerm(longest) ? term : longest;
}

/**
 * A table searched by substring. `matches` says whether a row (`row` names the table or an alias) contains the
 * term; `indexed` is a condition on a row that an index answers, true of every row containing the term (and
 * perhaps of others, which `matches` then leaves out).
 */
export type SearchedTable = {
  table: Prisma.Sql;
  matches(row: Prisma.Sql, term: string): Prisma.Sql;
  indexed(row: Prisma.Sql, term: string): Prisma.Sql;
};

/**
 * The workspace's rows of `searched` that contain the term, found through its index, as a subquery whose rows are
 * named `alias`. The index's rows are read first (OFFSET 0 keeps the planner from folding the whole-term check
 * into the index lookup).
 */
export function candidateRows(searched: SearchedTable, alias: Prisma.Sql, workspaceId: string, term: string): Prisma.Sql {
  return Prisma.sql`
    SELECT * FROM (
      SELECT * FROM ${searched.table} ${alias}
      WHERE ${searched.indexed(alias, term)} AND ${alias}.company_id = ${workspaceId}::uuid OFFSET 0) AS ${alias}
    WHERE ${searched.matches(alias, term)}`;
}

/** How one list is searched for one term, keyed by `Key`, the columns that order it. */
export type SearchableList<Key> = {
  /** At most `size` rows after `after` (from the list's start when null), in the list's order: the key columns
   * and `matched`, whether the row contains the term. */
  recent(after: Key | null, size: number): Prisma.Sql;
  /** The key columns of every row after `boundary` that contains the term, through an index, in any order. */
  candidates(boundary: Key): Prisma.Sql;
  /** The list's order over the key columns. */
  order: Prisma.Sql;
  keyOf(row: Record<string, unknown>): Key;
  /** How many rows the first window reads; a list whose rows cost more to test reads fewer. */
  window?: number;
};

type Scan<Key> = { keys: Key[]; boundary: Key | null };

/** The first `take` matches among the `size` rows after `after`; `boundary` is the last row read, or null when
 * the list ended within the window. */
async function scanWindow<Key>(db: Db, list: SearchableList<Key>, after: Key | null, size: number, take: number): Promise<Scan<Key>> {
  const rows = await db.$queryRaw<(Record<string, unknown> & { matched: boolean; position: number; scanned: number })[]>`
    WITH recent AS MATERIALIZED (${list.recent(after, size)}),
    numbered AS (
      SELECT *, row_number() OVER (ORDER BY ${list.order})::int AS position, count(*) OVER ()::int AS scanned FROM recent)
    SELECT * FROM (
      (SELECT * FROM numbered WHERE matched ORDER BY position LIMIT ${take})
      UNION
      (SELECT * FROM numbered WHERE position = scanned)) AS found
    ORDER BY position`;
  const last = rows.at(-1);
  return {
    keys: rows.filter((row) => row.matched).map((row) => list.keyOf(row)),
    boundary: last && last.position === last.scanned && last.scanned >= size ? list.keyOf(last) : null,
  };
}

async function indexedMatches<Key>(db: Db, list: SearchableList<Key>, boundary: Key, take: number): Promise<Key[]> {
  const rows = await db.$queryRaw<Record<string, unknown>[]>`
    WITH candidates AS MATERIALIZED (${list.candidates(boundary)})
    SELECT * FROM candidates ORDER BY ${list.order} LIMIT ${take}`;
  return rows.map((row) => list.keyOf(row));
}

/** The keys of up to `take` rows of `list` containing the term, in the list's order, after `cursor` when given. */
export async function matchingInOrder<Key>(db: Db, list: SearchableList<Key>, cursor: Key | null, take: number): Promise<Key[]> {
  const window = list.window ?? DEFAULT_WINDOW;
  const first = await scanWindow(db, list, cursor, window, take);
  if (first.keys.length >= take || !first.boundary) return first.keys.slice(0, take);
  let keys = first.keys;
  let boundary = first.boundary;
  // A term seen in the first window is common enough to read on in order, if the rest of the page is likely
  // within a few thousand more rows; then its candidates would be too many to fetch through an index.
  const expected = keys.length === 0 ? Infinity : ((take - keys.length) * window * 2) / keys.length;
  if (expected <= LONGEST_FURTHER_WINDOW * window) {
    const further = await scanWindow(db, list, boundary, Math.ceil(expected), take - keys.length);
    keys = [...keys, ...further.keys];
    if (keys.length >= take || !further.boundary) return keys.slice(0, take);
    boundary = further.boundary;
  }
  return [...keys, ...(await indexedMatches(db, list, boundary, take - keys.length))];
}

const candidate = Prisma.raw('candidate');

/** Up to `take` ids of the workspace's rows of `searched` that contain `term`, newest first by id (ids are UUIDv7),
 * older than `cursor` when given. */
export function matchingNewestFirst(
  db: Db,
  searched: SearchedTable,
  workspaceId: string,
  term: string,
  cursor: string | null,
  take: number,
): Promise<string[]> {
  const olderThan = (id: string | null) => (id ? Prisma.sql`AND id < ${id}::uuid` : Prisma.empty);
  const list: SearchableList<string> = {
    recent: (after, size) => Prisma.sql`
      SELECT id, ${searched.matches(searched.table, term)} AS matched FROM ${searched.table}
      WHERE company_id = ${workspaceId}::uuid ${olderThan(after)} ORDER BY id DESC LIMIT ${size}`,
    candidates: (boundary) => Prisma.sql`
      SELECT id FROM (${candidateRows(searched, candidate, workspaceId, term)}) AS found WHERE true ${olderThan(boundary)}`,
    order: Prisma.sql`id DESC`,
    keyOf: (row) => row['id'] as string,
  };
  return matchingInOrder(db, list, cursor, take);
}

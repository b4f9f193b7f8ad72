// Which rows of a list contain a search term, in the list's own order (newest first), quickly for any term:
// contacts, conversations and messages are all searched this way (docs/search.md), each page by one statement
// on the database's SQL connection. No single index answers every term, so the statement reads in steps, each
// only when the steps before it did not fill the page (a UNION ALL under a LIMIT stops at the first full page):
// 1. the newest rows after the cursor are read in order and filtered (a `recent` window): a common term fills its
//    page there, at the cost of one short index range; a term found there but not often enough reads on in order
//    as far as its frequency says the page needs (up to LONGEST_FURTHER_WINDOW first windows);
// 2. otherwise the term is rare, and the rest is found through an index that lists its candidates (trigram
//    indexes for terms of three characters or more, short-gram indexes for shorter ones). The candidates are
//    materialized so that the planner cannot turn back to walking the whole list in order, which is what made
//    rare and absent terms slow.
// Each list says how to read its rows after a position and its candidates (SearchableList); this file orders the steps.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { SqlConnection } from '../../infra/db/sql.js';
import { statementRows } from './statements.js';
import type { SearchedWorkspace } from './workspaceShares.js';

const DEFAULT_WINDOW = 1000;
/** The most rows read in order after the first window, in first windows, for a term that the first window showed
 * to be common: 20,000 contacts or messages, 6,000 conversations (whose rows cost more to test). */
const LONGEST_FURTHER_WINDOW = 20;
/** Matches beyond twice the missing ones that the further window is sized to hold (matchingInOrder). */
const FURTHER_SPARE = 10;
/** Shorter terms have no trigram: they are found through a short-gram index. */
const SHORTEST_TRIGRAM_TERM = 3;

/** A LIKE pattern that matches `term` literally anywhere in a value. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (special) => `\\${special}`)}%`;
}

/**
 * Whether `value` contains `term`, exactly as `value ILIKE '%term%'`: in a UTF-8 database ILIKE lower-cases the value
 * and the pattern and compares them, for every row. Here the pattern is lower-cased once per statement (an InitPlan)
 * and only the value for each row: the test of a search window's rows, which a trigram index cannot answer, takes
 * half the time (1,000 contacts' name, phone and e-mail: 2.1–2.4 ms with ILIKE, 1.3 ms so). A lookup through a
 * trigram index keeps ILIKE, which the index answers.
 */
export function containsIgnoringCase(value: Prisma.Sql, term: string): Prisma.Sql {
  return Prisma.sql`lower(${value}) LIKE ${lowerCasedPattern(term)}`;
}

/** containsPattern lower-cased once per statement (an InitPlan): for values that are lower-cased already. */
export function lowerCasedPattern(term: string): Prisma.Sql {
  return Prisma.sql`(SELECT lower(${containsPattern(term)}))`;
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

/** A condition on a row that one index answers, and what a row meeting it must still meet to contain the term
 * (null when the condition holds only of rows containing it). */
export type Lookup = { condition: Prisma.Sql; check: Prisma.Sql | null };

/**
 * A table searched by substring. `matches` says whether a row (`row` names the table or an alias) contains the
 * term; `lookups` are conditions on a row, each answered by one index, such that every row containing the term
 * meets one of them (a row meeting an inexact one is then checked with `matches`).
 */
export type SearchedTable = {
  /** The table's name: what workspaceShares.ts knows its workspaces' shares by. */
  name: string;
  matches(row: Prisma.Sql, term: string): Prisma.Sql;
  lookups(row: Prisma.Sql, term: string): Lookup[];
};

/**
 * The `columns` (of the row named `alias`) of the workspace's rows of `searched` that contain the term, found
 * through its indexes: one lookup after another, each read through its own index and checked only against what
 * it does not already answer (a contact whose phone number holds the digits needs no check of its name), then
 * combined. Each index's rows are read first (OFFSET 0 keeps the planner from folding a check into the lookup, or
 * from walking the whole list in order instead). The index is asked for the workspace's rows too, unless the
 * workspace holds most of the table (workspaceShares.ts): then by the term alone, the workspace's rows kept after.
 */
export function candidateRows(
  searched: SearchedTable,
  alias: Prisma.Sql,
  workspace: SearchedWorkspace,
  term: string,
  columns: Prisma.Sql,
): Prisma.Sql {
  const inWorkspace = Prisma.sql`${alias}.company_id = ${workspace.id}::uuid`;
  const byTermAlone = workspace.holdsMostOf.has(searched.name);
  const reads = searched.lookups(alias, term).map(({ condition, check }) => {
    const kept = [byTermAlone ? inWorkspace : null, check].filter((part) => part !== null);
    return Prisma.sql`
      SELECT ${columns} FROM (
        SELECT * FROM ${Prisma.raw(searched.name)} ${alias} WHERE ${condition} ${byTermAlone ? Prisma.empty : Prisma.sql`AND ${inWorkspace}`} OFFSET 0) AS ${alias}
      ${kept.length ? Prisma.sql`WHERE ${Prisma.join(kept, ' AND ')}` : Prisma.empty}`;
  });
  return Prisma.join(reads, ' UNION ');
}

/**
 * How one list is searched for one term. A position in the list is a relation of one row (a name of the statement's
 * own) holding the key columns of that row; an empty one is past the list's end.
 */
export type SearchableList = {
  /** The columns that order the list. */
  key: Prisma.Sql;
  /** The list's order over the key columns, and the reverse of it. */
  order: Prisma.Sql;
  reversed: Prisma.Sql;
  /** At most `size` rows after `position` (from the list's start when null), in the list's order: the key columns
   * and `matched`, whether the row contains the term. */
  after(position: Prisma.Sql | null, size: Prisma.Sql): Prisma.Sql;
  /** The key columns of rows after `position` that contain the term, through an index, in any order: every such
   * row, or at least every one of them among the first `take` in the list's order. */
  candidatesAfter(position: Prisma.Sql, take: number): Prisma.Sql;
  /** How many rows the first window reads; a list whose rows cost more to test reads fewer. */
  window?: number;
};

const named = (name: string) => Prisma.raw(name);

/**
 * One statement: the key columns of up to `take` rows of `list` containing the term, in the list's order, after the
 * position that `start` selects (from the list's start when null). Its steps are the arms of one UNION ALL under the
 * LIMIT: PostgreSQL runs the arms of an Append one after another and stops pulling once the limit is reached, so a
 * later step (and the materialized relations only it reads) runs only when the earlier ones left the page short.
 * The further window's length is the first window's verdict: the rows that hold, at the density the first window
 * saw, twice the matches still missing and FURTHER_SPARE more, `((take − found) × 2 + FURTHER_SPARE) × window ÷
 * found`; none when the term was not seen there or would need more than LONGEST_FURTHER_WINDOW windows (its
 * candidates are then fewer to fetch through an index than rows to read in order). The spare matches are for a page
 * a few short: twice one missing match is two expected in the rows read, none there one time in seven, and the
 * index step that follows fetches every older match of a term that common (62,000 candidates, 330 ms, for a last
 * name one short of its page at a million contacts).
 */
export function matchingInOrder(list: SearchableList, start: Prisma.Sql | null, take: number): Prisma.Sql {
  const window = list.window ?? DEFAULT_WINDOW;
  const perFound = Prisma.sql`((${take} - found) * 2 + ${FURTHER_SPARE}) * ${window}::numeric / found`;
  return Prisma.sql`
    WITH ${start ? Prisma.sql`start_at AS MATERIALIZED (${start}),` : Prisma.empty}
    recent AS MATERIALIZED (${list.after(start ? named('start_at') : null, Prisma.sql`${window}::int`)}),
    seen AS MATERIALIZED (
      SELECT scanned = ${window} AS more, CASE
        WHEN scanned < ${window} OR found = 0 OR found >= ${take} OR ${perFound} > ${LONGEST_FURTHER_WINDOW * window} THEN 0
        ELSE ceil(${perFound})::int END AS further
      FROM (SELECT count(*) AS scanned, count(*) FILTER (WHERE matched) AS found FROM recent) AS counted),
    recent_end AS MATERIALIZED (SELECT ${list.key} FROM recent ORDER BY ${list.reversed} LIMIT 1),
    further AS MATERIALIZED (${list.after(named('recent_end'), Prisma.sql`(SELECT further FROM seen)`)}),
    further_end AS MATERIALIZED (SELECT ${list.key} FROM further ORDER BY ${list.reversed} LIMIT 1),
    boundary AS MATERIALIZED (
      SELECT * FROM recent_end WHERE (SELECT more AND further = 0 FROM seen)
      UNION ALL
      SELECT * FROM further_end WHERE (SELECT further > 0 AND further = (SELECT count(*) FROM further) FROM seen))
    SELECT * FROM (
      (SELECT ${list.key} FROM recent WHERE matched ORDER BY ${list.order})
      UNION ALL
      (SELECT ${list.key} FROM further WHERE matched ORDER BY ${list.order})
      UNION ALL
      (SELECT ${list.key} FROM (${list.candidatesAfter(named('boundary'), take)}) AS candidate
       WHERE EXISTS (SELECT FROM boundary) ORDER BY ${list.order} LIMIT ${take})
      LIMIT ${take}) AS page
    ORDER BY ${list.order}`;
}

const candidate = Prisma.raw('candidate');

/** The statement selecting the `id` of up to `take` of the workspace's rows of `searched` that contain `term`,
 * newest first by id (ids are UUIDv7), older than `cursor` when given. */
export function newestFirstMatches(
  searched: SearchedTable,
  workspace: SearchedWorkspace,
  term: string,
  cursor: string | null,
  take: number,
): Prisma.Sql {
  const table = Prisma.raw(searched.name);
  const list: SearchableList = {
    key: Prisma.sql`id`,
    order: Prisma.sql`id DESC`,
    reversed: Prisma.sql`id`,
    // The window is read in the order of the workspace's (company_id, id DESC) index, asked for as such: with the
    // workspace written as `= ANY` of one, the planner cannot take it for a constant and drop it from the order, and
    // so cannot walk the primary key newest first instead, skipping every newer row of other workspaces (45 million
    // messages, 13 s, for the older of two workspaces sharing the table; it expected the workspace's rows spread
    // evenly through the ids).
    after: (position, size) => Prisma.sql`
      SELECT id, ${searched.matches(table, term)} AS matched FROM ${table}
      WHERE company_id = ANY(ARRAY[${workspace.id}::uuid]) ${position ? Prisma.sql`AND id < (SELECT id FROM ${position})` : Prisma.empty}
      ORDER BY company_id, id DESC LIMIT ${size}`,
    candidatesAfter: (position) => Prisma.sql`
      SELECT id FROM (${candidateRows(searched, candidate, workspace, term, Prisma.sql`${candidate}.id`)}) AS found
      WHERE id < (SELECT id FROM ${position})`,
  };
  return matchingInOrder(list, cursor ? Prisma.sql`SELECT ${cursor}::uuid AS id` : null, take);
}

/** Up to `take` ids of the workspace's rows of `searched` that contain `term`, newest first (newestFirstMatches). */
export async function matchingNewestFirst(
  sql: SqlConnection,
  searched: SearchedTable,
  workspace: SearchedWorkspace,
  term: string,
  cursor: string | null,
  take: number,
): Promise<string[]> {
  const rows = await statementRows<{ id: string }>(sql, newestFirstMatches(searched, workspace, term, cursor, take));
  return rows.map((row) => row.id);
}

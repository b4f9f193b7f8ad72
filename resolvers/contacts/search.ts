// Which contacts match a search term, newest first: a case-insensitive substring of the name, the phone number
// or the e-mail address, exactly as ILIKE '%term%' on each. No single index answers every term quickly, so the
// search takes two steps (docs/search.md):
// 1. the newest RECENT_WINDOW contacts after the cursor are read in order and filtered: a common term (one in
//    twenty contacts or more) fills its page there, at the cost of one short index range; a term found there but
//    not often enough reads on in order as far as its frequency says the page needs (up to 20,000 contacts);
// 2. otherwise the rest is a rare term, found through an index that lists its candidates: the trigram indexes
//    for terms of three characters or more, the short-gram index (every one- and two-character piece of the
//    three fields, a generated column) for shorter ones. The candidates are materialized so that the planner
//    cannot turn back to walking the whole workspace newest-first, which is what made rare terms slow.
import type { Db } from '../shared/context.js';

const RECENT_WINDOW = 1000;
/** The most contacts read in order after the first window, for a term that the first window showed to be common. */
const LONGEST_FURTHER_WINDOW = 20_000;
/** Shorter terms have no trigram: they are found through the short-gram index. */
const SHORTEST_TRIGRAM_TERM = 3;

/** A LIKE pattern that matches `term` literally anywhere in a value. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (special) => `\\${special}`)}%`;
}

type Scan = { ids: string[]; boundary: string | null; complete: boolean };

/** The matching ids among the `size` contacts right after `cursor`, newest first; `boundary` is the oldest contact
 * read and `complete` whether the workspace ended within the window. */
async function scanWindow(db: Db, workspaceId: string, pattern: string, cursor: string | null, size: number, take: number): Promise<Scan> {
  const rows = await db.$queryRaw<{ id: string | null; boundary: string | null; scanned: number | null }[]>`
    WITH recent AS MATERIALIZED (
      SELECT id, name, phone_number, email FROM customers
      WHERE company_id = ${workspaceId}::uuid AND (${cursor}::uuid IS NULL OR id < ${cursor}::uuid)
      ORDER BY id DESC LIMIT ${size})
    SELECT NULL::uuid AS id, (SELECT id FROM recent ORDER BY id LIMIT 1) AS boundary, (SELECT count(*)::int FROM recent) AS scanned
    UNION ALL
    (SELECT id, NULL, NULL FROM recent
     WHERE name ILIKE ${pattern} OR phone_number ILIKE ${pattern} OR email ILIKE ${pattern}
     ORDER BY id DESC LIMIT ${take})`;
  const summary = rows.find((row) => row.id === null);
  return {
    ids: rows.flatMap((row) => (row.id === null ? [] : [row.id])).sort((a, b) => (a < b ? 1 : -1)),
    boundary: summary?.boundary ?? null,
    complete: (summary?.scanned ?? 0) < size,
  };
}

/** The matching ids older than `boundary`, through the index that lists the term's candidates. */
async function indexedMatches(db: Db, workspaceId: string, term: string, pattern: string, boundary: string, take: number) {
  const rows = await (Array.from(term).length < SHORTEST_TRIGRAM_TERM
    ? db.$queryRaw<{ id: string }[]>`
        WITH candidates AS MATERIALIZED (
          SELECT id, name, phone_number, email FROM customers
          WHERE search_grams @> ARRAY[lower(${term})] AND company_id = ${workspaceId}::uuid AND id < ${boundary}::uuid)
        SELECT id FROM candidates
        WHERE name ILIKE ${pattern} OR phone_number ILIKE ${pattern} OR email ILIKE ${pattern}
        ORDER BY id DESC LIMIT ${take}`
    : db.$queryRaw<{ id: string }[]>`
        WITH candidates AS MATERIALIZED (
          SELECT id FROM customers
          WHERE (name ILIKE ${pattern} OR phone_number ILIKE ${pattern} OR email ILIKE ${pattern})
            AND company_id = ${workspaceId}::uuid AND id < ${boundary}::uuid)
        SELECT id FROM candidates ORDER BY id DESC LIMIT ${take}`);
  return rows.map((row) => row.id);
}

/** Up to `take` ids of the workspace's contacts matching `term`, newest first, older than `cursor` when given. */
export async function matchingContactIds(
  db: Db,
  workspaceId: string,
  term: string,
  cursor: string | null,
  take: number,
): Promise<string[]> {
  const pattern = containsPattern(term);
  const first = await scanWindow(db, workspaceId, pattern, cursor, RECENT_WINDOW, take);
  if (first.ids.length >= take || first.complete || !first.boundary) return first.ids;
  let ids = first.ids;
  let boundary = first.boundary;
  // A term seen in the first window is common enough to read on in order, if the rest of the page is likely
  // within a few thousand more contacts; then its candidates would be too many to fetch through an index.
  const expected = ids.length === 0 ? Infinity : ((take - ids.length) * RECENT_WINDOW * 2) / ids.length;
  if (expected <= LONGEST_FURTHER_WINDOW) {
    const further = await scanWindow(db, workspaceId, pattern, boundary, Math.ceil(expected), take - ids.length);
    ids = [...ids, ...further.ids];
    if (ids.length >= take || further.complete || !further.boundary) return ids;
    boundary = further.boundary;
  }
  return [...ids, ...(await indexedMatches(db, workspaceId, term, pattern, boundary, take - ids.length))];
}

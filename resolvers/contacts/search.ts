// Which contacts match a search term, newest first: a case-insensitive substring of the name, the phone number
// or the e-mail address, exactly as ILIKE '%term%' on each. No single index answers every term quickly, so the
// search takes two steps (docs/search.md):
// 1. the newest RECENT_WINDOW contacts after the cursor are read in order and filtered: a common term (one in
//    twenty contacts or more) fills its page there, at the cost of one short index range;
// 2. otherwise the rest is a rare term, found through an index that lists its candidates: the trigram indexes
//    for terms of three characters or more, the short-gram index (every one- and two-character piece of the
//    three fields, a generated column) for shorter ones. The candidates are materialized so that the planner
//    cannot turn back to walking the whole workspace newest-first, which is what made rare terms slow.
import type { Db } from '../shared/context.js';

const RECENT_WINDOW = 1000;
/** Shorter terms have no trigram: they are found through the short-gram index. */
const SHORTEST_TRIGRAM_TERM = 3;

/** A LIKE pattern that matches `term` literally anywhere in a value. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (special) => `\\${special}`)}%`;
}

type Window = { id: string | null; boundary: string | null; scanned: number | null };

/** Up to `take` ids of the workspace's contacts matching `term`, newest first, older than `cursor` when given. */
export async function matchingContactIds(
  db: Db,
  workspaceId: string,
  term: string,
  cursor: string | null,
  take: number,
): Promise<string[]> {
  const pattern = containsPattern(term);
  const rows = await db.$queryRaw<Window[]>`
    WITH recent AS MATERIALIZED (
      SELECT id, name, phone_number, email FROM customers
      WHERE company_id = ${workspaceId}::uuid AND (${cursor}::uuid IS NULL OR id < ${cursor}::uuid)
      ORDER BY id DESC LIMIT ${RECENT_WINDOW})
    SELECT NULL::uuid AS id, (SELECT id FROM recent ORDER BY id LIMIT 1) AS boundary, (SELECT count(*)::int FROM recent) AS scanned
    UNION ALL
    (SELECT id, NULL, NULL FROM recent
     WHERE name ILIKE ${pattern} OR phone_number ILIKE ${pattern} OR email ILIKE ${pattern}
     ORDER BY id DESC LIMIT ${take})`;
  const summary = rows.find((row) => row.id === null);
  const ids = rows.flatMap((row) => (row.id === null ? [] : [row.id])).sort((a, b) => (a < b ? 1 : -1));
  if (ids.length >= take || !summary?.boundary || (summary.scanned ?? 0) < RECENT_WINDOW) return ids;
  const older = await (Array.from(term).length < SHORTEST_TRIGRAM_TERM
    ? db.$queryRaw<{ id: string }[]>`
        WITH candidates AS MATERIALIZED (
          SELECT id, name, phone_number, email FROM customers
          WHERE search_grams @> ARRAY[lower(${term})] AND company_id = ${workspaceId}::uuid AND id < ${summary.boundary}::uuid)
        SELECT id FROM candidates
        WHERE name ILIKE ${pattern} OR phone_number ILIKE ${pattern} OR email ILIKE ${pattern}
        ORDER BY id DESC LIMIT ${take - ids.length}`
    : db.$queryRaw<{ id: string }[]>`
        WITH candidates AS MATERIALIZED (
          SELECT id FROM customers
          WHERE (name ILIKE ${pattern} OR phone_number ILIKE ${pattern} OR email ILIKE ${pattern})
            AND company_id = ${workspaceId}::uuid AND id < ${summary.boundary}::uuid)
        SELECT id FROM candidates ORDER BY id DESC LIMIT ${take - ids.length}`);
  return [...ids, ...older.map((row) => row.id)];
}

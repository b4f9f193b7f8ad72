// Which workspaces hold most of a searched table's rows, read from PostgreSQL's own statistics of the table (pg_stats:
// the most common values of company_id and their shares, which ANALYZE keeps, autovacuum on a server). A search's
// lookups (substringSearch.ts, candidateRows) ask the GIN indexes, which lead with the workspace (migration 0045), for
// such a workspace's rows by the term alone and keep the workspace's rows after: asked for the workspace too, a lookup
// read the workspace's whole entry in the index whatever the term (300 index pages, 3–6 ms, at a million contacts;
// 600 pages and 10 ms among five million messages), where the term's own lists take a few pages. A workspace that
// holds at least half the table meets at most as many rows of other workspaces holding the term as of its own.
// Shares change slowly: they are read again, for each SQL connection they are read through, once SHARES_KEPT_MS old.
import type { SqlConnection } from '../../infra/db/sql.js';

/** The workspace searched, and the searched tables of which it holds most rows. */
export type SearchedWorkspace = { id: string; holdsMostOf: ReadonlySet<string> };

/** The tables whose lookups (substringSearch.ts) lead with the workspace. */
const SEARCHED_TABLES = ['customers', 'messages'];
/** At least this share of a table's rows. */
const MOST = 0.5;
const SHARES_KEPT_MS = 60_000;

type Shares = { readAt: number; largest: Promise<Map<string, Set<string>>> };
const sharesOf = new WeakMap<SqlConnection, Shares>();

/** For each searched table, the workspaces that hold at least half its rows (none before the table is analyzed). */
async function largestWorkspaces(sql: SqlConnection): Promise<Map<string, Set<string>>> {
  const rows = await sql.query<{ tablename: string; workspace_id: string }>(
    `SELECT tablename, common.workspace_id::text AS workspace_id
     FROM pg_stats, unnest(most_common_vals::text::uuid[], most_common_freqs) AS common(workspace_id, share)
     WHERE schemaname = current_schema() AND attname = 'company_id' AND tablename = ANY($1::text[]) AND common.share >= $2`,
    [SEARCHED_TABLES, MOST],
  );
  const largest = new Map<string, Set<string>>();
  for (const row of rows) largest.set(row.tablename, (largest.get(row.tablename) ?? new Set()).add(row.workspace_id));
  return largest;
}

export async function searchedWorkspace(sql: SqlConnection, workspaceId: string): Promise<SearchedWorkspace> {
  let shares = sharesOf.get(sql);
  if (!shares || Date.now() - shares.readAt > SHARES_KEPT_MS) {
    const read: Shares = { readAt: Date.now(), largest: largestWorkspaces(sql) };
    // A failed read (the database unreachable) fails this search alone; the next one reads again.
    read.largest.catch(() => sharesOf.get(sql) === read && sharesOf.delete(sql));
    sharesOf.set(sql, read);
    shares = read;
  }
  const largest = await shares.largest;
  return { id: workspaceId, holdsMostOf: new Set(SEARCHED_TABLES.filter((table) => largest.get(table)?.has(workspaceId))) };
}

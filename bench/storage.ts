// What the seeded data set costs on disk, read from PostgreSQL's catalog: the database's size, and each table's
// (with its TOAST) and each of its indexes', largest first. Every workspace of the bench database counts: the tables
// are shared, as in production.
import type pg from 'pg';

export type StorageResult = {
  database_mb: number;
  tables: { table: string; rows: number; table_mb: number; indexes: { index: string; mb: number }[] }[];
};

const MEASURED_TABLES = ['customers', 'conversations', 'messages', 'events'];
const mb = (bytes: string | number) => Math.round(Number(bytes) / 2 ** 20);

export async function measureStorage(pool: pg.Pool): Promise<StorageResult> {
  const database = await pool.query<{ bytes: string }>('SELECT pg_database_size(current_database())::text AS bytes');
  const tables = await pool.query<{ table: string; rows: string; bytes: string }>(
    `SELECT relname AS table, greatest(reltuples, 0)::bigint::text AS rows, pg_table_size(oid)::text AS bytes
     FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r' ORDER BY pg_table_size(oid) DESC`,
    [MEASURED_TABLES],
  );
  const indexes = await pool.query<{ table: string; index: string; bytes: string }>(
    `SELECT tables.relname AS table, indexes.relname AS index, pg_relation_size(indexes.oid)::text AS bytes
     FROM pg_index entry JOIN pg_class indexes ON indexes.oid = entry.indexrelid JOIN pg_class tables ON tables.oid = entry.indrelid
     WHERE tables.relname = ANY($1::text[]) ORDER BY pg_relation_size(indexes.oid) DESC`,
    [MEASURED_TABLES],
  );
  return {
    database_mb: mb(database.rows[0]!.bytes),
    tables: tables.rows.map((table) => ({
      table: table.table,
      rows: Number(table.rows),
      table_mb: mb(table.bytes),
      indexes: indexes.rows.filter((index) => index.table === table.table).map((index) => ({ index: index.index, mb: mb(index.bytes) })),
    })),
  };
}

/** The sizes as Markdown lines: one row per table, then one per index. */
export function storageLines(storage: StorageResult): string[] {
  return [
    `Database: ${storage.database_mb} MB.`,
    '',
    '| table | rows (estimate) | table MB | index | index MB |',
    '|---|---|---|---|---|',
    ...storage.tables.flatMap((table) => [
      `| ${table.table} | ${table.rows} | ${table.table_mb} | | |`,
      ...table.indexes.map((index) => `| | | | ${index.index} | ${index.mb} |`),
    ]),
  ];
}

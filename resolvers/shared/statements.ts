// Written statements (Prisma.sql templates, their values bound as parameters) run on the database's SQL connection:
// the reads whose rows are already what the API answers, without Prisma's per-row work (docs/performance.md).
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import type { SqlConnection } from '../../infra/db/sql.js';

/** The rows of a written statement, as the driver reads them. */
export function statementRows<Row extends Record<string, unknown>>(sql: SqlConnection, statement: Prisma.Sql): Promise<Row[]> {
  return sql.query<Row>(statement.text, statement.values);
}

// A minimal SQL connection used outside Prisma: by the migrator (multi-statement scripts), by the read statements
// that must not pay Prisma's per-row work (resolvers/shared/statements.ts), and by tests that inspect the catalog.
// One interface over a PostgreSQL server (pg) and the embedded PGlite; rows come as each driver types them.
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { StatementNamer } from './preparedStatements.js';

/** `unbounded`: the client waits for the answer however long it takes (a migration building an index over a large
 * table), where it otherwise gives up a little after the server's statement time-out; the script lifts the server's
 * own limit itself if it needs to. */
export type ExecOptions = { unbounded?: boolean };

/** pg's longest read time-out (a timer's most, 24.8 days): 0 would mean the pool's. */
const UNBOUNDED_READ_MS = 2 ** 31 - 1;

export interface SqlConnection {
  /** Runs a script of one or more statements without parameters. */
  exec(script: string, options?: ExecOptions): Promise<void>;
  query<Row extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  /** Runs `work` on one server session, for session state such as advisory locks. */
  session<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T>;
}

export function fromPGlite(db: PGlite): SqlConnection {
  const connection: SqlConnection = {
    async exec(script) {
      await db.exec(script);
    },
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      return (await db.query<Row>(text, params)).rows;
    },
    session: (work) => work(connection),
  };
  return connection;
}

type PgQueryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

function fromPgQueryable(target: PgQueryable, session: SqlConnection['session'], nameOf?: StatementNamer): SqlConnection {
  return {
    async exec(script, options) {
      // pg reads a query's own query_timeout, which its QueryConfig type leaves out.
      await target.query(options?.unbounded ? ({ text: script, query_timeout: UNBOUNDED_READ_MS } as pg.QueryConfig) : script);
    },
    async query<Row extends Record<string, unknown>>(text: string, values: unknown[] = []) {
      return (await target.query<Row>({ name: nameOf?.({ sql: text }), text, values })).rows;
    },
    session,
  };
}

/** A connection whose answer never came (pg's query_timeout) or that was cut: never handed out again. */
const BROKEN_CONNECTION = /Query read timeout|Connection terminated/;

/** `nameOf`: the namer of the database's Prisma client too, so that a name means one statement on a connection. */
export function fromPgPool(pool: pg.Pool, nameOf?: StatementNamer): SqlConnection {
  return fromPgQueryable(
    pool,
    async (work) => {
      const client = await pool.connect();
      // A connection lost mid-session fails the query in flight; without a listener it would also crash the process.
      const ignore = () => {};
      client.on('error', ignore);
      let failure: Error | undefined;
      try {
        const connection: SqlConnection = fromPgQueryable(client, (inner) => inner(connection), nameOf);
        return await work(connection);
      } catch (error) {
        if (error instanceof Error && BROKEN_CONNECTION.test(error.message)) failure = error;
        throw error;
      } finally {
        client.off('error', ignore);
        // A session that failed may hold a dead or half-read connection (a query that timed out): not reused.
        client.release(failure);
      }
    },
    nameOf,
  );
}

// A minimal SQL connection used outside Prisma: by the migrator (multi-statement scripts) and by tests
// that inspect the catalog. One interface over a PostgreSQL server (pg) and the embedded PGlite.
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

export interface SqlConnection {
  /** Runs a script of one or more statements without parameters. */
  exec(script: string): Promise<void>;
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

function fromPgQueryable(target: PgQueryable, session: SqlConnection['session']): SqlConnection {
  return {
    async exec(script) {
      await target.query(script);
    },
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      return (await target.query<Row>(text, params)).rows;
    },
    session,
  };
}

export function fromPgPool(pool: pg.Pool): SqlConnection {
  return fromPgQueryable(pool, async (work) => {
    const client = await pool.connect();
    // A connection lost mid-session fails the query in flight; without a listener it would also crash the process.
    const ignore = () => {};
    client.on('error', ignore);
    try {
      const connection: SqlConnection = fromPgQueryable(client, (inner) => inner(connection));
      return await work(connection);
    } finally {
      client.off('error', ignore);
      client.release();
    }
  });
}

// Opens the database: the PostgreSQL server named by DATABASE_URL, or else the embedded PGlite under
// DATA_DIR. Both speak the same SQL, run the same migrations and back the same Prisma client.
// The embedded database is opened by one process only, its owner (infra/db/ownership.ts), which serves it to the
// others on a Unix socket in DATA_DIR (infra/db/pgliteWire.ts); a process that finds a live owner either works
// through it with the ordinary PostgreSQL driver or, when it may not share (a second server), is refused.
import { Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { EMBEDDED_SHARED_BUFFERS } from '../config/settings.js';
import { fromPGlite, fromPgPool, type SqlConnection } from './sql.js';
import { pgliteNotifications, poolListen, type Listen } from './notifications.js';
import { claimOwnership, describeOwner, EmbeddedDatabaseInUse, type LiveOwner, type Ownership } from './ownership.js';
import { serveWireConnection, type WireConnection } from './pgliteWire.js';
import { statementNamer } from './preparedStatements.js';
import { migrate } from './migrate.js';
import { projectPath } from '../paths.js';

export type Database = {
  prisma: PrismaClient;
  sql: SqlConnection;
  /** The same database for search statements: on a PostgreSQL server with named statements, sessions of their own
   * that plan each statement once for any term (searchSessions); otherwise `sql`. */
  searchSql: SqlConnection;
  kind: 'postgres' | 'pglite';
  /** LISTEN on a channel: NOTIFY of committed changes, from this process or (on PostgreSQL) any other. */
  listen: Listen;
  /** The embedded database's socket: this process's when it owns the database, else the owner's it works through. */
  socketPath?: string;
  /** Set when this process works through the process that owns the embedded database. */
  owner?: { description: string; /** True once the connection to it was lost (it stopped). */ lost(): boolean };
  /** Lets other processes work through this one on the embedded database it owns (call it once migrated). */
  serveOthers(): void;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** A postgres:// URL; when absent the embedded database is used. */
  url?: string;
  /** DATA_DIR: the embedded database keeps its files in its pglite/ folder. Absent, the database lives in memory. */
  dataDir?: string;
  /** Who opens DATA_DIR, as another process is told (e.g. "the server"); and whether this process may work through
   * a live owner (the CLI) or must own the database itself (a server, which is then refused). */
  claim?: { role: string; throughOwner: boolean };
  poolSize?: number;
  /** The embedded database's shared_buffers (PostgreSQL's size syntax); EMBEDDED_DB_SHARED_BUFFERS. */
  sharedBuffers?: string;
  /** On a PostgreSQL server: whether frequent statements run as named prepared statements
   * (infra/db/preparedStatements.ts); default true. */
  preparedStatements?: boolean;
  /** Told of failures while serving other processes. */
  onServeError?: (error: unknown) => void;
  /** The embedded database in memory starts as this copy of one (embeddedSnapshot) instead of a new one. */
  snapshot?: Blob;
  /** How long an interactive transaction may wait to begin and then run; on a PostgreSQL server also how long a
   * statement may run (statement_timeout) and how long the client waits for its answer before it drops the
   * connection (a silent network drop). REQUEST_TIMEOUT_MS by default. */
  statementTimeoutMs?: number;
};

/** Dead connections are found by TCP keep-alive when idle and by the answer's time-out in use; waiting for a
 * connection (a free one, or a new one opened) is bounded by the statement time-out too, so a request during an
 * outage gets its 503 rather than waiting past its deadline. */
const KEEP_ALIVE_DELAY_MS = 10_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/** No JIT compilation: the service's statements are short, and a search statement whose never-run steps are
 * estimated dear crossed jit_above_cost at a million contacts, spending 100 ms compiling what runs in 5. */
const SESSION_SETTINGS = '-c jit=off';

/**
 * The sessions that search statements run on (substringSearch.ts): each named statement is planned once, for any term
 * (plan_cache_mode = force_generic_plan), where PostgreSQL would plan it anew at every run (a custom plan: 0.6–2 ms
 * of a 1.5–4 ms search at ten thousand contacts, measured as the service names them). A search statement's steps are
 * fixed by its shape (windows read in the workspace's index order, lookups fenced from each other and from the
 * windows), so one plan serves every term (test/contacts/searchSteps.test.ts asserts its steps). Only search statements
 * run here: for the others a parameter's value may choose the plan. Half as many as the pool's other sessions, at
 * least one.
 */
function searchSessions(connection: pg.PoolConfig, poolSize: number): pg.Pool {
  const pool = new pg.Pool({
    ...connection,
    max: Math.max(1, Math.ceil(poolSize / 2)),
    options: `${SESSION_SETTINGS} -c plan_cache_mode=force_generic_plan`,
  });
  // An idle session's failure (the server restarted) only drops it from the pool; without a listener it would crash.
  pool.on('error', () => {});
  return pool;
}

/**
 * The Prisma client's options. An interactive transaction may wait for its connection, and then run, as long as a
 * statement may: Prisma's own defaults (2 s to begin, 5 s to run) failed requests on a busy machine long before their
 * response deadline. Errors are `minimal`: any other format captures a stack trace at every query, to point its
 * message at the caller's line (a tenth of a send's time in Prisma), and no Prisma message reaches a client.
 */
function clientOptions(statementTimeoutMs: number) {
  return { errorFormat: 'minimal' as const, transactionOptions: { maxWait: statementTimeoutMs, timeout: statementTimeoutMs } };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  if (options.url) {
    const poolSize = options.poolSize ?? 10;
    const prepared = options.preparedStatements ?? true;
    const connection = {
      connectionString: options.url,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEP_ALIVE_DELAY_MS,
      connectionTimeoutMillis: statementTimeoutMs,
      statement_timeout: statementTimeoutMs,
      // A little longer than the server's own limit: past it no answer is coming (the network dropped it).
      query_timeout: statementTimeoutMs + 1_000,
    };
    const pool = new pg.Pool({ ...connection, max: poolSize, options: SESSION_SETTINGS });
    const searchPool = prepared ? searchSessions(connection, poolSize) : undefined;
    return openPool(pool, { kind: 'postgres', statementTimeoutMs, prepared, searchPool });
  }
  if (!options.dataDir) {
    return openPGlite(await createPGlite('memory://', options.sharedBuffers, options.snapshot), statementTimeoutMs);
  }
  const claim = options.claim ?? { role: `a process (pid ${process.pid})`, throughOwner: true };
  const found = await claimOwnership(options.dataDir, claim.role);
  if (!found.owned) {
    if (!claim.throughOwner) throw new EmbeddedDatabaseInUse(options.dataDir, found);
    return openThroughOwner(found, statementTimeoutMs);
  }
  let pglite: PGlite;
  try {
    const dir = embeddedDatabaseDir(options.dataDir);
    pglite = await createPGlite(dir, options.sharedBuffers, await newDatabaseTemplate(dir));
  } catch (error) {
    await found.release();
    throw error;
  }
  return openPGlite(pglite, statementTimeoutMs, found, options.onServeError);
}

function embeddedDatabaseDir(dataDir: string): string {
  return join(dataDir, 'pglite');
}

/** Where `npm run build` writes embeddedSnapshot() (app/embeddedTemplate.ts) for a new DATA_DIR to start from. */
export const EMBEDDED_TEMPLATE = projectPath('dist/embedded-database.tar');

/** The build's template for a folder that holds no database yet; none when the folder holds one or there is no build. */
async function newDatabaseTemplate(dir: string): Promise<Blob | undefined> {
  if (existsSync(join(dir, 'PG_VERSION'))) return undefined;
  const template = await readFile(EMBEDDED_TEMPLATE).catch(() => null);
  return template ? new Blob([template]) : undefined;
}

function createPGlite(dir: string, sharedBuffers = EMBEDDED_SHARED_BUFFERS, snapshot?: Blob): Promise<PGlite> {
  return PGlite.create(dir, {
    extensions: { pg_trgm, btree_gist, btree_gin, unaccent },
    ...(snapshot ? { loadDataDir: snapshot } : {}),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
  });
}

/**
 * A new embedded database, migrated, as PGlite dumps one: written at build time (EMBEDDED_TEMPLATE), and each test
 * file's database starts from a copy (openDatabase's `snapshot`). A copy loads in about a third of the time a new
 * database takes to initialise (PGlite's initdb: 5.7 s against 1.8 s on a slow machine).
 */
export async function embeddedSnapshot(): Promise<Blob> {
  const pglite = await createPGlite('memory://');
  try {
    await migrate(fromPGlite(pglite));
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
}

type PoolUse = { kind: Database['kind']; statementTimeoutMs: number; prepared: boolean; socketPath?: string; searchPool?: pg.Pool };

function openPool(pool: pg.Pool, { kind, statementTimeoutMs, prepared, socketPath, searchPool }: PoolUse): Database {
  const nameOf = prepared ? statementNamer() : undefined;
  const sql = fromPgPool(pool, nameOf);
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool, nameOf ? { statementNameGenerator: nameOf } : {}),
    ...clientOptions(statementTimeoutMs),
  });
  const notifications = poolListen(pool);
  return {
    prisma,
    sql,
    searchSql: searchPool ? fromPgPool(searchPool, statementNamer()) : sql,
    listen: notifications.listen,
    kind,
    socketPath,
    serveOthers() {},
    async close() {
      notifications.close();
      await prisma.$disconnect();
      await Promise.all([pool.end(), searchPool?.end()]);
    },
  };
}

/** The embedded database through the process that owns it: one connection, as PGlite is one session, kept for the
 * process's life, so that its end means the owner stopped. */
function openThroughOwner(owner: LiveOwner, statementTimeoutMs: number): Database {
  let closing = false;
  let lost = false;
  const pool = new pg.Pool({
    host: owner.host,
    port: owner.port,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    idleTimeoutMillis: 0,
    // Marked before the driver sees the failure, so the error a caller catches can already be told apart. A socket
    // that never connected (a socket of another user) is not an owner that stopped.
    stream: () => {
      const socket = new Socket();
      socket.once('connect', () => {
        for (const event of ['error', 'end', 'close']) socket.once(event, () => (lost ||= !closing));
      });
      return socket;
    },
  });
  // An owner that stops also ends the idle connection; the next query reports it, so this must not crash first.
  pool.on('error', () => {});
  // PGlite is one session that its clients take turns on: a statement one client named would still be there, under
  // the same name, for the next client, so statements run unnamed.
  const db = openPool(pool, { kind: 'pglite', statementTimeoutMs, prepared: false, socketPath: owner.socketPath });
  return {
    ...db,
    owner: { description: describeOwner(owner), lost: () => lost },
    async close() {
      closing = true;
      await db.close();
    },
  };
}

function openPGlite(
  pglite: PGlite,
  statementTimeoutMs: number,
  ownership?: Ownership,
  onServeError: (error: unknown) => void = () => {},
): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), ...clientOptions(statementTimeoutMs) });
  const connections = new Set<WireConnection>();
  const notifications = pgliteNotifications(pglite);
  let closing = false;
  const sql = fromPGlite(pglite);
  return {
    prisma,
    sql,
    // One session, whose statements are unnamed: each is planned at its run whatever the session's settings.
    searchSql: sql,
    listen: notifications.listen,
    kind: 'pglite',
    socketPath: ownership?.socketPath,
    serveOthers() {
      ownership?.accept((socket) => {
        if (closing) return socket.destroy();
        const connection = serveWireConnection(pglite, socket, notifications, onServeError);
        connections.add(connection);
        void connection.closed.then(() => connections.delete(connection));
      });
    },
    async close() {
      closing = true;
      // Clients' open transactions are rolled back before the database closes; only then may another process own it.
      for (const connection of connections) connection.destroy();
      await Promise.all([...connections].map((connection) => connection.closed));
      await prisma.$disconnect();
      await pglite.close();
      await ownership?.release();
    },
  };
}

// Seeds the benchmark data set inside PostgreSQL with generate_series, in chunks, so that millions of
// contacts need no client-side data transfer, and on a server in several sessions at once (one per core): each chunk
// is one transaction that also records itself in bench_seed_chunks, so an interrupted seed resumes with the chunks
// not recorded, whichever order the sessions took them in.
// Contact g (its ordinal) is created at BASE + g seconds, and every id is a UUIDv7 of its row's time, so a chunk
// reads the contacts or conversations it builds on by an id range through the primary key, never by OFFSET (which
// reads every row before it: quadratic over ten million).
// The seed's sessions run with session_replication_role = replica: the triggers that keep derived facts as the
// service writes (migrations 0040 and 0041) and the foreign-key checks do not run for it. It writes those facts
// itself, from what it generates: each conversation's first inbound message and first response, in the row it
// inserts; and it drops the workspace's kept report days, which are then computed from the tables when a report
// first asks. With those triggers, a million contacts took 26 minutes; without them, and with the secondary indexes
// built after the load (deferIndexes), about 11 on the same machine, most of it building the search indexes; the
// builds, too, run in several sessions, the largest first.
import { SingleBar, Presets } from 'cli-progress';
import type { SqlConnection } from '../infra/db/sql.js';

/** Each contact has one conversation of `messagesPerConversation` messages. */
export type SeedPlan = {
  workspaceId: string;
  integrationId: string;
  contacts: number;
  messagesPerConversation: number;
};

const CHUNK = 50_000;
/** The seeded tables, and the same as a SQL list of their relations. */
const TABLES = ['customers', 'conversations', 'messages'];
const RELATIONS = TABLES.map((table) => `'${table}'::regclass`).join(', ');
const FIRST = `ARRAY['Ana','Bruno','Chen','Dara','Elif','Femi','Gita','Hugo','Ines','Jonas','Kemal','Lucia','Mateo','Nadia','Omar','Priya','Quinn','Rosa','Sven','Tomas','Uma','Vera','Wen','Yusuf','Zoe']`;
const LAST = `ARRAY['Silva','Okafor','Nguyen','Schmidt','Garcia','Kowalski','Haddad','Tanaka','Rossi','Ivanova','Mensah','Dubois','Costa','Novak','Ali','Larsen']`;

/** UUIDv7 from a timestamp: ids stay time-ordered like the ones the service generates. */
const UUID7 = `CREATE OR REPLACE FUNCTION pg_temp.uuid7(ts timestamptz) RETURNS uuid AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    PLACING substring(int8send((extract(epoch FROM ts) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$ LANGUAGE sql VOLATILE`;

/** The lowest UUIDv7 of an instant's millisecond: `id >= uuid7_floor(a) AND id < uuid7_floor(b)` selects the rows
 * made from a to b through the primary key. */
const UUID7_FLOOR = `CREATE OR REPLACE FUNCTION pg_temp.uuid7_floor(ts timestamptz) RETURNS uuid AS $$
  SELECT encode(overlay(decode(repeat('00', 16), 'hex')
    PLACING substring(int8send((extract(epoch FROM ts) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 'hex')::uuid
$$ LANGUAGE sql IMMUTABLE`;

/** About how many rows the seeded tables hold, every workspace's (the planner's estimate, without a scan). */
async function rowsHeld(sql: SqlConnection): Promise<number> {
  const [row] = await sql.query<{ n: string }>(
    `SELECT coalesce(sum(greatest(reltuples, 0)), 0)::bigint::text AS n FROM pg_class WHERE oid IN (${RELATIONS})`,
  );
  return Number(row?.n ?? 0);
}

async function count(sql: SqlConnection, table: string, workspaceId: string): Promise<number> {
  const [row] = await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${table}" WHERE company_id = $1`, [workspaceId]);
  return Number(row?.n ?? 0);
}

/** The chunks each seeded workspace has written, by step; a chunk's row commits with its rows. */
const SEED_CHUNKS = `CREATE TABLE IF NOT EXISTS bench_seed_chunks (
  company_id uuid NOT NULL, step text NOT NULL, chunk int NOT NULL, PRIMARY KEY (company_id, step, chunk))`;

/** Runs `work` on each job, in `sessions` server sessions at once, each prepared by `prepare` and given back to the
 * pool with its settings reset (a pooled connection left with session_replication_role = replica would skip the
 * triggers of whatever runs on it next); each job once. */
async function inSessions<Job>(
  connection: SqlConnection,
  sessions: number,
  jobs: Job[],
  prepare: (sql: SqlConnection) => Promise<void>,
  work: (sql: SqlConnection, job: Job) => Promise<void>,
): Promise<void> {
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: Math.min(sessions, queue.length) }, () =>
      connection.session(async (sql) => {
        try {
          await prepare(sql);
          for (let job = queue.shift(); job !== undefined; job = queue.shift()) await work(sql, job);
        } finally {
          await sql.exec('RESET ALL');
        }
      }),
    ),
  );
}

/** A seeding session: the seed's functions, no triggers or foreign-key checks, and no wait for each commit's flush
 * (a chunk lost to a crash is not recorded, so it is written again on resume). */
async function prepareSeedSession(sql: SqlConnection): Promise<void> {
  await sql.exec(UUID7);
  await sql.exec(UUID7_FLOOR);
  await sql.exec('SET session_replication_role = replica');
  await sql.exec('SET synchronous_commit = off');
}

/** Writes the step's chunks of `size` ordinals up to `total` that the workspace has not recorded; `insert` is the
 * chunk's INSERT for ordinals from..to, which reads the rows of the table `reads` (if any) by an id range. That
 * table is analyzed first: with the statistics of its empty start, the planner read each chunk's range through
 * another index, every row of the workspace (12 s a chunk at ten million contacts). */
async function seedStep(
  connection: SqlConnection,
  plan: SeedPlan,
  sessions: number,
  step: { name: string; reads?: string; total: number; size: number; insert: (from: number, to: number) => string },
): Promise<void> {
  const ws = plan.workspaceId;
  const recorded = await connection.query<{ chunk: number }>('SELECT chunk FROM bench_seed_chunks WHERE company_id = $1 AND step = $2', [
    ws,
    step.name,
  ]);
  const done = new Set(recorded.map((row) => row.chunk));
  const chunks = Array.from({ length: Math.ceil(step.total / step.size) }, (_, chunk) => chunk).filter((chunk) => !done.has(chunk));
  if (chunks.length === 0) return;
  if (step.reads) await connection.exec(`ANALYZE ${step.reads}`);
  const bar = new SingleBar(
    { format: `${step.name.padEnd(13)} [{bar}] {percentage}% {value}/{total} | eta {eta}s` },
    Presets.shades_classic,
  );
  bar.start(step.total, done.size * step.size);
  await inSessions(connection, sessions, chunks, prepareSeedSession, async (sql, chunk) => {
    const from = chunk * step.size;
    const to = Math.min(step.total, from + step.size);
    await sql.exec(`BEGIN; ${step.insert(from, to)};
      INSERT INTO bench_seed_chunks VALUES ('${ws}', '${step.name}', ${chunk}); COMMIT`);
    bar.increment(to - from);
  });
  bar.stop();
}

/** Contact g is created at BASE + g seconds. */
const BASE = `timestamptz '2024-01-01T00:00:00Z'`;
/** The rows of contacts (or of their conversations) from ordinal `from` to `to`, by the primary key. */
const ordinals = (from: number, to: number) =>
  `id >= pg_temp.uuid7_floor(${BASE} + ${from} * interval '1 second') AND id < pg_temp.uuid7_floor(${BASE} + ${to} * interval '1 second')`;

/** A load of at least this many rows, and at least as many as the tables already hold (a build reads them all), is
 * written with the tables' secondary indexes dropped, then built in one go. */
const DEFER_INDEXES_FROM = 500_000;
/** Where the definitions of dropped indexes wait until built. */
const DEFERRED_INDEXES = `CREATE TABLE IF NOT EXISTS bench_deferred_indexes (name text PRIMARY KEY, definition text NOT NULL)`;

/**
 * Drops the seeded tables' secondary indexes (not the primary keys, which the chunks read by, nor the unique ones)
 * for a large load, as PostgreSQL's "Populating a Database" advises: a trigram index costs more to keep row by row
 * than to build once. Their definitions wait in bench_deferred_indexes until built, so an interrupted seed still
 * builds them, at the end of the next one.
 */
async function deferIndexes(sql: SqlConnection): Promise<void> {
  await sql.exec(`INSERT INTO bench_deferred_indexes
    SELECT index.relname, pg_get_indexdef(entry.indexrelid) FROM pg_index entry JOIN pg_class index ON index.oid = entry.indexrelid
    WHERE entry.indrelid IN (${RELATIONS}) AND NOT entry.indisunique
    ON CONFLICT DO NOTHING`);
  const deferred = await sql.query<{ name: string }>('SELECT name FROM bench_deferred_indexes');
  for (const { name } of deferred) await sql.exec(`DROP INDEX IF EXISTS "${name}"`);
}

/** Builds the indexes an earlier load dropped, in several sessions, the largest first (a GIN index over a table costs
 * several times a B-tree over it), each with the memory a build of a few gigabytes wants; whether there were any. */
async function buildDeferredIndexes(connection: SqlConnection, sessions: number): Promise<boolean> {
  const deferred = await connection.query<{ name: string; definition: string }>(
    `SELECT name, definition FROM bench_deferred_indexes
     ORDER BY pg_relation_size(substring(definition FROM ' ON (\\S+) USING ')::regclass)
              * CASE WHEN definition LIKE '% USING gin %' THEN 4 ELSE 1 END DESC, name`,
  );
  if (deferred.length === 0) return false;
  await inSessions(
    connection,
    sessions,
    deferred,
    (sql) => sql.exec(`SET maintenance_work_mem = '1GB'`),
    async (sql, { name, definition }) => {
      console.log(`building index ${name}`);
      await sql.exec(definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '));
      await sql.query('DELETE FROM bench_deferred_indexes WHERE name = $1', [name]);
    },
  );
  return true;
}

/** A conversation's first message names an order of its own (R and the contact's ordinal, seven digits): a rare
 * term for message and conversation search, found in one conversation, among the common words of the others. */
const FIRST_MESSAGE = `'Hi, is my order on its way? Order R' || lpad((extract(epoch FROM c.created_at - ${BASE}))::bigint::text, 7, '0')`;

/** Messages are written by conversation: a chunk holds every message of this many conversations. */
const messageChunkConversations = (perConversation: number) => Math.max(1, Math.floor(CHUNK / perConversation));

/**
 * Seeds each planned workspace, in `sessions` server sessions at once (one per core on a server; the embedded
 * database serves one), then builds the indexes that a load dropped and vacuums: once, after every workspace, so that
 * a resumed seed does not build them over a workspace still half loaded.
 */
export async function seedBenchData(connection: SqlConnection, plans: SeedPlan[], sessions = 1): Promise<void> {
  await connection.exec(DEFERRED_INDEXES);
  await connection.exec(SEED_CHUNKS);
  let wrote = false;
  for (const plan of plans) wrote = (await seedWorkspace(connection, plan, sessions)) || wrote;
  const built = await buildDeferredIndexes(connection, sessions);
  // What autovacuum would have done after such a load (and the bench's PostgreSQL may run without it): the
  // visibility map lets index-only scans skip the table, and the statistics describe the data. Workspaces already
  // seeded, their indexes built, write nothing (5 s a table saved at a million contacts); a load interrupted before
  // its vacuum finishes its index builds here, and is vacuumed.
  if (wrote || built) {
    await inSessions(
      connection,
      sessions,
      TABLES,
      async () => {},
      (sql, table) => sql.exec(`VACUUM (ANALYZE) ${table}`),
    );
  }
}

/** Writes what the workspace's plan wants and it lacks; whether it wrote anything. */
async function seedWorkspace(connection: SqlConnection, plan: SeedPlan, sessions: number): Promise<boolean> {
  const ws = plan.workspaceId.replace(/'/g, '');
  const perConversation = plan.messagesPerConversation;
  const written = {
    contacts: await count(connection, 'customers', ws),
    conversations: await count(connection, 'conversations', ws),
    messages: await count(connection, 'messages', ws),
  };
  const wanted = { contacts: plan.contacts, conversations: plan.contacts, messages: plan.contacts * perConversation };
  const complete = (Object.keys(wanted) as (keyof typeof wanted)[]).every((table) => written[table] >= wanted[table]);
  if (complete) return false;
  const [chunks] = await connection.query<{ n: number }>('SELECT count(*)::int AS n FROM bench_seed_chunks WHERE company_id = $1', [ws]);
  if (written.contacts > 0 && chunks?.n === 0) {
    throw new Error(
      `workspace ${ws} was partly seeded by an earlier version of the bench, which kept no chunks: start from a new database`,
    );
  }
  const left = wanted.contacts - written.contacts + wanted.conversations - written.conversations + wanted.messages - written.messages;
  if (left >= DEFER_INDEXES_FROM && left >= (await rowsHeld(connection))) await deferIndexes(connection);

  await seedStep(connection, plan, sessions, {
    name: 'contacts',
    total: plan.contacts,
    size: CHUNK,
    insert: (
      from,
      to,
    ) => `INSERT INTO customers (id, company_id, name, profile_name, phone_number, wa_id, email, metadata, last_message_at, created_at, updated_at)
        SELECT pg_temp.uuid7(t), '${ws}', f || ' ' || l || ' ' || g, f, '+1555' || lpad(g::text, 8, '0'), '1555' || lpad(g::text, 8, '0'),
               CASE WHEN g % 3 = 0 THEN NULL ELSE lower(f || '.' || l || g || '@example.com') END,
               jsonb_build_object('source', (ARRAY['website','whatsapp','import'])[1 + g % 3]),
               CASE WHEN g % 4 = 3 THEN NULL ELSE t + interval '1 hour' END, t, t
        FROM generate_series(${from}, ${to - 1}) AS g,
             LATERAL (SELECT ${BASE} + g * interval '1 second' AS t,
                             (${FIRST})[1 + g % 25] AS f, (${LAST})[1 + (g / 25) % 16] AS l) AS v`,
  });

  // A closed conversation (one in five) closed 1 to 48 hours after it opened: the reports' resolution times. Its
  // messages alternate inbound and outbound a minute apart, so the first inbound is the first message and the
  // first response the second (what the trigger of migration 0040 would have found).
  await seedStep(connection, plan, sessions, {
    name: 'conversations',
    reads: 'customers',
    total: plan.contacts,
    size: CHUNK,
    insert: (
      from,
      to,
    ) => `INSERT INTO conversations (id, company_id, customer_id, integration_id, provider, status, service_enabled, last_message_at, closed_at,
                                   first_inbound_at, first_response_at, created_at, updated_at)
        SELECT pg_temp.uuid7(c.created_at), c.company_id, c.id, '${plan.integrationId}', 'sandbox',
               (ARRAY['active','active','active','pending','closed'])[1 + (n % 5)], n % 2 = 0, c.last_message_at,
               CASE WHEN n % 5 = 4 THEN c.created_at + (1 + n % 48) * interval '1 hour' END,
               ${perConversation > 0 ? 'c.created_at' : 'NULL'}, ${perConversation > 1 ? "c.created_at + interval '1 minute'" : 'NULL'},
               c.created_at, c.created_at
        FROM (SELECT c.*, extract(epoch FROM c.created_at - ${BASE})::bigint AS n FROM customers c
              WHERE c.company_id = '${ws}' AND ${ordinals(from, to)}) AS c`,
  });

  if (perConversation > 0) {
    await seedStep(connection, plan, sessions, {
      name: 'messages',
      reads: 'conversations',
      total: plan.contacts,
      size: messageChunkConversations(perConversation),
      insert: (
        from,
        to,
      ) => `INSERT INTO messages (id, company_id, conversation_id, direction, body, status, provider_message_id, created_at, updated_at)
        SELECT pg_temp.uuid7(c.created_at + k * interval '1 minute'), c.company_id, c.id,
               CASE WHEN k % 2 = 0 THEN 'inbound' ELSE 'outbound' END,
               CASE WHEN k = 0 THEN ${FIRST_MESSAGE} ELSE (ARRAY['','Let me check that for you.','Can I change my address?','Done, anything else?','Thanks!'])[1 + k] END,
               CASE WHEN k % 2 = 0 THEN 'received' ELSE 'read' END, NULL,
               c.created_at + k * interval '1 minute', c.created_at + k * interval '1 minute'
        FROM (SELECT id, company_id, created_at FROM conversations WHERE company_id = '${ws}' AND ${ordinals(from, to)}) AS c,
             generate_series(0, ${perConversation - 1}) AS k`,
    });
  }
  await connection.exec(`DELETE FROM report_days WHERE company_id = '${ws}'`);
  return true;
}

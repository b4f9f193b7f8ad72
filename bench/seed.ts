// Seeds the benchmark data set inside PostgreSQL with generate_series, in chunks, so that a million
// contacts need no client-side data transfer and an interrupted seed resumes where it stopped (each
// chunk is one transaction; progress is the row count already present for the workspace).
import { SingleBar, Presets } from 'cli-progress';
import type { SqlConnection } from '../infra/db/sql.js';

export type SeedPlan = {
  workspaceId: string;
  integrationId: string;
  contacts: number;
  conversations: number;
  messagesPerConversation: number;
};

const CHUNK = 50_000;
const FIRST = `ARRAY['Ana','Bruno','Chen','Dara','Elif','Femi','Gita','Hugo','Ines','Jonas','Kemal','Lucia','Mateo','Nadia','Omar','Priya','Quinn','Rosa','Sven','Tomas','Uma','Vera','Wen','Yusuf','Zoe']`;
const LAST = `ARRAY['Silva','Okafor','Nguyen','Schmidt','Garcia','Kowalski','Haddad','Tanaka','Rossi','Ivanova','Mensah','Dubois','Costa','Novak','Ali','Larsen']`;

/** UUIDv7 from a timestamp: ids stay time-ordered like the ones the service generates. */
const UUID7 = `CREATE OR REPLACE FUNCTION pg_temp.uuid7(ts timestamptz) RETURNS uuid AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    PLACING substring(int8send((extract(epoch FROM ts) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$ LANGUAGE sql VOLATILE`;

async function count(sql: SqlConnection, table: string, workspaceId: string): Promise<number> {
  const [row] = await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${table}" WHERE company_id = $1`, [workspaceId]);
  return Number(row?.n ?? 0);
}

async function inChunks(label: string, total: number, done: number, insert: (from: number, to: number) => Promise<void>) {
  if (done >= total) return;
  const bar = new SingleBar({ format: `${label.padEnd(13)} [{bar}] {percentage}% {value}/{total} | eta {eta}s` }, Presets.shades_classic);
  bar.start(total, done);
  for (let from = done; from < total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK);
    await insert(from, to);
    bar.update(to);
  }
  bar.stop();
}

/** Contact g is created at BASE + g seconds. */
const BASE = `timestamptz '2024-01-01T00:00:00Z'`;

/** A conversation's first message names an order of its own (R and the contact's ordinal, seven digits): a rare
 * term for message and conversation search, found in one conversation, among the common words of the others. */
const FIRST_MESSAGE = `'Hi, is my order on its way? Order R' || lpad((extract(epoch FROM c.created_at - ${BASE}))::bigint::text, 7, '0')`;

export async function seedBenchData(connection: SqlConnection, plan: SeedPlan): Promise<void> {
  await connection.session(async (sql) => {
    await sql.exec(UUID7);
    const ws = plan.workspaceId.replace(/'/g, '');

    await inChunks('contacts', plan.contacts, await count(sql, 'customers', ws), (from, to) =>
      sql.exec(`INSERT INTO customers (id, company_id, name, profile_name, phone_number, wa_id, email, metadata, last_message_at, created_at, updated_at)
        SELECT pg_temp.uuid7(t), '${ws}', f || ' ' || l || ' ' || g, f, '+1555' || lpad(g::text, 8, '0'), '1555' || lpad(g::text, 8, '0'),
               CASE WHEN g % 3 = 0 THEN NULL ELSE lower(f || '.' || l || g || '@example.com') END,
               jsonb_build_object('source', (ARRAY['website','whatsapp','import'])[1 + g % 3]),
               CASE WHEN g % 4 = 3 THEN NULL ELSE t + interval '1 hour' END, t, t
        FROM generate_series(${from}, ${to - 1}) AS g,
             LATERAL (SELECT ${BASE} + g * interval '1 second' AS t,
                             (${FIRST})[1 + g % 25] AS f, (${LAST})[1 + (g / 25) % 16] AS l) AS v`),
    );

    await inChunks('conversations', plan.conversations, await count(sql, 'conversations', ws), async (from, to) => {
      // A closed conversation (one in five) closed 1 to 48 hours after it opened: the reports' resolution times.
      await sql.exec(`INSERT INTO conversations (id, company_id, customer_id, integration_id, provider, status, service_enabled, last_message_at, closed_at, created_at, updated_at)
        SELECT pg_temp.uuid7(c.created_at), c.company_id, c.id, '${plan.integrationId}', 'sandbox',
               (ARRAY['active','active','active','pending','closed'])[1 + (n % 5)], n % 2 = 0, c.last_message_at,
               CASE WHEN n % 5 = 4 THEN c.created_at + (1 + n % 48) * interval '1 hour' END, c.created_at, c.created_at
        FROM (SELECT c.*, row_number() OVER (ORDER BY c.id) - 1 AS n FROM customers c WHERE c.company_id = '${ws}' ORDER BY c.id OFFSET ${from % plan.contacts} LIMIT ${to - from}) AS c`);
    });

    const messages = plan.conversations * plan.messagesPerConversation;
    await inChunks('messages', messages, await count(sql, 'messages', ws), async (from, to) => {
      const first = Math.floor(from / plan.messagesPerConversation);
      const last = Math.ceil(to / plan.messagesPerConversation);
      await sql.exec(`INSERT INTO messages (id, company_id, conversation_id, direction, body, status, provider_message_id, created_at, updated_at)
        SELECT pg_temp.uuid7(c.created_at + k * interval '1 minute'), c.company_id, c.id,
               CASE WHEN k % 2 = 0 THEN 'inbound' ELSE 'outbound' END,
               CASE WHEN k = 0 THEN ${FIRST_MESSAGE} ELSE (ARRAY['','Let me check that for you.','Can I change my address?','Done, anything else?','Thanks!'])[1 + k] END,
               CASE WHEN k % 2 = 0 THEN 'received' ELSE 'read' END, NULL,
               c.created_at + k * interval '1 minute', c.created_at + k * interval '1 minute'
        FROM (SELECT id, company_id, created_at FROM conversations WHERE company_id = '${ws}' ORDER BY id OFFSET ${first} LIMIT ${last - first}) AS c,
             generate_series(0, ${plan.messagesPerConversation - 1}) AS k
        ORDER BY c.id, k OFFSET ${from - first * plan.messagesPerConversation} LIMIT ${to - from}`);
    });
    // What autovacuum would have done after such a load (and the bench's PostgreSQL may run without it): the
    // visibility map lets index-only scans skip the table, and the statistics describe the data.
    for (const table of ['customers', 'conversations', 'messages']) await sql.exec(`VACUUM (ANALYZE) ${table}`);
  });
}

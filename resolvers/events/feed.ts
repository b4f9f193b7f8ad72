// The event feed: the outbox (resolvers/shared/outbox.ts) read back in commit-safe order. Events are ordered by
// (tx_id, id): the recording transaction's id, then the event id. Only events whose transaction id is below the
// oldest transaction still running are read, so every event that can still commit sorts after every event
// already returned: a reader that continues after the last event it saw never misses one and never sees one
// twice, however transactions overlap, on one instance or many. Live updates (hub.ts) read the same way.
// "Still running" means of this database: a snapshot lists the running transactions of every database of the server,
// and one that PostgreSQL's activity view shows in another database can never record an event here (FEED_HORIZON).
// The feed carries the subscribable event types; webhook.test pings, sent to one subscription, are not in it.
import { Prisma, type PrismaClient } from '../../prisma/generated/prisma/client.js';
import { DomainError } from '../shared/errors.js';
import { EVENT_ID_PREFIX } from '../shared/outbox.js';
import type { FeedEvent, FeedPosition } from '../shared/liveEvents.js';

type EventRow = { id: string; body: string; tx_id: string };

// The statements answer tx_id and id as text, under their own names: ORDER BY names them by table, as a bare name
// would order by the answered text ("10" before "9") instead of the columns (and not by their index).

/**
 * Every transaction below this id has ended, but for those of other databases: the oldest running transaction not
 * shown in another database, else the snapshot's xmax (no transaction from it on had ended). pg_snapshot_xmin
 * alone counts every database's transactions, and an index build or a batch job elsewhere on a shared server held back
 * this feed and live updates for as long as it ran. A transaction the view does not place (a prepared one,
 * or one that ended between the snapshot and the view) counts as this database's: the horizon can only be too low.
 * The view gives every role the database and transaction id of every session; its xid is 32 bits, the snapshot's 64.
 */
const FEED_HORIZON = Prisma.sql`(
  SELECT coalesce(
    (SELECT min(running) FROM pg_snapshot_xip(snapshot) AS running
     WHERE NOT EXISTS (
       SELECT FROM pg_stat_activity elsewhere
       WHERE elsewhere.backend_xid = (running::text::bigint % 4294967296)::text::xid
         AND elsewhere.datname IS DISTINCT FROM current_database())),
    pg_snapshot_xmax(snapshot))::text::bigint
  FROM pg_current_snapshot() AS snapshot)`;

function feedEvent(row: EventRow): FeedEvent {
  return { envelope: JSON.parse(row.body) as FeedEvent['envelope'], position: { txId: BigInt(row.tx_id), id: row.id } };
}

export function isAfter(position: FeedPosition, than: FeedPosition | null): boolean {
  if (!than) return true;
  return position.txId > than.txId || (position.txId === than.txId && position.id > than.id);
}

/** Up to `take` committed events of the workspace after `after` (from the start when null), oldest first. */
export async function readEvents(
  prisma: PrismaClient,
  workspaceId: string,
  after: FeedPosition | null,
  take: number,
  types: readonly string[] | null = null,
): Promise<FeedEvent[]> {
  // Each optional condition is in the statement only when given: a statement's plan may be kept and reused
  // (infra/db/preparedStatements.ts), and a plan made for "$1 IS NULL OR …" could not bound the index range.
  const rows = await prisma.$queryRaw<EventRow[]>`
    SELECT id::text AS id, body, tx_id::text AS tx_id FROM events
    WHERE company_id = ${workspaceId}::uuid
      AND tx_id < ${FEED_HORIZON}
      ${after ? Prisma.sql`AND (tx_id, id) > (${after.txId}::bigint, ${after.id}::uuid)` : Prisma.empty}
      ${types ? Prisma.sql`AND type = ANY(${types}::text[])` : Prisma.empty}
    ORDER BY events.tx_id, events.id
    LIMIT ${take}`;
  return rows.map(feedEvent);
}

/** The position of the workspace's last committed event; null when it has none. */
export async function feedHead(prisma: PrismaClient, workspaceId: string): Promise<FeedPosition | null> {
  const [row] = await prisma.$queryRaw<EventRow[]>`
    SELECT id::text AS id, '' AS body, tx_id::text AS tx_id FROM events
    WHERE company_id = ${workspaceId}::uuid AND tx_id < ${FEED_HORIZON}
    ORDER BY events.tx_id DESC, events.id DESC LIMIT 1`;
  return row ? { txId: BigInt(row.tx_id), id: row.id } : null;
}

const EVENT_ID = new RegExp(`^${EVENT_ID_PREFIX}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`);

/** The position of an event of the workspace named by its id (`evt_…`), or a VALIDATION_ERROR on `field`. */
export async function positionOf(prisma: PrismaClient, workspaceId: string, eventId: string, field: string): Promise<FeedPosition> {
  const uuid = EVENT_ID.exec(eventId)?.[1];
  const row = uuid
    ? await prisma.event.findFirst({ where: { id: uuid, company_id: workspaceId }, select: { id: true, tx_id: true } })
    : null;
  if (!row) {
    throw new DomainError('VALIDATION_ERROR', `Invalid ${field}`, {
      [field]: 'must be the id of an event of this workspace that is still kept (events are kept EVENT_RETENTION_DAYS days)',
    });
  }
  return { txId: row.tx_id, id: row.id };
}

/** Deletes events recorded before `before`, at most `batch` of them; returns how many. */
export async function pruneEvents(prisma: PrismaClient, before: Date, batch: number): Promise<number> {
  return prisma.$executeRaw`
    DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created_at < ${before}::timestamptz ORDER BY created_at LIMIT ${batch})`;
}

// The webhook delivery queue, on the service's own PostgreSQL tables (the same SQL runs on the embedded
// PGlite). Three steps, each safe with any number of workers in any number of processes:
//  1. fan-out: events not yet dispatched become one delivery per matching active subscription, and are
//     marked dispatched, in one transaction (FOR UPDATE SKIP LOCKED, so workers never fan out one event twice);
//     events that no active subscription named when they were recorded are recorded dispatched (outboxFlags);
//  2. claim: due deliveries are leased in one statement — attempt_count + 1 and next_attempt_at = now + lease —
//     so a crashed worker's claims become due again when their lease ends (a visibility time-out); those of
//     inactive subscriptions are set aside as `held` until the subscription is re-enabled;
//  3. record: attempt results, batched, are written only where the claim is still the worker's (attempt_count
//     fences it), with each subscription's failure tracking and the automatic disable rule, in one statement.
// Besides, the number of due deliveries, counted for the webhook_queue_depth metric.
// Times come from the database clock so that instances with skewed clocks agree.
import { v7 as uuidv7 } from 'uuid';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { AttemptResult } from './sender.js';

export type ClaimedDelivery = {
  id: string;
  subscription_id: string;
  attempt_count: number;
  max_attempts: number;
  /** The event envelope, exactly as recorded. */
  body: string;
  url: string;
  sealed_secret: string;
};

/** Creates the deliveries of up to `batchSize` undispatched events; returns how many events it dispatched. */
export async function fanOutEvents(prisma: PrismaClient, options: { batchSize: number; maxAttempts: number }): Promise<number> {
  return prisma.$transaction(
    async (tx) => {
      const events = await tx.$queryRaw<{ id: string; company_id: string; type: string }[]>`
        UPDATE events SET dispatched_at = now()
        WHERE id IN (
          SELECT id FROM events WHERE dispatched_at IS NULL ORDER BY id LIMIT ${options.batchSize}::int FOR UPDATE SKIP LOCKED
        )
        RETURNING id, company_id, type`;
      if (events.length === 0) return 0;
      const subscriptions = await tx.webhookSubscription.findMany({
        where: { company_id: { in: [...new Set(events.map((event) => event.company_id))] }, active: true },
        select: { id: true, company_id: true, events: true },
      });
      const deliveries = events.flatMap((event) =>
        subscriptions
          .filter((subscription) => subscription.company_id === event.company_id && subscription.events.includes(event.type))
          .map((subscription) => ({ id: uuidv7(), event, subscription_id: subscription.id })),
      );
      if (deliveries.length === 0) return events.length;
      const column = <Value>(pick: (delivery: (typeof deliveries)[number]) => Value) => deliveries.map(pick);
      await tx.$executeRaw`
        INSERT INTO webhook_deliveries (id, company_id, subscription_id, event_id, event_type, max_attempts, updated_at)
        SELECT id, company_id, subscription_id, event_id, event_type, ${options.maxAttempts}::int, now()
        FROM unnest(
          ${column((delivery) => delivery.id)}::uuid[],
          ${column((delivery) => delivery.event.company_id)}::uuid[],
          ${column((delivery) => delivery.subscription_id)}::uuid[],
          ${column((delivery) => delivery.event.id)}::uuid[],
          ${column((delivery) => delivery.event.type)}::text[]
        ) AS fanned (id, company_id, subscription_id, event_id, event_type)
        ON CONFLICT (subscription_id, event_id) DO NOTHING`;
      return events.length;
    },
    { timeout: 60_000, maxWait: 60_000 },
  );
}

/** A larger backlog is reported as this many: the count stays a short index scan however far behind workers are. */
const DUE_COUNT_CAP = 100_000;

/**
 * How many deliveries are due and waiting for a worker (pending, next attempt reached, not claimed: a claim
 * moves next_attempt_at to the end of its lease), up to DUE_COUNT_CAP. Retries scheduled for later and held
 * deliveries are not waiting. One range scan of the (status, next_attempt_at) index.
 */
export async function countDueDeliveries(prisma: PrismaClient): Promise<number> {
  const [row] = await prisma.$queryRaw<{ due: number }[]>`
    SELECT count(*)::int AS due FROM (
      SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now() LIMIT ${DUE_COUNT_CAP}::int
    ) waiting`;
  return row?.due ?? 0;
}

export type ClaimOptions = {
  limit: number;
  leaseMs: number;
  /** Most attempts in flight per subscription for this worker, so one slow receiver cannot take every slot. */
  perSubscription: number;
  /** This worker's attempts in flight, by subscription id. */
  inFlight: ReadonlyMap<string, number>;
};

/**
 * Leases up to `limit` due deliveries, oldest due first, at most `perSubscription` in flight per
 * subscription. Subscriptions already at their limit are skipped in the scan itself, so a backlog for a
 * hanging receiver does not hide the deliveries behind it. A due delivery whose subscription is inactive is
 * set aside as `held` instead (and not returned); re-enabling the subscription makes it pending again.
 */
export async function claimDeliveries(prisma: PrismaClient, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  if (options.limit <= 0) return [];
  const saturated = [...options.inFlight].filter(([, count]) => count >= options.perSubscription).map(([id]) => id);
  const room = JSON.stringify(Object.fromEntries([...options.inFlight].map(([id, count]) => [id, options.perSubscription - count])));
  const scan = Math.max(options.limit * 4, 100);
  const claimed = await prisma.$queryRaw<(ClaimedDelivery & { active: boolean })[]>`
    WITH candidates AS MATERIALIZED (
      SELECT id, subscription_id, next_attempt_at
      FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= now()
        AND NOT (subscription_id = ANY(${saturated}::uuid[]))
      ORDER BY next_attempt_at
      LIMIT ${scan}::int
      FOR UPDATE SKIP LOCKED
    ), chosen AS (
      SELECT id FROM (
        SELECT id, next_attempt_at,
               row_number() OVER (PARTITION BY subscription_id ORDER BY next_attempt_at) AS position,
               COALESCE((${room}::jsonb ->> subscription_id::text)::int, ${options.perSubscription}::int) AS room
        FROM candidates
      ) ranked
      WHERE position <= room
      ORDER BY next_attempt_at
      LIMIT ${options.limit}::int
    )
    UPDATE webhook_deliveries d
    SET attempt_count = d.attempt_count + CASE WHEN s.active THEN 1 ELSE 0 END,
        status = CASE WHEN s.active THEN 'pending' ELSE 'held' END,
        next_attempt_at = CASE WHEN s.active THEN now() + ${options.leaseMs}::float8 * interval '1 millisecond' ELSE d.next_attempt_at END,
        updated_at = now()
    FROM chosen, events e, webhook_subscriptions s
    WHERE d.id = chosen.id AND e.id = d.event_id AND s.id = d.subscription_id
    RETURNING d.id, d.subscription_id, d.attempt_count, d.max_attempts, e.body, s.url, s.secret AS sealed_secret, s.active`;
  return claimed.filter((delivery) => delivery.active).map(({ active: _active, ...delivery }) => delivery);
}

export type AttemptVerdict = { kind: 'succeeded' } | { kind: 'retry'; delayMs: number } | { kind: 'failed' };

export type FinishedAttempt = { delivery: ClaimedDelivery; result: AttemptResult; verdict: AttemptVerdict };

export type RecordOptions = {
  /** A subscription whose attempts have all failed for this long is disabled at its next failure. */
  disableAfterMs: number;
};

export type Recorded = {
  /** Deliveries whose result was written; the others' claims had ended (lease over), so another worker owns them. */
  recorded: Set<string>;
  /** Subscriptions that these failures disabled. */
  disabled: string[];
};

/**
 * Writes the results of finished attempts in one statement: each delivery's new state (only if its claim is
 * still the worker's: attempt_count fences it), the attempt log, and per subscription the failure tracking
 * — a success clears failing_since; failures set it, and disable the subscription once it is older than
 * disableAfterMs.
 */
export async function recordAttempts(prisma: PrismaClient, finished: FinishedAttempt[], options: RecordOptions): Promise<Recorded> {
  if (finished.length === 0) return { recorded: new Set(), disabled: [] };
  const column = <Value>(pick: (attempt: FinishedAttempt) => Value) => finished.map(pick);
  const rows = await prisma.$queryRaw<{ recorded: string[] | null; disabled: string[] | null }[]>`
    WITH results AS (
      SELECT * FROM unnest(
        ${column(({ delivery }) => delivery.id)}::uuid[],
        ${column(({ delivery }) => delivery.attempt_count)}::int[],
        ${column(({ verdict }) => (verdict.kind === 'retry' ? 'pending' : verdict.kind))}::text[],
        ${column(({ verdict }) => (verdict.kind === 'retry' ? verdict.delayMs : 0))}::float8[],
        ${column(({ result }) => result.succeeded)}::boolean[],
        ${column(({ result }) => result.started_at.toISOString())}::timestamptz[],
        ${column(({ result }) => result.duration_ms)}::int[],
        ${column(({ result }) => result.status_code)}::int[],
        ${column(({ result }) => result.error)}::text[],
        ${column(({ result }) => result.response_body)}::text[],
        ${column(() => uuidv7())}::uuid[]
      ) AS r (delivery_id, attempt, status, delay_ms, succeeded, started_at, duration_ms, status_code, error, response_body, attempt_id)
    ), done AS (
      UPDATE webhook_deliveries d
      SET status = r.status,
          next_attempt_at = CASE WHEN r.status = 'pending' THEN now() + r.delay_ms * interval '1 millisecond' END,
          last_attempt_at = r.started_at,
          last_status_code = r.status_code,
          last_error = COALESCE(r.error, CASE WHEN NOT r.succeeded THEN 'HTTP ' || r.status_code END),
          delivered_at = CASE WHEN r.succeeded THEN now() ELSE d.delivered_at END,
          updated_at = now()
      FROM results r
      WHERE d.id = r.delivery_id AND d.attempt_count = r.attempt AND d.status = 'pending'
      RETURNING d.id, d.subscription_id, r.*
    ), logged AS (
      INSERT INTO webhook_delivery_attempts (id, delivery_id, number, started_at, duration_ms, status_code, error, response_body)
      SELECT attempt_id, id, attempt, started_at, duration_ms, status_code, error, response_body FROM done
    ), verdicts AS (
      SELECT s.id,
             bool_or(done.succeeded) AS recovered,
             COALESCE(NOT bool_or(done.succeeded) AND s.active
               AND s.failing_since < now() - ${options.disableAfterMs}::float8 * interval '1 millisecond', false) AS disable
      FROM done JOIN webhook_subscriptions s ON s.id = done.subscription_id
      GROUP BY s.id
    ), tracked AS (
      UPDATE webhook_subscriptions s
      SET failing_since = CASE WHEN v.recovered THEN NULL ELSE COALESCE(s.failing_since, now()) END,
          active = s.active AND NOT v.disable,
          disabled_reason = CASE WHEN v.disable THEN 'failing' ELSE s.disabled_reason END,
          disabled_at = CASE WHEN v.disable THEN now() ELSE s.disabled_at END,
          updated_at = CASE WHEN v.disable THEN now() ELSE s.updated_at END
      FROM verdicts v
      WHERE s.id = v.id AND (CASE WHEN v.recovered THEN s.failing_since IS NOT NULL ELSE s.failing_since IS NULL OR v.disable END)
      RETURNING s.id, v.disable
    )
    SELECT (SELECT array_agg(id) FROM done) AS recorded, (SELECT array_agg(id) FROM tracked WHERE disable) AS disabled`;
  return { recorded: new Set(rows[0]?.recorded ?? []), disabled: rows[0]?.disabled ?? [] };
}

// The automations' read of the outbox: events whose rules have not run yet, taken under a lease (a worker that
// died loses its events when the lease ends, and the next one runs what its runs had not committed: each run's
// unique row keeps the rest from running twice), and marked done once every rule of theirs ran. Events no trigger
// follows are recorded done (resolvers/shared/outbox.ts); those recorded before that, or by an older instance, are
// marked done as they are taken. Times come from the database clock, as the webhook queue's do.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { StoredEvent } from '../../resolvers/automations/subject.js';

export type ClaimedEvent = StoredEvent & { company_id: string };

/**
 * Takes up to `limit` events the automations have not seen, oldest first. Those of a type some trigger follows
 * (`followed`) are leased and returned, in order; the others (recorded before events no trigger follows were
 * recorded done) are marked done in the same statement, as no rule can run on them. `taken`
 * counts both, so that a full batch says more may be waiting.
 */
export async function claimEvents(
  prisma: PrismaClient,
  options: { limit: number; leaseMs: number; followed: readonly string[] },
): Promise<{ taken: number; events: ClaimedEvent[] }> {
  const rows = await prisma.$queryRaw<(ClaimedEvent & { followed: boolean })[]>`
    WITH taken AS (
      UPDATE events SET
        automations_lease_until = CASE WHEN type = ANY(${options.followed}::text[])
          THEN now() + ${options.leaseMs}::float8 * interval '1 millisecond' END,
        automations_done_at = CASE WHEN type = ANY(${options.followed}::text[]) THEN NULL ELSE now() END
      WHERE id IN (
        SELECT id FROM events
        WHERE automations_done_at IS NULL AND (automations_lease_until IS NULL OR automations_lease_until < now())
        ORDER BY id LIMIT ${options.limit}::int FOR UPDATE SKIP LOCKED
      )
      RETURNING id, company_id, type, automation_chain, automations_done_at IS NULL AS followed,
                CASE WHEN automations_done_at IS NULL THEN body END AS body
    )
    SELECT id::text AS id, company_id::text AS company_id, type, body, automation_chain, followed FROM taken ORDER BY id`;
  return { taken: rows.length, events: rows.filter((row) => row.followed).map(({ followed: _followed, ...event }) => event) };
}

export async function markEventsDone(prisma: PrismaClient, ids: string[]): Promise<void> {
  await prisma.$executeRaw`UPDATE events SET automations_done_at = now(), automations_lease_until = NULL WHERE id = ANY(${ids}::uuid[])`;
}

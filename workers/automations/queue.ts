// The automations' read of the outbox: events whose rules have not run yet, taken under a lease (a worker that
// died loses its events when the lease ends, and the next one runs what its runs had not committed: each run's
// unique row keeps the rest from running twice), and marked done once every rule of theirs ran. Times come from
// the database clock, as the webhook queue's do.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { StoredEvent } from '../../resolvers/automations/subject.js';

export type ClaimedEvent = StoredEvent & { company_id: string };

export async function claimEvents(prisma: PrismaClient, options: { limit: number; leaseMs: number }): Promise<ClaimedEvent[]> {
  return prisma.$queryRaw<ClaimedEvent[]>`
    UPDATE events SET automations_lease_until = now() + ${options.leaseMs}::float8 * interval '1 millisecond'
    WHERE id IN (
      SELECT id FROM events
      WHERE automations_done_at IS NULL AND (automations_lease_until IS NULL OR automations_lease_until < now())
      ORDER BY id LIMIT ${options.limit}::int FOR UPDATE SKIP LOCKED
    )
    RETURNING id::text AS id, company_id::text AS company_id, type, body, automation_chain`;
}

export async function markEventsDone(prisma: PrismaClient, ids: string[]): Promise<void> {
  await prisma.$executeRaw`UPDATE events SET automations_done_at = now(), automations_lease_until = NULL WHERE id = ANY(${ids}::uuid[])`;
}

// The agent runs' claims, on the service's own table (the same SQL runs on the embedded PGlite). A run is due
// when it is pending and its next attempt has come, or running with its lease run out (its worker died). Only
// the oldest unfinished run of each conversation is ever due, so one conversation's runs go one at a time and in
// order, whatever the number of workers; FOR UPDATE SKIP LOCKED keeps two workers off one run. A claim counts an
// attempt: that number fences every later write of the run (resolvers/agent/runs.ts).
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { ClaimedRun } from '../../resolvers/agent/runs.js';

export async function claimDueRuns(prisma: PrismaClient, options: { now: Date; leaseUntil: Date; limit: number }): Promise<ClaimedRun[]> {
  const claimed = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE agent_runs r
    SET status = 'running', attempt_count = r.attempt_count + 1, lease_until = ${options.leaseUntil}::timestamptz
    FROM (
      SELECT j.id FROM agent_runs j
      WHERE ((j.status = 'pending' AND j.next_attempt_at <= ${options.now}::timestamptz)
          OR (j.status = 'running' AND j.lease_until <= ${options.now}::timestamptz))
        AND NOT EXISTS (
          SELECT 1 FROM agent_runs earlier
          WHERE earlier.conversation_id = j.conversation_id AND earlier.id < j.id AND earlier.status IN ('pending', 'running'))
      ORDER BY j.id
      LIMIT ${options.limit}::int
      FOR UPDATE SKIP LOCKED
    ) due
    WHERE r.id = due.id
    RETURNING r.id`;
  if (claimed.length === 0) return [];
  return prisma.agentRun.findMany({ where: { id: { in: claimed.map((row) => row.id) } }, orderBy: { id: 'asc' } });
}

// The campaign runner's claims, on the service's own tables (the same SQL runs on the embedded PGlite):
// due campaigns (scheduled or running, next_send_at reached) whose lease is free are leased in one statement
// with FOR UPDATE SKIP LOCKED, so any number of runners in any number of processes never work one campaign
// at once; a crashed runner's lease simply runs out. Releasing records when the next batch is due, which is
// how the send rate holds across runners.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { LeasedCampaign } from '../../resolvers/campaigns/sending.js';
import type { WaitingReason } from '../../resolvers/campaigns/numberLimits.js';

export type ClaimOptions = { now: Date; leaseUntil: Date; limit: number; token: string };

/** Leases up to `limit` due campaigns, the longest due first. */
export async function claimDueCampaigns(prisma: PrismaClient, options: ClaimOptions): Promise<LeasedCampaign[]> {
  const claimed = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE campaigns c
    SET lease_token = ${options.token}::uuid, lease_until = ${options.leaseUntil}::timestamptz
    FROM (
      SELECT id FROM campaigns
      WHERE status IN ('scheduled', 'running') AND next_send_at <= ${options.now}::timestamptz
        AND (lease_until IS NULL OR lease_until <= ${options.now}::timestamptz)
      ORDER BY next_send_at
      LIMIT ${options.limit}::int
      FOR UPDATE SKIP LOCKED
    ) due
    WHERE c.id = due.id
    RETURNING c.id`;
  if (claimed.length === 0) return [];
  const campaigns = await prisma.campaign.findMany({ where: { id: { in: claimed.map((row) => row.id) }, lease_token: options.token } });
  return campaigns.map((campaign) => ({ ...campaign, lease_token: options.token }));
}

/** Gives the lease up; a campaign still scheduled or running is due again at `nextSendAt`, and says which limit of its
 * number it waits for (null: none). Lease bookkeeping leaves updated_at alone: that stamps changes to the campaign itself. */
export async function releaseCampaign(
  prisma: PrismaClient,
  campaign: LeasedCampaign,
  nextSendAt: Date,
  waitingReason: WaitingReason | null,
): Promise<void> {
  await prisma.$executeRaw`
    UPDATE campaigns
    SET lease_token = NULL, lease_until = NULL,
        next_send_at = CASE WHEN status IN ('scheduled', 'running') THEN ${nextSendAt}::timestamptz ELSE next_send_at END,
        waiting_reason = CASE WHEN status = 'running' THEN ${waitingReason}::text END
    WHERE id = ${campaign.id}::uuid AND lease_token = ${campaign.lease_token}::uuid`;
}

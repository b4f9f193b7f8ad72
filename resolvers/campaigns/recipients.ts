// A campaign's recipients: their progress counts (one aggregate for any number of campaigns), their list
// (paginated, in send order), and the rule that a recipient follows its message's status forward, in the
// transaction that moved the message.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { columnPage } from '../shared/pagination.js';
import { RECIPIENT_ERRORS, RECIPIENT_STATUSES, type RecipientStatus } from './rules.js';
import { limit, parseInput, uuid } from '../shared/validation.js';

type Query = { select?: Prisma.CampaignRecipientSelect; include?: Prisma.CampaignRecipientInclude };

/** The recipients by status, with the skipped ones that opted out of marketing counted apart too. */
export type CampaignProgress = Record<RecipientStatus, number> & { total: number; skipped_opted_out: number };

function emptyProgress(): CampaignProgress {
  const byStatus = Object.fromEntries(RECIPIENT_STATUSES.map((status) => [status, 0])) as Record<RecipientStatus, number>;
  return { total: 0, skipped_opted_out: 0, ...byStatus };
}

/** The recipients of each campaign counted by status (and skipped for opting out), in one query (no query per campaign). */
export async function campaignProgress(db: Db, campaignIds: string[]): Promise<Map<string, CampaignProgress>> {
  const progress = new Map(campaignIds.map((id) => [id, emptyProgress()]));
  if (campaignIds.length === 0) return progress;
  const groups = await db.$queryRaw<{ campaign_id: string; status: RecipientStatus; opted_out: boolean; count: number }[]>`
    SELECT campaign_id, status, (status = 'skipped' AND error_code = ${RECIPIENT_ERRORS.optedOut.error_code}) IS TRUE AS opted_out,
           count(*)::int AS count
    FROM campaign_recipients WHERE campaign_id = ANY(${campaignIds}::uuid[])
    GROUP BY 1, 2, 3`;
  for (const group of groups) {
    const counts = progress.get(group.campaign_id)!;
    counts[group.status] += group.count;
    counts.total += group.count;
    if (group.opted_out) counts.skipped_opted_out += group.count;
  }
  return progress;
}

const listInput = z.object({
  campaign_id: uuid,
  status: z
    .string()
    .pipe(z.enum(RECIPIENT_STATUSES, { message: `must be one of ${RECIPIENT_STATUSES.join(', ')}` }))
    .nullish(),
  limit: limit(50),
  cursor: uuid.nullish(),
});

/** A campaign's recipients in send order (by contact id); `cursor` is the contact_id of the last one seen. */
export async function listCampaignRecipients(ctx: Context, input: z.input<typeof listInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  const campaign = await ctx.prisma.campaign.findFirst({ where: { id: args.campaign_id, company_id: workspaceId }, select: { id: true } });
  if (!campaign) throw notFound('Campaign');
  return columnPage('contact_id', 'asc', args, ({ after, orderBy, take }) =>
    ctx.prisma.campaignRecipient.findMany({
      ...query,
      where: { campaign_id: campaign.id, ...(args.status ? { status: args.status } : {}), ...after },
      orderBy,
      take,
    }),
  );
}

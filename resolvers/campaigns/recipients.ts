// A campaign's recipients: their progress counts (one aggregate for any number of campaigns), their list
// (paginated, in send order), and the rule that a recipient follows its message's status forward, in the
// transaction that moved the message.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { columnPage } from '../shared/pagination.js';
import { RECIPIENT_STATUSES, type RecipientStatus } from './rules.js';
import { limit, parseInput, uuid } from '../shared/validation.js';

type Query = { select?: Prisma.CampaignRecipientSelect; include?: Prisma.CampaignRecipientInclude };

export type CampaignProgress = Record<RecipientStatus, number> & { total: number };

function emptyProgress(): CampaignProgress {
  return { total: 0, ...(Object.fromEntries(RECIPIENT_STATUSES.map((status) => [status, 0])) as Record<RecipientStatus, number>) };
}

/** The recipients of each campaign counted by status, in one query (no query per campaign). */
export async function campaignProgress(db: Db, campaignIds: string[]): Promise<Map<string, CampaignProgress>> {
  const progress = new Map(campaignIds.map((id) => [id, emptyProgress()]));
  if (campaignIds.length === 0) return progress;
  const groups = await db.campaignRecipient.groupBy({
    by: ['campaign_id', 'status'],
    where: { campaign_id: { in: campaignIds } },
    _count: { _all: true },
  });
  for (const group of groups) {
    const counts = progress.get(group.campaign_id)!;
    counts[group.status as RecipientStatus] = group._count._all;
    counts.total += group._count._all;
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

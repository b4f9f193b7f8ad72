// A campaign's recipients: their progress counts (one aggregate for any number of campaigns), their list
// (paginated, in send order), and the rule that a recipient follows its message's status forward, in the
// transaction that moved the message.
import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.js';
import { type Context, type Db, requireActor } from './context.js';
import { notFound } from './errors.js';
import { toPage } from './pagination.js';
import { RECIPIENT_PROGRESSION, RECIPIENT_STATUSES, type RecipientStatus } from './campaignRules.js';
import { limit, parseInput, uuid } from './validation.js';

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

/**
 * Moves the recipients of these messages to their message's status, forward only (sending < sent < failed <
 * delivered < read, the message's own order), stamping the time of each step and a failure's error.
 */
export async function followMessages(tx: Db, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  const order = [...RECIPIENT_PROGRESSION];
  await tx.$executeRaw`
    UPDATE campaign_recipients r
    SET status = m.status,
        error_code = CASE WHEN m.status = 'failed' THEN m.error_code ELSE r.error_code END,
        error_message = CASE WHEN m.status = 'failed' THEN m.error_message ELSE r.error_message END,
        sent_at = CASE WHEN m.status IN ('sent', 'delivered', 'read') THEN COALESCE(r.sent_at, now()) ELSE r.sent_at END,
        delivered_at = CASE WHEN m.status IN ('delivered', 'read') THEN COALESCE(r.delivered_at, now()) ELSE r.delivered_at END,
        read_at = CASE WHEN m.status = 'read' THEN COALESCE(r.read_at, now()) ELSE r.read_at END,
        failed_at = CASE WHEN m.status = 'failed' THEN COALESCE(r.failed_at, now()) ELSE r.failed_at END,
        updated_at = now()
    FROM messages m
    WHERE m.id = ANY(${messageIds}::uuid[]) AND r.message_id = m.id
      AND array_position(${order}::text[], r.status) < array_position(${order}::text[], m.status)`;
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
  const rows = await ctx.prisma.campaignRecipient.findMany({
    ...query,
    where: {
      campaign_id: campaign.id,
      ...(args.status ? { status: args.status } : {}),
      ...(args.cursor ? { contact_id: { gt: args.cursor } } : {}),
    },
    orderBy: { contact_id: 'asc' },
    take: args.limit + 1,
  });
  return toPage(rows, args.limit, (row) => row.contact_id);
}

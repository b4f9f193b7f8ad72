// A campaign's lifecycle, as its owner drives it: schedule (draft or scheduled → scheduled at a future time),
// start (→ running now), pause (running → paused), resume (paused → running), cancel (anything not finished →
// cancelled; pending recipients become cancelled). Each change runs with the campaign row locked
// (resolvers/campaigns/campaigns.ts lockCampaign), the lock the runner takes before each send, so a pause or cancel
// takes effect before the next send. Allowed moves: resolvers/campaigns/rules.ts.
import { z } from 'zod';
import type { Campaign, Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { snapshotAudience } from './audience.js';
import { campaignView, findCampaign, lockCampaign, type CampaignView } from './campaigns.js';
import { assertAllowed, type CampaignAction } from './rules.js';
import { isEmptySegment, storedSegment } from './segment.js';
import { campaignSender } from './sender.js';
import { instant, parseInput, uuid } from '../shared/validation.js';

const idInput = z.object({ id: uuid });
const scheduleInput = z.object({ id: uuid, scheduled_at: instant });

/**
 * Makes the campaign running from now on. The first time, its audience becomes its recipients; later
 * (resuming) the recipients stay as they are. A runner error recorded by an automatic pause is cleared.
 */
export async function enterRunning(tx: Db, campaign: Campaign, now: Date): Promise<void> {
  if (!campaign.started_at) {
    if (!campaign.audience_tag_id && campaign.audience_contact_ids.length === 0 && isEmptySegment(storedSegment(campaign))) {
      throw new DomainError('VALIDATION_ERROR', 'The campaign has no audience (its tag was deleted)', {
        audience_tag_id: 'the campaign has no audience; edit it or create another',
      });
    }
    await snapshotAudience(tx, campaign);
  }
  await tx.campaign.update({
    where: { id: campaign.id },
    data: { status: 'running', started_at: campaign.started_at ?? now, next_send_at: now, error_code: null, error_message: null },
  });
}

/** Runs a change with the campaign locked and allowed to take it; answers the campaign as it is after. */
async function transition(
  ctx: Context,
  id: string,
  action: CampaignAction,
  change: (tx: Db, campaign: Campaign) => Promise<unknown>,
): Promise<CampaignView> {
  const { workspaceId } = requireActor(ctx);
  return ctx.prisma.$transaction(async (tx) => {
    const campaign = await lockCampaign(tx, workspaceId, id, action);
    await change(tx, campaign);
    return campaignView(tx, await findCampaign(tx, workspaceId, id));
  });
}

/** Before a campaign is scheduled or (re)enters running: the move is allowed and its template can still be sent. */
async function assertReady(ctx: Context, id: string, action: CampaignAction): Promise<void> {
  const campaign = await findCampaign(ctx.prisma, requireActor(ctx).workspaceId, id);
  assertAllowed(action, campaign.status);
  await campaignSender(ctx, campaign);
}

function update(tx: Db, campaign: Campaign, data: Prisma.CampaignUncheckedUpdateInput) {
  return tx.campaign.update({ where: { id: campaign.id }, data });
}

export async function scheduleCampaign(ctx: Context, input: { id: string; scheduled_at: Date }): Promise<CampaignView> {
  const args = parseInput(scheduleInput, input);
  if (args.scheduled_at.getTime() <= Date.now()) {
    throw new DomainError('VALIDATION_ERROR', 'A campaign can only be scheduled for the future', { scheduled_at: 'must be in the future' });
  }
  await assertReady(ctx, args.id, 'schedule');
  return transition(ctx, args.id, 'schedule', (tx, campaign) =>
    update(tx, campaign, { status: 'scheduled', scheduled_at: args.scheduled_at, next_send_at: args.scheduled_at }),
  );
}

export async function startCampaign(ctx: Context, input: { id: string }): Promise<CampaignView> {
  const { id } = parseInput(idInput, input);
  await assertReady(ctx, id, 'start');
  return transition(ctx, id, 'start', (tx, campaign) => enterRunning(tx, campaign, new Date()));
}

export function pauseCampaign(ctx: Context, input: { id: string }): Promise<CampaignView> {
  const { id } = parseInput(idInput, input);
  return transition(ctx, id, 'pause', (tx, campaign) => update(tx, campaign, { status: 'paused', next_send_at: null }));
}

export async function resumeCampaign(ctx: Context, input: { id: string }): Promise<CampaignView> {
  const { id } = parseInput(idInput, input);
  await assertReady(ctx, id, 'resume');
  return transition(ctx, id, 'resume', (tx, campaign) => enterRunning(tx, campaign, new Date()));
}

export function cancelCampaign(ctx: Context, input: { id: string }): Promise<CampaignView> {
  const { id } = parseInput(idInput, input);
  return transition(ctx, id, 'cancel', async (tx, campaign) => {
    await update(tx, campaign, { status: 'cancelled', cancelled_at: new Date(), next_send_at: null });
    await tx.campaignRecipient.updateMany({ where: { campaign_id: campaign.id, status: 'pending' }, data: { status: 'cancelled' } });
  });
}

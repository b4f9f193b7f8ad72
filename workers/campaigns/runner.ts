// The campaign runner: one tick settles sends abandoned by dead runners, leases the due campaigns
// (workers/campaigns/queue.ts) and sends each one batch: as many messages as its rate allows in one poll interval,
// one recipient at a time (resolvers/campaigns/sending.ts), then records when its next batch is due and gives the
// lease up. A scheduled campaign starts running at its first tick; a running one with nothing left to send
// is completed. Any number of runners may share a database: a campaign is leased by one at a time and its
// next_send_at lives in the database, so its rate holds across them. Times come from `options.clock`.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { campaignSender, type CampaignSender } from '../../resolvers/campaigns/sender.js';
import {
  campaignProblem,
  completeIfDone,
  isTransientFailure,
  pauseWithProblem,
  promoteScheduled,
  sendNextRecipient,
  settleAbandonedSends,
  type LeasedCampaign,
} from '../../resolvers/campaigns/sending.js';
import { claimDueCampaigns, releaseCampaign } from './queue.js';
import type { CampaignRunnerOptions } from './options.js';

/** Abandoned sends settled per tick; the rest wait for the next. */
const SETTLE_LIMIT = 100;

export type TickReport = { settled: number; campaigns: number; sent: number };

export type CampaignRunner = {
  /** One round of work; `shouldStop` is asked between sends, so a stopping worker leaves promptly. */
  tick(shouldStop?: () => boolean): Promise<TickReport>;
};

type RunnerServices = Pick<Services, 'prisma' | 'messaging' | 'secrets' | 'statusMoves'>;
type BatchOutcome = { sent: number; delayMs: number };

export function createCampaignRunner(services: RunnerServices, options: CampaignRunnerOptions, logger: Logger): CampaignRunner {
  const { prisma } = services;
  const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

  /** The sender, or null when the campaign cannot send now (then paused, or left to retry). */
  async function senderOf(campaign: LeasedCampaign): Promise<CampaignSender | null> {
    try {
      return await campaignSender(services, campaign);
    } catch (error) {
      await handleFailure(campaign, error);
      return null;
    }
  }

  async function handleFailure(campaign: LeasedCampaign, error: unknown) {
    const problem = campaignProblem(error);
    if (problem) {
      await pauseWithProblem(prisma, campaign, problem);
      logger.warn({ campaign_id: campaign.id, error_code: problem.code }, `campaign paused: ${problem.message}`);
    } else {
      logger.error({ err: error, campaign_id: campaign.id }, 'campaign batch failed; it will be retried');
    }
  }

  async function batch(campaign: LeasedCampaign, sender: CampaignSender, shouldStop: () => boolean): Promise<BatchOutcome> {
    const rate = campaign.send_rate_per_minute ?? options.defaultRatePerMinute;
    const size = Math.max(1, Math.floor((rate * options.pollMs) / 60_000));
    let sent = 0;
    while (sent < size && !shouldStop()) {
      const now = options.clock();
      const step = await sendNextRecipient(services, campaign, sender, { now, leaseUntil: later(now, options.leaseMs) });
      if (step.kind === 'stopped' || step.kind === 'exhausted') break;
      if (step.kind === 'skipped') continue;
      sent += 1;
      if (step.outcome.sent) continue;
      const problem = campaignProblem(step.outcome.error);
      if (problem) {
        await handleFailure(campaign, step.outcome.error);
        break;
      }
      if (isTransientFailure(step.outcome)) return { sent, delayMs: options.retryDelayMs };
    }
    return { sent, delayMs: 0 };
  }

  async function run(campaign: LeasedCampaign, shouldStop: () => boolean): Promise<number> {
    const started = options.clock();
    const interval = 60_000 / (campaign.send_rate_per_minute ?? options.defaultRatePerMinute);
    let next = later(started, options.retryDelayMs);
    try {
      const sender = await senderOf(campaign);
      if (!sender) return 0;
      if (campaign.status === 'scheduled' && !(await promoteScheduled(prisma, campaign, started))) return 0;
      const outcome = await batch(campaign, sender, shouldStop);
      await completeIfDone(prisma, campaign, options.clock());
      next = later(started, Math.max(1, outcome.sent) * interval + outcome.delayMs);
      return outcome.sent;
    } catch (error) {
      await handleFailure(campaign, error);
      return 0;
    } finally {
      await releaseCampaign(prisma, campaign, next).catch((error: unknown) =>
        logger.error({ err: error, campaign_id: campaign.id }, 'campaign lease not released; it runs out by itself'),
      );
    }
  }

  return {
    async tick(shouldStop = () => false) {
      const now = options.clock();
      const settled = await settleAbandonedSends(prisma, later(now, -options.leaseMs), SETTLE_LIMIT);
      if (settled > 0) logger.warn({ settled }, 'campaign sends abandoned by a stopped runner failed as SEND_OUTCOME_UNKNOWN');
      const campaigns = await claimDueCampaigns(prisma, {
        now,
        leaseUntil: later(now, options.leaseMs),
        limit: options.campaignsPerTick,
        token: randomUUID(),
      });
      const sent = await Promise.all(campaigns.map((campaign) => run(campaign, shouldStop)));
      return { settled, campaigns: campaigns.length, sent: sent.reduce((sum, count) => sum + count, 0) };
    },
  };
}

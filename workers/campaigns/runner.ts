// The campaign runner: one tick settles sends abandoned by dead runners, leases the due campaigns
// (workers/campaigns/queue.ts) and sends each one batch: as many messages as its rate allows in one poll interval
// (the campaign's rate, never above its number's throughput), one recipient at a time (resolvers/campaigns/sending.ts),
// until a limit of the number holds it (then it waits, saying why), records when its next batch is due and gives the
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
import type { Waiting, WaitingReason } from '../../resolvers/campaigns/numberLimits.js';
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
type BatchOutcome = { sent: number; delayMs: number; waiting: Waiting | null };

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

  /** Messages per minute: the campaign's own rate (or the default), never more than its number's throughput. */
  function effectiveRate(campaign: LeasedCampaign, sender: CampaignSender): number {
    const own = campaign.send_rate_per_minute ?? options.defaultRatePerMinute;
    return Math.min(own, sender.integration.throughput_per_second * 60);
  }

  /**
   * How many messages this batch may send: what the rate allows in one poll interval, or, when the runner is behind
   * its schedule (a batch took longer than the rate's interval), the messages already due by the schedule in the last
   * poll interval, at most a second's worth — so the campaign keeps its rate however long a send takes, and never bursts above it.
   */
  function batchSize(rate: number, due: number, started: Date): number {
    const interval = 60_000 / rate;
    const behind = Math.floor((started.getTime() - due) / interval) + 1;
    return Math.max(1, Math.floor((rate * options.pollMs) / 60_000), Math.min(behind, Math.ceil(rate / 60)));
  }

  async function batch(campaign: LeasedCampaign, sender: CampaignSender, size: number, shouldStop: () => boolean): Promise<BatchOutcome> {
    let sent = 0;
    while (sent < size && !shouldStop()) {
      const now = options.clock();
      const step = await sendNextRecipient(services, campaign, sender, { now, leaseUntil: later(now, options.leaseMs) });
      if (step.kind === 'stopped' || step.kind === 'exhausted') break;
      if (step.kind === 'waiting') return { sent, delayMs: 0, waiting: step.waiting };
      if (step.kind === 'skipped') continue;
      sent += 1;
      if (step.outcome.sent) continue;
      const problem = campaignProblem(step.outcome.error);
      if (problem) {
        await handleFailure(campaign, step.outcome.error);
        break;
      }
      if (isTransientFailure(step.outcome)) return { sent, delayMs: options.retryDelayMs, waiting: null };
    }
    return { sent, delayMs: 0, waiting: null };
  }

  /** When this batch was due by the campaign's schedule: its next_send_at, but not more than a poll interval ago (a runner
   * that came later starts the schedule afresh rather than sending faster than the rate to catch up). */
  function dueAt(campaign: LeasedCampaign, started: Date): number {
    return Math.max(campaign.next_send_at?.getTime() ?? started.getTime(), started.getTime() - options.pollMs);
  }

  /** When the next batch is due: a rate interval per message sent on from when this one was due, or when the limit
   * the campaign met lets it go on. */
  function nextBatchAt(due: number, started: Date, interval: number, outcome: BatchOutcome): Date {
    if (outcome.waiting) return new Date(Math.max(outcome.waiting.until.getTime(), started.getTime()));
    return new Date(due + Math.max(1, outcome.sent) * interval + outcome.delayMs);
  }

  async function run(campaign: LeasedCampaign, shouldStop: () => boolean): Promise<number> {
    const started = options.clock();
    let release: { next: Date; waiting: WaitingReason | null } = { next: later(started, options.retryDelayMs), waiting: null };
    try {
      const sender = await senderOf(campaign);
      if (!sender) return 0;
      if (campaign.status === 'scheduled' && !(await promoteScheduled(prisma, campaign, started))) return 0;
      const rate = effectiveRate(campaign, sender);
      const due = dueAt(campaign, started);
      const outcome = await batch(campaign, sender, batchSize(rate, due, started), shouldStop);
      await completeIfDone(prisma, campaign, options.clock());
      release = { next: nextBatchAt(due, started, 60_000 / rate, outcome), waiting: outcome.waiting?.reason ?? null };
      if (outcome.waiting)
        logger.info({ campaign_id: campaign.id, waiting_reason: outcome.waiting.reason }, 'campaign waits for its number');
      return outcome.sent;
    } catch (error) {
      await handleFailure(campaign, error);
      return 0;
    } finally {
      await releaseCampaign(prisma, campaign, release.next, release.waiting).catch((error: unknown) =>
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

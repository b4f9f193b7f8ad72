// How the campaign runner runs, from the CAMPAIGN_* settings (README.md lists them).
import type { Settings } from '../../infra/config/settings.js';

export type CampaignRunnerOptions = {
  /** Messages per minute of a campaign that sets no rate of its own. */
  defaultRatePerMinute: number;
  /** How often a worker looks for due campaigns; a batch is what the rate allows in this time (at least one). */
  pollMs: number;
  /** How long a claimed campaign stays the runner's without a send; a send claimed longer ago was abandoned. */
  leaseMs: number;
  /** The wait before a campaign is tried again after a failure that may pass (the provider is down). */
  retryDelayMs: number;
  /** Campaigns one runner works on at once. */
  campaignsPerTick: number;
  /** The runner's clock; tests drive it by hand. */
  clock: () => Date;
};

export const CAMPAIGN_RETRY_DELAY_MS = 30_000;
const CAMPAIGNS_PER_TICK = 8;

export function campaignOptionsFrom(settings: Settings): CampaignRunnerOptions {
  return {
    defaultRatePerMinute: settings.CAMPAIGN_SEND_RATE_PER_MINUTE,
    pollMs: settings.CAMPAIGN_POLL_MS,
    leaseMs: settings.CAMPAIGN_LEASE_MS,
    retryDelayMs: CAMPAIGN_RETRY_DELAY_MS,
    campaignsPerTick: CAMPAIGNS_PER_TICK,
    clock: () => new Date(),
  };
}

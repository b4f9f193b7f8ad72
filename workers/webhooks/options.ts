// How a delivery worker runs, from the WEBHOOK_* settings (README.md lists them).
import { readFileSync } from 'node:fs';
import type { Settings } from '../../infra/config/settings.js';

export type DeliveryOptions = {
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Attempts in flight at once to one subscription, so a hanging receiver cannot hold every slot. */
  perSubscription: number;
  timeoutMs: number;
  /** How long a claim stays invisible to other workers; a crashed worker's claims reappear after it. */
  leaseMs: number;
  retryDelaysMs: number[];
  disableAfterMs: number;
  /** How often an idle worker looks for new events and due retries. */
  pollMs: number;
  /** How often the worker counts the due deliveries for the webhook_queue_depth metric. */
  depthSampleMs: number;
  userAgent: string;
  /** PEM certificates trusted in addition to the system's, for receivers with a private CA. */
  extraCa?: string[];
};

export function deliveryOptionsFrom(settings: Settings, version: string): DeliveryOptions {
  return {
    concurrency: settings.WEBHOOK_CONCURRENCY,
    perSubscription: settings.WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION,
    timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
    leaseMs: settings.WEBHOOK_LEASE_MS,
    retryDelaysMs: settings.WEBHOOK_RETRY_DELAYS,
    disableAfterMs: settings.WEBHOOK_DISABLE_AFTER,
    pollMs: settings.WEBHOOK_POLL_MS,
    depthSampleMs: settings.WEBHOOK_DEPTH_SAMPLE_MS,
    userAgent: `MessagingCRM-Webhooks/${version}`,
    ...(settings.WEBHOOK_CA_FILE ? { extraCa: [readFileSync(settings.WEBHOOK_CA_FILE, 'utf8')] } : {}),
  };
}

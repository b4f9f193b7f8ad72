// A webhook delivery worker: fans new events out to subscriptions, claims due deliveries and runs up to
// `concurrency` attempts at once, each bounded by the time-out, and records every result, in the rounds of
// workers/loop.ts (a finished attempt nudges the next round when enough slots are free). It runs inside
// the server (app/main.ts) and as a process of its own (app/worker.ts); any number of workers may share
// one database (see workers/webhooks/queue.ts). stop() finishes the attempts in flight, so none is left to its lease.
// It feeds the process's webhook metrics: every failed attempt by reason, and every `depthSampleMs` the number
// of due deliveries (one capped count, so the gauge costs the database one small query per interval per worker).
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { webhookDeliveryFailures, webhookQueueDepth } from '../../infra/observability/metrics.js';
import { startLoop } from '../loop.js';
import {
  claimDeliveries,
  countDueDeliveries,
  fanOutEvents,
  recordAttempts,
  type ClaimedDelivery,
  type FinishedAttempt,
  type Recorded,
} from './queue.js';
import { createBatcher } from './batcher.js';
import { attemptsAllowed, verdictOf } from './retry.js';
import { createSender, type AttemptResult } from './sender.js';
import type { DeliveryOptions } from './options.js';

const FAN_OUT_BATCH = 500;
/** Results wait at most this long to be written together. */
const RECORD_DELAY_MS = 20;

export type DeliveryWorker = { stop(): Promise<void> };

export function startDeliveryWorker(
  services: Pick<Services, 'prisma' | 'secrets' | 'webhookTargets'>,
  options: DeliveryOptions,
  logger: Logger,
): DeliveryWorker {
  const { prisma, secrets } = services;
  const sender = createSender({
    guard: services.webhookTargets,
    timeoutMs: options.timeoutMs,
    userAgent: options.userAgent,
    ...(options.extraCa ? { extraCa: options.extraCa } : {}),
  });
  const recorder = createBatcher<FinishedAttempt, Recorded>(
    async (finished) => {
      const outcome = await recordAttempts(prisma, finished, { disableAfterMs: options.disableAfterMs });
      for (const subscription of outcome.disabled)
        logger.warn({ subscription_id: subscription }, 'webhook subscription disabled: it kept failing');
      return outcome;
    },
    { maxSize: Math.max(1, Math.ceil(options.concurrency / 2)), maxDelayMs: RECORD_DELAY_MS },
  );
  const running = new Set<Promise<void>>();
  const inFlightBySubscription = new Map<string, number>();
  let lastFanOutAt = 0;
  let fanOutBacklog = true;
  let lastDepthSampleAt = 0;

  function unsealFailure(): AttemptResult {
    return {
      started_at: new Date(),
      duration_ms: 0,
      succeeded: false,
      status_code: null,
      error: 'the signing secret cannot be unsealed (do all instances share ENCRYPTION_KEY?)',
      failure: 'secret',
      response_body: null,
    };
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    let secret: string | null = null;
    try {
      secret = secrets.open(delivery.sealed_secret);
    } catch {
      logger.error({ delivery_id: delivery.id }, 'webhook signing secret cannot be unsealed');
    }
    const result =
      secret === null ? unsealFailure() : await sender.send({ url: delivery.url, body: delivery.body, secret, deliveryId: delivery.id });
    if (result.failure) webhookDeliveryFailures.inc({ reason: result.failure });
    const verdict = verdictOf(result, delivery, options.retryDelaysMs);
    const outcome = await recorder.add({ delivery, result, verdict });
    const facts = {
      delivery_id: delivery.id,
      subscription_id: delivery.subscription_id,
      attempt: delivery.attempt_count,
      status_code: result.status_code,
      error: result.error,
      verdict: verdict.kind,
    };
    if (!outcome.recorded.has(delivery.id)) {
      logger.warn(facts, 'webhook attempt result not recorded: its lease had ended or its subscription was deleted');
    } else if (verdict.kind === 'failed') logger.warn(facts, 'webhook delivery failed for good');
    else logger.debug(facts, 'webhook attempt');
  }

  function launch(delivery: ClaimedDelivery) {
    const subscription = delivery.subscription_id;
    inFlightBySubscription.set(subscription, (inFlightBySubscription.get(subscription) ?? 0) + 1);
    const task = attempt(delivery)
      .catch((error: unknown) => logger.error({ err: error, delivery_id: delivery.id }, 'webhook attempt could not be recorded'))
      .finally(() => {
        const left = (inFlightBySubscription.get(subscription) ?? 1) - 1;
        if (left > 0) inFlightBySubscription.set(subscription, left);
        else inFlightBySubscription.delete(subscription);
        running.delete(task);
        // Under load, claim in batches: wait until a quarter of the slots are free.
        if (options.concurrency - running.size >= Math.ceil(options.concurrency / 4)) loop.nudge();
      });
    running.add(task);
  }

  /** One round of work; true when more undispatched events are known to be waiting. */
  async function round(): Promise<boolean> {
    if (fanOutBacklog || Date.now() - lastFanOutAt >= options.pollMs) {
      lastFanOutAt = Date.now();
      const dispatched = await fanOutEvents(prisma, { batchSize: FAN_OUT_BATCH, maxAttempts: attemptsAllowed(options.retryDelaysMs) });
      fanOutBacklog = dispatched === FAN_OUT_BATCH;
    }
    if (Date.now() - lastDepthSampleAt >= options.depthSampleMs) {
      lastDepthSampleAt = Date.now();
      webhookQueueDepth.set(await countDueDeliveries(prisma));
    }
    const claimed = await claimDeliveries(prisma, {
      limit: options.concurrency - running.size,
      leaseMs: options.leaseMs,
      perSubscription: options.perSubscription,
      inFlight: inFlightBySubscription,
    });
    for (const delivery of claimed) launch(delivery);
    return fanOutBacklog;
  }

  const loop = startLoop({ name: 'webhook worker', pollMs: options.pollMs, logger, round });

  return {
    async stop() {
      await loop.stop();
      await Promise.allSettled([...running]);
      sender.close();
    },
  };
}

// The webhook metrics as production feeds them: a real delivery worker sends to a real HTTPS receiver that
// first hangs and then answers 503, and the metrics listener's /metrics, scraped over HTTP, shows the due
// deliveries waiting behind the hanging attempt, then none once each has failed and waits for its retry, and
// the failed attempts counted by reason (one time-out, then one 503 per event).
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { openHarness } from '../support/harness.js';
import { startReceiver, type Answer, LOCAL_RECEIVER_HOSTS } from '../support/webhookReceiver.js';
import { recordMessageEvents, takeTurnsWithOtherWorkerFiles, testDeliveryOptions } from '../support/webhooks.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { createLogger } from '../../infra/observability/logger.js';
import { startMetricsServer } from '../../infra/observability/metricsServer.js';
import { startDeliveryWorker } from '../../workers/webhooks/worker.js';

takeTurnsWithOtherWorkerFiles();
const h = await openHarness({ webhookTargets: createTargetGuard({ allowedHosts: LOCAL_RECEIVER_HOSTS }) });
const metrics = await startMetricsServer('127.0.0.1', 0);
afterAll(() => metrics.close());

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one series in Prometheus text, e.g. `webhook_queue_depth`; 0 when it has no sample yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const depth = async () => sample(await scrape(), 'webhook_queue_depth');
const failures = (text: string, reason: string) => sample(text, `webhook_delivery_failures_total{reason="${reason}"}`);

describe('webhook metrics', () => {
  it('show the due deliveries and count failed attempts by reason while a receiver fails', async () => {
    const EVENTS = 20;
    let answer: Answer = 'hang';
    const receiver = await startReceiver({ answer: () => answer });
    const workspace = await h.workspace();
    onTestFinished(async () => {
      await receiver.close();
      await h.db.prisma.webhookSubscription.deleteMany({ where: { company_id: workspace.workspace_id } });
    });
    const created = await h.graphql<{ webhookCreate: { secret: string } }>(
      workspace.api_key,
      'mutation ($url: String!) { webhookCreate(url: $url, events: ["message.received"]) { secret } }',
      { url: receiver.url },
    );
    receiver.secrets.push(created.body.data!.webhookCreate.secret);
    const before = await scrape();

    // One attempt at a time, and a failed one is retried only after an hour: the queue drains by failures alone.
    const worker = startDeliveryWorker(
      h.services,
      await testDeliveryOptions({ concurrency: 1, perSubscription: 1, timeoutMs: 3000, leaseMs: 6000, retryDelaysMs: [3_600_000] }),
      createLogger('silent'),
    );
    onTestFinished(() => worker.stop());
    await recordMessageEvents(h.db.prisma, workspace.workspace_id, EVENTS);

    await receiver.waitFor('the first attempt', () => receiver.requests.length === 1);
    await expect.poll(depth, { timeout: 2500 }).toBeGreaterThanOrEqual(EVENTS - 1);

    answer = 503;
    await receiver.waitFor('an attempt of every event', () => receiver.requests.length === EVENTS);
    await expect.poll(depth, { timeout: 5000 }).toBe(0);
    const counted = async (reason: string) => failures(await scrape(), reason) - failures(before, reason);
    await expect.poll(() => counted('status')).toBeGreaterThanOrEqual(EVENTS - 1);
    expect(await counted('timeout')).toBeGreaterThanOrEqual(1);
  });
});

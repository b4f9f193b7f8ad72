// Webhook delivery end to end: events recorded through the outbox reach a real local HTTPS receiver that
// verifies every signature as the spec tells receivers to; failures are retried with the same event and
// delivery id; exhausted deliveries fail and can be redelivered; a subscription that keeps failing is
// disabled and can be re-enabled; a hanging receiver does not hold up the others; two instances on one
// database deliver each event once.
import { describe, expect, it, onTestFinished } from 'vitest';
import { openHarness, openTestDatabase } from '../support/harness.js';
import { startReceiver, type Answer, type ReceivedRequest, type Receiver, LOCAL_RECEIVER_HOSTS } from '../support/webhookReceiver.js';
import { envelopeProblems, recordMessageEvents, takeTurnsWithOtherWorkerFiles, testDeliveryOptions } from '../support/webhooks.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { startDeliveryWorker, type DeliveryWorker } from '../../workers/webhooks/worker.js';
import type { DeliveryOptions } from '../../workers/webhooks/options.js';
import { createLogger } from '../../infra/observability/logger.js';
import type { Services } from '../../resolvers/shared/context.js';

takeTurnsWithOtherWorkerFiles();
const h = await openHarness({ webhookTargets: createTargetGuard({ allowedHosts: LOCAL_RECEIVER_HOSTS }) });
const logger = createLogger(process.env['TEST_LOG_LEVEL'] ?? 'silent');

type Delivery = {
  id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  last_status_code: number | null;
  attempts: { number: number; status_code: number | null; error: string | null }[];
};
const DELIVERY_FIELDS =
  'id event_id event_type status attempt_count last_status_code last_error attempts { number status_code error duration_ms response_body }';

/** A worker for this test, stopped when the test ends. */
async function worker(
  overrides: Partial<DeliveryOptions> = {},
  services: Pick<Services, 'prisma' | 'secrets' | 'webhookTargets'> = h.services,
): Promise<DeliveryWorker> {
  const started = startDeliveryWorker(services, await testDeliveryOptions(overrides), logger);
  onTestFinished(() => started.stop());
  return started;
}

/** A workspace with a receiver and a subscription to it; all removed when the test ends. */
async function subscribed(options: { events?: string[]; answer?: (request: ReceivedRequest) => Answer } = {}) {
  const workspace = await h.workspace();
  const receiver = await startReceiver(options.answer ? { answer: options.answer } : {});
  const subscription = await subscribe(workspace.api_key, receiver, options.events);
  onTestFinished(async () => {
    await receiver.close();
    await h.db.prisma.webhookSubscription.deleteMany({ where: { company_id: workspace.workspace_id } });
  });
  return { workspace, receiver, subscription };
}

async function subscribe(key: string, receiver: Receiver, events = ['message.received', 'message.status']) {
  const response = await h.graphql<{ webhookCreate: { id: string; secret: string } }>(
    key,
    `mutation ($url: String!, $events: [String!]!) { webhookCreate(url: $url, events: $events) { id secret } }`,
    { url: receiver.url, events },
  );
  const subscription = response.body.data!.webhookCreate;
  receiver.secrets.push(subscription.secret);
  return subscription;
}

async function deliveries(key: string, subscriptionId: string): Promise<Delivery[]> {
  const response = await h.graphql<{ webhookDeliveries: { data: Delivery[] } }>(
    key,
    `query ($id: ID!) { webhookDeliveries(subscription_id: $id, limit: 100) { data { ${DELIVERY_FIELDS} } } }`,
    { id: subscriptionId },
  );
  return response.body.data!.webhookDeliveries.data;
}

async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('signed delivery', () => {
  it('POSTs each event body byte for byte, signed with the subscription secret, with the documented headers and envelope', async () => {
    const { workspace, receiver, subscription } = await subscribed();
    await worker();
    const received = await recordMessageEvents(h.db.prisma, workspace.workspace_id, 5, 'message.received');
    const statuses = await recordMessageEvents(h.db.prisma, workspace.workspace_id, 3, 'message.status');
    await receiver.waitFor('8 events', () => receiver.deliveredEventIds().size === 8);

    expect(receiver.requests).toHaveLength(8);
    const stored = await h.db.prisma.event.findMany({ where: { company_id: workspace.workspace_id } });
    const bodies = new Map(stored.map((event) => [`evt_${event.id}`, event.body]));
    for (const request of receiver.requests) {
      expect(request.signatureValid).toBe(true);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^MessagingCRM-Webhooks\//);
      expect(request.deliveryId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(request.raw.equals(Buffer.from(bodies.get(request.event!.id)!, 'utf8'))).toBe(true);
      expect(envelopeProblems(request.event!)).toEqual([]);
    }
    const byId = new Map(receiver.requests.map((request) => [request.event!.id, request.event]));
    for (const envelope of [...received, ...statuses]) expect(byId.get(envelope.id)).toEqual(envelope);

    const log = await eventually(
      'the results',
      () => deliveries(workspace.api_key, subscription.id),
      (all) => all.every((delivery) => delivery.status === 'succeeded'),
    );
    expect(log).toHaveLength(8);
    expect(new Set(log.map((delivery) => delivery.id))).toEqual(new Set(receiver.requests.map((request) => request.deliveryId)));
    for (const delivery of log) {
      expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 1, last_status_code: 200 });
      expect(delivery.attempts).toEqual([
        expect.objectContaining({ number: 1, status_code: 200, error: null, response_body: '{"received":true}' }),
      ]);
    }
  });

  it('delivers only the subscribed event types, and only the workspace own events', async () => {
    const { workspace, receiver } = await subscribed({ events: ['message.status'] });
    const stranger = await h.workspace();
    await worker();
    await recordMessageEvents(h.db.prisma, stranger.workspace_id, 2, 'message.status');
    await recordMessageEvents(h.db.prisma, workspace.workspace_id, 2, 'message.received');
    const statuses = await recordMessageEvents(h.db.prisma, workspace.workspace_id, 2, 'message.status');
    await receiver.waitFor('2 status events', () => receiver.deliveredEventIds().size === 2);
    // Every event above is dispatched once the last one is: fan-out takes them in id order.
    await eventually(
      'fan-out',
      () =>
        h.db.prisma.event.count({ where: { dispatched_at: null, company_id: { in: [workspace.workspace_id, stranger.workspace_id] } } }),
      (left) => left === 0,
    );
    expect([...receiver.deliveredEventIds()].sort()).toEqual(statuses.map((event) => event.id).sort());
    expect(await h.db.prisma.webhookDelivery.count({ where: { company_id: workspace.workspace_id } })).toBe(2);
  });

  it('sends a webhook.test event on request, documented and signed, attempted once', async () => {
    const { workspace, receiver, subscription } = await subscribed();
    await worker();
    const sent = await h.graphql<{ webhookTest: { id: string; event_id: string } }>(
      workspace.api_key,
      `mutation ($id: ID!) { webhookTest(id: $id) { id event_id } }`,
      { id: subscription.id },
    );
    const delivery = sent.body.data!.webhookTest;
    await receiver.waitFor('the test event', () => receiver.deliveredEventIds().has(delivery.event_id));
    const [request] = receiver.requests;
    expect(request).toMatchObject({ signatureValid: true, deliveryId: delivery.id });
    expect(request!.event).toMatchObject({ type: 'webhook.test', data: { subscription_id: subscription.id } });
    expect(envelopeProblems(request!.event!)).toEqual([]);
    const [logged] = await eventually(
      'the result',
      () => deliveries(workspace.api_key, subscription.id),
      (log) => log[0]?.status === 'succeeded',
    );
    expect(logged).toMatchObject({ id: delivery.id, event_id: delivery.event_id, status: 'succeeded', attempt_count: 1 });
  });

  it('signs with the new secret once it is rotated', async () => {
    const { workspace, receiver, subscription } = await subscribed();
    await worker();
    const rotated = await h.graphql<{ webhookRotateSecret: { secret: string } }>(
      workspace.api_key,
      `mutation ($id: ID!) { webhookRotateSecret(id: $id) { secret } }`,
      { id: subscription.id },
    );
    receiver.secrets.splice(0, receiver.secrets.length, rotated.body.data!.webhookRotateSecret.secret);
    await recordMessageEvents(h.db.prisma, workspace.workspace_id, 2);
    await receiver.waitFor('2 events', () => receiver.requests.length === 2);
    expect(receiver.requests.map((request) => request.signatureValid)).toEqual([true, true]);
  });
});

describe('retries', () => {
  it('retries after a 503, a dropped connection and a time-out; the 4th attempt carries the same event id, delivery id and bytes', async () => {
    const failures: Answer[] = [503, 'reset', 'hang'];
    const { workspace, receiver, subscription } = await subscribed({ answer: (request) => failures[request.previousAttempts] ?? 200 });
    await worker({ timeoutMs: 500, retryDelaysMs: [50, 50, 50, 50] });
    const [event] = await recordMessageEvents(h.db.prisma, workspace.workspace_id, 1);
    await receiver.waitFor('the 4th attempt', () => receiver.deliveredEventIds().has(event!.id));

    expect(receiver.requests).toHaveLength(4);
    const [first] = receiver.requests;
    for (const request of receiver.requests) {
      expect(request.signatureValid).toBe(true);
      expect(request.event?.id).toBe(event!.id);
      expect(request.deliveryId).toBe(first!.deliveryId);
      expect(request.raw.equals(first!.raw)).toBe(true);
    }
    const [delivery] = await eventually(
      'the log',
      () => deliveries(workspace.api_key, subscription.id),
      (log) => log[0]?.status === 'succeeded',
    );
    expect(delivery).toMatchObject({ id: first!.deliveryId, event_id: event!.id, attempt_count: 4 });
    expect(delivery!.attempts.map(({ number, status_code }) => [number, status_code])).toEqual([
      [1, 503],
      [2, null],
      [3, null],
      [4, 200],
    ]);
    expect(delivery!.attempts[1]!.error).toMatch(/ECONNRESET|socket hang up/);
    expect(delivery!.attempts[2]!.error).toBe('timed out after 500 ms');
  });

  it('marks a delivery failed after its last scheduled attempt; webhookRedeliver sends it once more with the same ids', async () => {
    let answer: Answer = 500;
    const { workspace, receiver, subscription } = await subscribed({ answer: () => answer });
    await worker({ retryDelaysMs: [30, 30] });
    const [event] = await recordMessageEvents(h.db.prisma, workspace.workspace_id, 1);
    const [failed] = await eventually(
      'failure',
      () => deliveries(workspace.api_key, subscription.id),
      (log) => log[0]?.status === 'failed',
    );
    expect(failed).toMatchObject({ attempt_count: 3, last_status_code: 500 });
    expect(receiver.requests).toHaveLength(3);

    answer = 200;
    const redelivered = await h.graphql<{ webhookRedeliver: Delivery }>(
      workspace.api_key,
      `mutation ($id: ID!) { webhookRedeliver(id: $id) { ${DELIVERY_FIELDS} } }`,
      { id: failed!.id },
    );
    expect(redelivered.body.data?.webhookRedeliver).toMatchObject({ id: failed!.id, status: 'pending' });
    await receiver.waitFor('the redelivery', () => receiver.deliveredEventIds().has(event!.id));
    const [done] = await eventually(
      'success',
      () => deliveries(workspace.api_key, subscription.id),
      (log) => log[0]?.status === 'succeeded',
    );
    expect(done).toMatchObject({ id: failed!.id, attempt_count: 4 });
    expect(receiver.requests.map((request) => request.deliveryId)).toEqual(Array(4).fill(failed!.id));
  });

  it('disables a subscription whose attempts keep failing; re-enabled, it receives its pending deliveries', async () => {
    let answer: Answer = 500;
    const { workspace, receiver, subscription } = await subscribed({ answer: () => answer });
    await worker({ retryDelaysMs: Array(50).fill(40), disableAfterMs: 300 });
    const [held] = await recordMessageEvents(h.db.prisma, workspace.workspace_id, 1);
    const read = `query ($id: ID!) { webhook(id: $id) { active disabled_reason disabled_at failing_since } }`;
    type Read = { webhook: { active: boolean; disabled_reason: string | null; failing_since: string | null } };
    const disabled = await eventually(
      'the disable',
      () => h.graphql<Read>(workspace.api_key, read, { id: subscription.id }),
      (r) => r.body.data?.webhook.active === false,
    );
    expect(disabled.body.data?.webhook).toMatchObject({ active: false, disabled_reason: 'failing', failing_since: expect.any(String) });
    const attemptsWhenDisabled = receiver.requests.length;
    expect(attemptsWhenDisabled).toBeGreaterThanOrEqual(2);

    // While disabled: no attempts, the due delivery is held, and new events are not queued for it.
    const [skipped] = await recordMessageEvents(h.db.prisma, workspace.workspace_id, 1);
    await eventually(
      'fan-out',
      () => h.db.prisma.event.count({ where: { company_id: workspace.workspace_id, dispatched_at: null } }),
      (left) => left === 0,
    );
    const [waiting] = await eventually(
      'the hold',
      () => deliveries(workspace.api_key, subscription.id),
      (log) => log[0]?.status === 'held',
    );
    expect(waiting).toMatchObject({ event_id: held!.id });
    expect(await deliveries(workspace.api_key, subscription.id)).toHaveLength(1);
    expect(receiver.requests).toHaveLength(attemptsWhenDisabled);

    answer = 200;
    const enabled = await h.graphql<{ webhookUpdate: { active: boolean } }>(
      workspace.api_key,
      `mutation ($id: ID!) { webhookUpdate(id: $id, active: true) { active } }`,
      { id: subscription.id },
    );
    expect(enabled.body.data?.webhookUpdate.active).toBe(true);
    await receiver.waitFor('the held event', () => receiver.deliveredEventIds().has(held!.id));
    expect(receiver.deliveredEventIds().has(skipped!.id)).toBe(false);
    const after = await eventually(
      'the reset',
      () => h.graphql<Read>(workspace.api_key, read, { id: subscription.id }),
      (r) => r.body.data?.webhook.failing_since === null,
    );
    expect(after.body.data?.webhook).toMatchObject({ active: true, disabled_reason: null });
  });
});

describe('isolation between receivers and instances', () => {
  it('keeps delivering to other receivers while one hangs', async () => {
    const workspace = await h.workspace();
    const hanging = await startReceiver({ answer: () => 'hang' });
    const healthy = await startReceiver();
    onTestFinished(async () => {
      await Promise.all([hanging.close(), healthy.close()]);
      await h.db.prisma.webhookSubscription.deleteMany({ where: { company_id: workspace.workspace_id } });
    });
    const stuck = await subscribe(workspace.api_key, hanging);
    await subscribe(workspace.api_key, healthy);
    await worker({ concurrency: 4, perSubscription: 2, timeoutMs: 5000, leaseMs: 7000 });
    await recordMessageEvents(h.db.prisma, workspace.workspace_id, 20);

    await healthy.waitFor('all 20 events at the healthy receiver', () => healthy.deliveredEventIds().size === 20);
    // The hanging receiver still holds its first attempts: none has timed out or been recorded yet,
    // so the healthy receiver was served while every attempt to the hanging one was still open.
    expect(hanging.requests.length).toBeLessThanOrEqual(2);
    expect(await h.db.prisma.webhookDeliveryAttempt.count({ where: { delivery: { subscription_id: stuck.id } } })).toBe(0);
  });

  it('delivers each event once when two instances work on the same database', async () => {
    const { workspace, receiver } = await subscribed();
    const secondInstance = process.env['TEST_DATABASE_URL'] ? await openTestDatabase() : h.db;
    if (secondInstance !== h.db) onTestFinished(() => secondInstance.close());
    await worker({ userAgent: 'MessagingCRM-Webhooks/instance-a' });
    await worker({ userAgent: 'MessagingCRM-Webhooks/instance-b' }, { ...h.services, prisma: secondInstance.prisma });
    const events = await recordMessageEvents(h.db.prisma, workspace.workspace_id, 300);
    await receiver.waitFor('300 events', () => receiver.deliveredEventIds().size === events.length);
    await eventually(
      'every delivery recorded',
      () => h.db.prisma.webhookDelivery.count({ where: { company_id: workspace.workspace_id, status: 'succeeded' } }),
      (n) => n === 300,
    );

    const sentBy = (instance: string) => receiver.requests.filter((request) => request.headers['user-agent']?.endsWith(instance)).length;
    console.log(
      `two instances: ${events.length} events, ${receiver.requests.length} requests, ${receiver.requests.length - events.length} duplicates; ` +
        `instance-a sent ${sentBy('instance-a')}, instance-b sent ${sentBy('instance-b')}`,
    );
    expect(receiver.requests).toHaveLength(events.length);
  });
});

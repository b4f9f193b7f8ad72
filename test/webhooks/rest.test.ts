// The webhook subscription routes over HTTP: each answers the same JSON as its GraphQL field (the named
// operation in facades/operations/webhooks.graphql), the secret appears only on create and rotate, the SSRF
// guard refuses a private receiver at creation, another workspace's records are 404 and a key without the
// webhooks scope is 403. No delivery worker runs here: deliveries stay as the requests leave them.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { PUBLIC_TEST_RECEIVER, resolveTestDns, workspacesCleanedAfterFile } from '../support/webhooks.js';
import { expectError, getJson, operationResult, postJson, sendJson } from '../support/restFixtures.js';

const h = await openHarness({ webhookTargets: createTargetGuard({ resolve: resolveTestDns }) });
const RECEIVER = PUBLIC_TEST_RECEIVER;
const EVENTS = ['message.received', 'message.status'];

const workspace = workspacesCleanedAfterFile(h);

const mine = await workspace();
const key = mine.api_key;
const theirs = await workspace();

async function subscribe(apiKey = key): Promise<{ id: string; secret: string }> {
  const created = await postJson(h, '/api/v1/webhooks', apiKey, { url: RECEIVER, events: EVENTS });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('webhook subscriptions over REST', () => {
  it('POST /webhooks answers 201 with the subscription and its whsec_ secret; reads never show the secret', async () => {
    const created = await postJson(h, '/api/v1/webhooks', key, { url: RECEIVER, events: EVENTS });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: RECEIVER, events: EVENTS, active: true, disabled_reason: null });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const one = await getJson(h, `/api/v1/webhooks/${created.body.id}`, { key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(await operationResult(h, key, 'WebhookGet', { id: created.body.id }));
    expect(one.body).not.toHaveProperty('secret');
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(one.body).toEqual(withoutSecret);

    const list = await getJson(h, '/api/v1/webhooks', { key });
    expect(list.status).toBe(200);
    expect(list.body).toEqual(await operationResult(h, key, 'WebhooksList'));
    expect(list.body.webhooks.map((hook: { id: string }) => hook.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  it('refuses a receiver on a private address with 400 VALIDATION_ERROR naming url', async () => {
    for (const url of ['https://10.0.0.5/hooks', 'https://127.0.0.1/hooks', 'https://169.254.169.254/latest']) {
      const refused = await postJson(h, '/api/v1/webhooks', key, { url, events: EVENTS });
      expectError(refused, 400, { code: 'VALIDATION_ERROR' });
      expect(refused.body.error.details.url).toMatch(/internal address/);
    }
    const unknownEvent = await postJson(h, '/api/v1/webhooks', key, { url: RECEIVER, events: ['message.sent'] });
    expectError(unknownEvent, 400, { code: 'VALIDATION_ERROR' });
  });

  it('PATCH changes url, events and active; rotate-secret answers a new secret; DELETE answers the subscription as it was', async () => {
    const { id, secret } = await subscribe();
    const patched = await sendJson(h, 'PATCH', `/api/v1/webhooks/${id}`, key, { events: ['message.status'], active: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, events: ['message.status'], active: false, disabled_reason: 'manual' });
    expect(patched.body).toEqual(await operationResult(h, key, 'WebhookGet', { id }));

    const rotated = await postJson(h, `/api/v1/webhooks/${id}/rotate-secret`, key, undefined);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    const { secret: _secret, ...rest } = rotated.body;
    expect(rest).toEqual(await operationResult(h, key, 'WebhookGet', { id }));

    const deleted = await sendJson(h, 'DELETE', `/api/v1/webhooks/${id}`, key);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(rest);
    expect((await getJson(h, `/api/v1/webhooks/${id}`, { key })).status).toBe(404);
  });

  it('POST /{id}/test answers the delivery; the deliveries list and one delivery read it back as GraphQL does', async () => {
    const { id } = await subscribe();
    const tested = await postJson(h, `/api/v1/webhooks/${id}/test`, key, undefined);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ subscription_id: id, event_type: 'webhook.test', status: 'pending', attempts: [] });

    const list = await getJson(h, `/api/v1/webhooks/${id}/deliveries?limit=10&status=pending`, { key });
    expect(list.status).toBe(200);
    expect(list.body).toEqual(
      await operationResult(h, key, 'WebhookDeliveriesList', { subscription_id: id, limit: 10, status: 'pending' }),
    );
    expect(list.body).toMatchObject({ data: [{ id: tested.body.id }], next_cursor: null, has_more: false });

    const one = await getJson(h, `/api/v1/webhooks/deliveries/${tested.body.id}`, { key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(await operationResult(h, key, 'WebhookDeliveryGet', { id: tested.body.id }));
    expect(one.body).toEqual(tested.body);

    const badLimit = await getJson(h, `/api/v1/webhooks/${id}/deliveries?limit=abc`, { key });
    expectError(badLimit, 400, { code: 'VALIDATION_ERROR', details: { limit: 'must be an integer' } });
  });

  it('redeliver: a failed delivery is pending again at once; any other status is 409 INVALID_TRANSITION', async () => {
    const { id } = await subscribe();
    const delivery = (await postJson(h, `/api/v1/webhooks/${id}/test`, key, undefined)).body;
    const refused = await postJson(h, `/api/v1/webhooks/deliveries/${delivery.id}/redeliver`, key, undefined);
    expectError(refused, 409, { code: 'INVALID_TRANSITION' });

    await h.db.prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { status: 'failed', next_attempt_at: null } });
    const redelivered = await postJson(h, `/api/v1/webhooks/deliveries/${delivery.id}/redeliver`, key, undefined);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body).toMatchObject({ id: delivery.id, status: 'pending' });
    expect(redelivered.body).toEqual(await operationResult(h, key, 'WebhookDeliveryGet', { id: delivery.id }));
  });

  it('another workspace’s subscriptions and deliveries are 404 on every route that names one', async () => {
    const foreign = await subscribe(theirs.api_key);
    const foreignDelivery = (await postJson(h, `/api/v1/webhooks/${foreign.id}/test`, theirs.api_key, undefined)).body;
    const requests: [string, string][] = [
      ['GET', `/api/v1/webhooks/${foreign.id}`],
      ['PATCH', `/api/v1/webhooks/${foreign.id}`],
      ['DELETE', `/api/v1/webhooks/${foreign.id}`],
      ['POST', `/api/v1/webhooks/${foreign.id}/rotate-secret`],
      ['POST', `/api/v1/webhooks/${foreign.id}/test`],
      ['GET', `/api/v1/webhooks/${foreign.id}/deliveries`],
      ['GET', `/api/v1/webhooks/deliveries/${foreignDelivery.id}`],
      ['POST', `/api/v1/webhooks/deliveries/${foreignDelivery.id}/redeliver`],
    ];
    for (const [method, path] of requests) {
      const answer = await sendJson(h, method, path, key, method === 'PATCH' ? { active: false } : undefined);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
    }
    expect((await getJson(h, `/api/v1/webhooks/${foreign.id}`, { key: theirs.api_key })).body.active).toBe(true);
  });

  it('a key without the webhooks scope gets 403 INSUFFICIENT_SCOPE', async () => {
    const { id } = await subscribe();
    const narrow = await h.key(mine.workspace_id, ['contacts:read']);
    for (const [method, path] of [
      ['GET', '/api/v1/webhooks'],
      ['POST', '/api/v1/webhooks'],
      ['GET', `/api/v1/webhooks/${id}`],
      ['POST', `/api/v1/webhooks/${id}/test`],
    ] as const) {
      const answer = await sendJson(
        h,
        method,
        path,
        narrow,
        method === 'POST' && !path.endsWith('test') ? { url: RECEIVER, events: EVENTS } : undefined,
      );
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
  });
});

// The webhook subscription API in GraphQL: what a client can create, read, change and delete, the secret
// shown only on creation and rotation, validation (https, known event types), the SSRF guard at creation,
// workspace isolation and scope, the test event, the delivery log and redelivery rules.
// No delivery worker runs here: deliveries stay pending.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { EVENT_TYPES } from '../../resolvers/shared/outbox.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { resolveTestDns, workspacesCleanedAfterFile } from '../support/webhooks.js';

const h = await openHarness({ webhookTargets: createTargetGuard({ resolve: resolveTestDns }) });

const workspace = workspacesCleanedAfterFile(h);

const SUBSCRIPTION_FIELDS = 'id url events active disabled_reason disabled_at failing_since created_at updated_at';
const CREATE = `mutation ($url: String!, $events: [String!]!) { webhookCreate(url: $url, events: $events) { ${SUBSCRIPTION_FIELDS} secret } }`;
const DELIVERY_FIELDS = 'id subscription_id event_id event_type status attempt_count next_attempt_at last_error attempts { number }';

type Subscription = { id: string; url: string; events: string[]; active: boolean; disabled_reason: string | null; secret?: string };

async function create(key: string, url = 'https://hooks.crm.test/crm', events = ['message.received', 'message.status']) {
  const response = await h.graphql<{ webhookCreate: Subscription }>(key, CREATE, { url, events });
  return response;
}

async function createOk(key: string, url?: string, events?: string[]): Promise<Subscription> {
  const response = await create(key, url, events);
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.webhookCreate;
}

describe('webhookCreate', () => {
  it('creates a subscription and returns its whsec_ signing secret once', async () => {
    const { api_key } = await workspace();
    const created = await createOk(api_key);
    expect(created).toMatchObject({
      url: 'https://hooks.crm.test/crm',
      events: ['message.received', 'message.status'],
      active: true,
      disabled_reason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const stored = await h.db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.secret).not.toContain(created.secret!.slice(6));
    expect(h.services.secrets.open(stored.secret)).toBe(created.secret);
  });

  it('never shows the secret on reads: the field does not exist on WebhookSubscription', async () => {
    const { api_key } = await workspace();
    const created = await createOk(api_key);
    const read = await h.graphql(api_key, `query ($id: ID!) { webhook(id: $id) { id secret } }`, { id: created.id });
    expect(read.body.errors?.[0]?.message).toMatch(/Cannot query field "secret"/);
  });

  it('removes repeated event types', async () => {
    const { api_key } = await workspace();
    expect((await createOk(api_key, undefined, ['message.status', 'message.status'])).events).toEqual(['message.status']);
  });

  it.each([
    ['http://hooks.crm.test/crm', 'must be an https URL'],
    ['hooks.crm.test/crm', 'must be an absolute https URL'],
    ['https://user:pass@hooks.crm.test/crm', 'must not contain credentials'],
    [`https://hooks.crm.test/${'a'.repeat(2050)}`, 'must be at most 2048 characters'],
  ])('refuses the url %s: %s', async (url, reason) => {
    const { api_key } = await workspace();
    const response = await create(api_key, url);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { url: reason } });
  });

  it.each([
    [[], 'events', 'must name at least one event type'],
    [
      ['message.deleted'],
      'events.0',
      'must be one of message.received, message.status, message.created, conversation.updated, conversation.handoff, contact.consent, contact.created, tag.added, template.status',
    ],
    [
      ['webhook.test'],
      'events.0',
      'must be one of message.received, message.status, message.created, conversation.updated, conversation.handoff, contact.consent, contact.created, tag.added, template.status',
    ],
  ])('refuses the events %j', async (events, field, reason) => {
    const { api_key } = await workspace();
    const response = await create(api_key, undefined, events);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { [field]: reason } });
  });
});

describe('the SSRF guard at creation', () => {
  it.each([
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://127.1/hook', 'loopback'],
    ['https://2130706433/hook', 'loopback'],
    ['https://0x7f000001/hook', 'loopback'],
    ['https://[::1]/hook', 'loopback'],
    ['https://10.1.2.3/hook', 'private'],
    ['https://172.16.0.1/hook', 'private'],
    ['https://192.168.0.10:8443/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'linkLocal'],
    ['https://100.100.100.200/hook', 'metadata'],
    ['https://0.0.0.0/hook', 'unspecified'],
    ['https://224.0.0.1/hook', 'multicast'],
    ['https://255.255.255.255/hook', 'broadcast'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://[::127.0.0.1]/hook', 'loopback'],
    ['https://[::ffff:a9fe:a9fe]/hook', 'linkLocal'],
    ['https://[fe80::1]/hook', 'linkLocal'],
    ['https://[fd00:ec2::254]/hook', 'metadata'],
    ['https://[::]/hook', 'unspecified'],
    ['https://[64:ff9b::a00:1]/hook', 'private'],
    ['https://[2002:a00:1::]/hook', 'private'],
  ])('refuses %s, an internal address literal (%s)', async (url, range) => {
    const { api_key } = await workspace();
    const response = await create(api_key, url);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((response.body.errors?.[0]?.extensions['details'] as { url: string }).url).toMatch(
      new RegExp(`is an internal address \\(${range}\\)`),
    );
  });

  it.each([
    ['internal.crm.test', '10.0.0.5 (private)'],
    ['mixed.crm.test', '127.0.0.1 (loopback)'],
    ['metadata.crm.test', '169.254.169.254 (linkLocal)'],
    ['mapped.crm.test', '::ffff:192.168.1.10 (private)'],
    ['ula.crm.test', 'fd00:ec2::254 (metadata)'],
  ])('refuses %s, a name that resolves to an internal address', async (host, detail) => {
    const { api_key } = await workspace();
    const response = await create(api_key, `https://${host}/hook`);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { url: `${host} resolves to an internal address, ${detail}` },
    });
  });

  it('refuses a name that does not resolve', async () => {
    const { api_key } = await workspace();
    const response = await create(api_key, 'https://nowhere.crm.test/hook');
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ details: { url: 'nowhere.crm.test does not resolve' } });
  });

  it('checks a changed URL again on webhookUpdate', async () => {
    const { api_key } = await workspace();
    const created = await createOk(api_key);
    const response = await h.graphql(api_key, `mutation ($id: ID!, $url: String) { webhookUpdate(id: $id, url: $url) { id } }`, {
      id: created.id,
      url: 'https://internal.crm.test/hook',
    });
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { url: expect.stringContaining('10.0.0.5') },
    });
  });

  it('lets the internal hosts of WEBHOOK_ALLOWED_HOSTS through, and only those; never link-local or metadata addresses', async () => {
    const guard = createTargetGuard({ allowedHosts: ['127.0.0.1', 'internal.crm.test', '169.254.169.254'], resolve: resolveTestDns });
    expect(await guard.refusal('https://127.0.0.1:8443/hook')).toBeNull();
    expect(await guard.refusal('https://internal.crm.test/hook')).toBeNull();
    expect(await guard.refusal('https://10.0.0.5/hook')).toBe('10.0.0.5 is an internal address (private)');
    expect(await guard.refusal('https://169.254.169.254/latest/meta-data')).toBe('169.254.169.254 is an internal address (linkLocal)');
    expect(await guard.refusal('http://127.0.0.1/hook')).toBe('must be an https URL');
  });
});

describe('reading, changing and deleting subscriptions', () => {
  it('lists the workspace subscriptions, oldest first, and reads one', async () => {
    const { api_key } = await workspace();
    const first = await createOk(api_key);
    const second = await createOk(api_key, 'https://other.crm.test/x', ['message.status']);
    const list = await h.graphql<{ webhooks: { webhooks: { id: string }[] } }>(
      api_key,
      `{ webhooks { webhooks { id url events active } } }`,
    );
    expect(list.body.data?.webhooks.webhooks.map((item) => item.id)).toEqual([first.id, second.id]);
    const one = await h.graphql<{ webhook: Subscription }>(api_key, `query ($id: ID!) { webhook(id: $id) { ${SUBSCRIPTION_FIELDS} } }`, {
      id: second.id,
    });
    expect(one.body.data?.webhook).toMatchObject({ id: second.id, url: 'https://other.crm.test/x', events: ['message.status'] });
  });

  it('updates url and events; active: false records a manual disable and active: true clears it', async () => {
    const { api_key } = await workspace();
    const created = await createOk(api_key);
    const update = `mutation ($id: ID!, $url: String, $events: [String!], $active: Boolean) {
      webhookUpdate(id: $id, url: $url, events: $events, active: $active) { ${SUBSCRIPTION_FIELDS} } }`;
    const changed = await h.graphql<{ webhookUpdate: Subscription }>(api_key, update, {
      id: created.id,
      url: 'https://other.crm.test/new',
      events: ['message.status'],
    });
    expect(changed.body.data?.webhookUpdate).toMatchObject({ url: 'https://other.crm.test/new', events: ['message.status'], active: true });
    const off = await h.graphql<{ webhookUpdate: Subscription & { disabled_at: string } }>(api_key, update, {
      id: created.id,
      active: false,
    });
    expect(off.body.data?.webhookUpdate).toMatchObject({ active: false, disabled_reason: 'manual', disabled_at: expect.any(String) });
    const on = await h.graphql<{ webhookUpdate: Subscription }>(api_key, update, { id: created.id, active: true });
    expect(on.body.data?.webhookUpdate).toMatchObject({ active: true, disabled_reason: null, disabled_at: null, failing_since: null });
  });

  it('rotates the secret: a new one is returned and stored', async () => {
    const { api_key } = await workspace();
    const created = await createOk(api_key);
    const rotated = await h.graphql<{ webhookRotateSecret: Subscription }>(
      api_key,
      `mutation ($id: ID!) { webhookRotateSecret(id: $id) { id secret } }`,
      { id: created.id },
    );
    const secret = rotated.body.data!.webhookRotateSecret.secret!;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.secret);
    const stored = await h.db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: created.id } });
    expect(h.services.secrets.open(stored.secret)).toBe(secret);
  });

  it('deletes a subscription, returning it; afterwards it is not found', async () => {
    const { api_key } = await workspace();
    const created = await createOk(api_key);
    const deleted = await h.graphql<{ webhookDelete: { id: string } }>(
      api_key,
      `mutation ($id: ID!) { webhookDelete(id: $id) { id url } }`,
      { id: created.id },
    );
    expect(deleted.body.data?.webhookDelete).toEqual({ id: created.id, url: created.url });
    const again = await h.graphql(api_key, `query ($id: ID!) { webhook(id: $id) { id } }`, { id: created.id });
    expect(again.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("answers NOT_FOUND for another workspace's subscription, on every operation", async () => {
    const owner = await workspace();
    const stranger = await workspace();
    const created = await createOk(owner.api_key);
    for (const operation of [
      `query ($id: ID!) { webhook(id: $id) { id } }`,
      `query ($id: ID!) { webhookDeliveries(subscription_id: $id) { has_more } }`,
      `mutation ($id: ID!) { webhookUpdate(id: $id, active: false) { id } }`,
      `mutation ($id: ID!) { webhookDelete(id: $id) { id } }`,
      `mutation ($id: ID!) { webhookRotateSecret(id: $id) { id } }`,
      `mutation ($id: ID!) { webhookTest(id: $id) { id } }`,
    ]) {
      const response = await h.graphql(stranger.api_key, operation, { id: created.id });
      expect(response.body.errors?.[0]?.extensions, operation).toMatchObject({ code: 'NOT_FOUND' });
    }
    const list = await h.graphql<{ webhooks: { webhooks: unknown[] } }>(stranger.api_key, `{ webhooks { webhooks { id } } }`);
    expect(list.body.data?.webhooks.webhooks).toEqual([]);
  });

  it('needs the webhooks scope', async () => {
    const { workspace_id } = await workspace();
    const key = await h.key(workspace_id, ['messages']);
    const response = await create(key);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: ['webhooks'] } });
    const types = await h.graphql(key, '{ webhookEventTypes }');
    expect(types.body.errors?.[0]?.extensions).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: ['webhooks'] } });
  });

  it('lists every event type a subscription can name, each of which it accepts', async () => {
    const { api_key } = await workspace();
    const listed = await h.graphql<{ webhookEventTypes: string[] }>(api_key, '{ webhookEventTypes }');
    expect(listed.body.data?.webhookEventTypes).toEqual([...EVENT_TYPES]);
    const subscription = await createOk(api_key, 'https://hooks.crm.test/all', [...EVENT_TYPES]);
    expect(subscription.events).toEqual([...EVENT_TYPES]);
  });
});

describe('test events, the delivery log and redelivery', () => {
  it('webhookTest records a webhook.test event and one pending delivery to that subscription only', async () => {
    const { api_key, workspace_id } = await workspace();
    const created = await createOk(api_key);
    const other = await createOk(api_key, 'https://other.crm.test/x');
    const response = await h.graphql<{ webhookTest: { id: string; event_id: string } }>(
      api_key,
      `mutation ($id: ID!) { webhookTest(id: $id) { ${DELIVERY_FIELDS} } }`,
      { id: created.id },
    );
    const delivery = response.body.data!.webhookTest;
    expect(delivery).toMatchObject({
      subscription_id: created.id,
      event_type: 'webhook.test',
      status: 'pending',
      attempt_count: 0,
      attempts: [],
    });
    expect(delivery.event_id).toMatch(/^evt_[0-9a-f-]{36}$/);
    const event = await h.db.prisma.event.findUniqueOrThrow({ where: { id: delivery.event_id.slice(4) } });
    expect(JSON.parse(event.body)).toEqual({
      id: delivery.event_id,
      type: 'webhook.test',
      created_at: event.created_at.toISOString(),
      data: { subscription_id: created.id, note: expect.any(String) },
    });
    expect(event.company_id).toBe(workspace_id);
    expect(await h.db.prisma.webhookDelivery.count({ where: { subscription_id: other.id } })).toBe(0);
  });

  it('refuses a test event or a redelivery for an inactive subscription', async () => {
    const { api_key } = await workspace();
    const created = await createOk(api_key);
    await h.graphql(api_key, `mutation ($id: ID!) { webhookUpdate(id: $id, active: false) { id } }`, { id: created.id });
    const response = await h.graphql(api_key, `mutation ($id: ID!) { webhookTest(id: $id) { id } }`, { id: created.id });
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_TRANSITION' });
  });

  it('lists deliveries newest first with a cursor, filters by status, and reads one', async () => {
    const { api_key } = await workspace();
    const created = await createOk(api_key);
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      const sent = await h.graphql<{ webhookTest: { id: string } }>(api_key, `mutation ($id: ID!) { webhookTest(id: $id) { id } }`, {
        id: created.id,
      });
      ids.push(sent.body.data!.webhookTest.id);
    }
    const page = `query ($id: ID!, $cursor: ID, $status: String) {
      webhookDeliveries(subscription_id: $id, limit: 2, cursor: $cursor, status: $status) { data { id status } next_cursor has_more } }`;
    type Page = { webhookDeliveries: { data: { id: string }[]; next_cursor: string | null; has_more: boolean } };
    const first = await h.graphql<Page>(api_key, page, { id: created.id });
    expect(first.body.data?.webhookDeliveries).toMatchObject({ has_more: true, next_cursor: ids[1] });
    expect(first.body.data?.webhookDeliveries.data.map((item) => item.id)).toEqual([ids[2], ids[1]]);
    const second = await h.graphql<Page>(api_key, page, { id: created.id, cursor: ids[1] });
    expect(second.body.data?.webhookDeliveries).toEqual({ data: [{ id: ids[0], status: 'pending' }], next_cursor: null, has_more: false });
    const failed = await h.graphql<Page>(api_key, page, { id: created.id, status: 'failed' });
    expect(failed.body.data?.webhookDeliveries.data).toEqual([]);
    const badStatus = await h.graphql(api_key, page, { id: created.id, status: 'lost' });
    expect(badStatus.body.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { status: 'must be one of pending, held, succeeded, failed' },
    });
    const one = await h.graphql<{ webhookDelivery: { id: string } }>(
      api_key,
      `query ($id: ID!) { webhookDelivery(id: $id) { ${DELIVERY_FIELDS} } }`,
      { id: ids[0] },
    );
    expect(one.body.data?.webhookDelivery).toMatchObject({ id: ids[0], status: 'pending', next_attempt_at: expect.any(String) });
  });

  it('redelivers only a failed delivery', async () => {
    const { api_key } = await workspace();
    const created = await createOk(api_key);
    const sent = await h.graphql<{ webhookTest: { id: string } }>(api_key, `mutation ($id: ID!) { webhookTest(id: $id) { id } }`, {
      id: created.id,
    });
    const response = await h.graphql(api_key, `mutation ($id: ID!) { webhookRedeliver(id: $id) { id } }`, {
      id: sent.body.data!.webhookTest.id,
    });
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'Only a failed delivery can be redelivered; this one is pending',
      extensions: { code: 'INVALID_TRANSITION' },
    });
  });
});

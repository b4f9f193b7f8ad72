// Live updates as a dashboard receives them: GraphQL subscriptions over SSE, read by the graphql-sse client
// package against the service on a real port. An inbound WhatsApp message (posted to the provider webhook) and
// an API send reach a subscriber; a subscriber of one conversation sees only it; one that reconnects with the
// last event id it saw gets what it missed, in order, then live events; a key of another workspace hears
// nothing; a key without the conversations scope is refused; on PostgreSQL, a transaction of another database on the
// server delays nothing. Subscribers asking the same share one execution per
// event (infra/graphql/sharedLiveResults.ts): each still gets the answer to its own document and variables.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-sse';
import { openMessagingWorld } from '../support/messaging.js';
import { inboundPayload } from '../support/whatsappPayloads.js';
import { holdTransactionInAnotherDatabase } from '../support/otherDatabase.js';

const world = await openMessagingWorld('sandbox', { rateLimitPerMinute: 100_000 });
const h = world.harness;
const http = createServer(h.app.yoga);
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/graphql`;
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) client.dispose();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

type Live = { id: string; type: string; conversation_id: string | null; message: { id: string; body: string; direction: string } | null };

/** A subscription that collects what arrives; `next(n)` waits for the first n events. */
function subscribe(key: string, field: string, args: Record<string, string> = {}) {
  const client = createClient({ url, headers: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
  clients.push(client);
  const received: Live[] = [];
  const errors: unknown[] = [];
  const params = Object.keys(args).map((name) => `${name}: "${args[name]}"`);
  const query = `subscription { ${field}${params.length ? `(${params.join(', ')})` : ''} { id type conversation_id message { id body direction } } }`;
  const stop = client.subscribe<Record<string, Live>>(
    { query },
    {
      next: (result) => {
        if (result.errors) errors.push(...result.errors);
        if (result.data) received.push(result.data[field]!);
      },
      error: (error) => errors.push(error),
      complete: () => {},
    },
  );
  return {
    received,
    errors,
    stop,
    async next(count: number) {
      await expect.poll(() => received.length, { timeout: 5000 }).toBeGreaterThanOrEqual(count);
      return received.slice(0, count);
    },
  };
}

/** Subscribers join asynchronously; wait until the hub counts them before causing events. */
async function joined(count: number) {
  await expect.poll(() => h.services.events.subscriberCount(), { timeout: 5000 }).toBeGreaterThanOrEqual(count);
}

async function inbound(ws: Awaited<ReturnType<typeof world.workspace>>, text: string, from = `1555${randomInt(1_000_000, 9_999_999)}`) {
  const response = await world.webhook(inboundPayload(ws.phoneNumberId, { from, text }), ws.appSecret);
  expect(response.status).toBe(200);
  return from;
}

describe('subscriptions over SSE', () => {
  it('deliver inbound messages and sends to the workspace, only the asked conversation to a conversation subscriber, nothing to another workspace, and end when the client leaves', async () => {
    const ws = await world.workspace();
    const stranger = await world.workspace();
    const from = await inbound(ws, 'first');
    const conversation = await h.db.prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    const before = h.services.events.subscriberCount();
    const all = subscribe(ws.apiKey, 'messageCreated');
    const one = subscribe(ws.apiKey, 'messageCreated', { conversation_id: conversation.id });
    const statuses = subscribe(ws.apiKey, 'messageStatusChanged');
    const outsider = subscribe(stranger.apiKey, 'messageCreated');
    await joined(before + 4);

    await inbound(ws, 'Where is my parcel?', from);
    await inbound(ws, 'Another customer');
    const sent = await h.graphql<{ messageSend: { message: { id: string } } }>(
      ws.apiKey,
      'mutation ($id: ID!) { messageSend(conversation_id: $id, body: "On its way") { message { id } } }',
      { id: conversation.id },
    );
    expect(sent.body.errors).toBeUndefined();

    const events = await all.next(3);
    expect(events.map((event) => [event.type, event.message?.body])).toEqual([
      ['message.received', 'Where is my parcel?'],
      ['message.received', 'Another customer'],
      ['message.created', 'On its way'],
    ]);
    expect(await one.next(2)).toEqual([events[0], events[2]]);
    const status = await statuses.next(1);
    expect(status[0]).toMatchObject({
      type: 'message.status',
      conversation_id: conversation.id,
      message: { id: sent.body.data!.messageSend.message.id },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(outsider.received).toEqual([]);
    expect(one.received.every((event) => event.conversation_id === conversation.id)).toBe(true);
    for (const subscription of [all, one, statuses, outsider]) expect(subscription.errors).toEqual([]);
    // A client that goes away leaves at once, without waiting for another event of its workspace.
    for (const subscription of [all, one, statuses, outsider]) subscription.stop();
    await expect.poll(() => h.services.events.subscriberCount(), { timeout: 5000 }).toBe(before);
  });

  it('resumes after the last event id seen: the missed events first, in order, then live ones', async () => {
    const ws = await world.workspace();
    const before = h.services.events.subscriberCount();
    const first = subscribe(ws.apiKey, 'messageCreated');
    await joined(before + 1);
    await inbound(ws, 'one');
    const [seen] = await first.next(1);
    first.stop();
    await inbound(ws, 'two');
    await inbound(ws, 'three');
    const resumed = subscribe(ws.apiKey, 'messageCreated', { after: seen!.id });
    const missed = await resumed.next(2);
    expect(missed.map((event) => event.message?.body)).toEqual(['two', 'three']);
    await inbound(ws, 'four');
    const all = await resumed.next(3);
    expect(all.map((event) => event.message?.body)).toEqual(['two', 'three', 'four']);
    expect(new Set(all.map((event) => event.id)).size).toBe(3);
  });

  it('share one answer among subscribers asking the same, yet answer each its own document and variables, and keep the others when one leaves', async () => {
    const ws = await world.workspace();
    const before = h.services.events.subscriberCount();
    type Answer = Record<string, unknown>;
    const live = (query: string, variables: Record<string, unknown> = {}) => {
      const client = createClient({ url, headers: { authorization: `Bearer ${ws.apiKey}` }, retryAttempts: 0 });
      clients.push(client);
      const received: Answer[] = [];
      const stop = client.subscribe<Answer>(
        { query, variables },
        { next: (result) => received.push(result as Answer), error: (error) => received.push({ error }), complete: () => {} },
      );
      return { received, stop };
    };
    const same = 'subscription ($withBody: Boolean!) { messageCreated { type message { body @include(if: $withBody) direction } } }';
    const twins = [live(same, { withBody: true }), live(same, { withBody: true }), live(same, { withBody: true })];
    const withoutBody = live(same, { withBody: false });
    const other = live('subscription { messageCreated { message { direction body } } }');
    await joined(before + 5);
    twins[2]!.stop();
    await expect.poll(() => h.services.events.subscriberCount(), { timeout: 5000 }).toBe(before + 4);
    await inbound(ws, 'first');
    await inbound(ws, 'second');
    const answer = (body: string) => ({ data: { messageCreated: { type: 'message.received', message: { body, direction: 'inbound' } } } });
    for (const twin of twins.slice(0, 2)) {
      await expect.poll(() => twin.received.length, { timeout: 5000 }).toBe(2);
      expect(twin.received).toEqual([answer('first'), answer('second')]);
    }
    expect(twins[2]!.received).toEqual([]);
    await expect.poll(() => withoutBody.received.length, { timeout: 5000 }).toBe(2);
    expect(withoutBody.received).toEqual([
      { data: { messageCreated: { type: 'message.received', message: { direction: 'inbound' } } } },
      { data: { messageCreated: { type: 'message.received', message: { direction: 'inbound' } } } },
    ]);
    await expect.poll(() => other.received.length, { timeout: 5000 }).toBe(2);
    // Its own selection, in its own order.
    expect(other.received.map((received) => JSON.stringify(received))).toEqual([
      '{"data":{"messageCreated":{"message":{"direction":"inbound","body":"first"}}}}',
      '{"data":{"messageCreated":{"message":{"direction":"inbound","body":"second"}}}}',
    ]);
  });

  it('tell a conversation subscriber when the conversation is assigned, closed and reopened, with no message attached', async () => {
    const ws = await world.workspace();
    await inbound(ws, 'hello');
    const conversation = await h.db.prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    const before = h.services.events.subscriberCount();
    const watcher = subscribe(ws.apiKey, 'conversationChanged', { conversation_id: conversation.id });
    await joined(before + 1);
    const change = (mutation: string) => h.graphql(ws.apiKey, `mutation ($id: ID!) { ${mutation} { id } }`, { id: conversation.id });
    await change(`conversationUpdate(id: $id, assigned_user_id: "${ws.userId}")`);
    await change('conversationClose(id: $id)');
    await change('conversationReopen(id: $id)');
    const events = await watcher.next(3);
    expect(events.map((event) => [event.type, event.conversation_id, event.message])).toEqual([
      ['conversation.updated', conversation.id, null],
      ['conversation.updated', conversation.id, null],
      ['conversation.updated', conversation.id, null],
    ]);
    expect(watcher.errors).toEqual([]);
  });

  it.skipIf(!process.env['TEST_DATABASE_URL'])(
    'deliver an inbound message while a transaction of another database on the server runs (PostgreSQL)',
    async () => {
      const ws = await world.workspace();
      const before = h.services.events.subscriberCount();
      const all = subscribe(ws.apiKey, 'messageCreated');
      await joined(before + 1);
      const release = await holdTransactionInAnotherDatabase();
      try {
        await inbound(ws, 'Sent while another application works');
        expect((await all.next(1))[0]!.message?.body).toBe('Sent while another application works');
      } finally {
        await release();
        all.stop();
      }
    },
  );

  it('refuses a key without the conversations scope, and an after that is not an event of the workspace', async () => {
    const ws = await world.workspace();
    const narrow = await h.key(ws.workspaceId, ['webhooks']);
    const refused = subscribe(narrow, 'messageCreated');
    const unknown = subscribe(ws.apiKey, 'messageCreated', { after: 'evt_00000000-0000-7000-8000-000000000000' });
    for (const [subscription, status, code] of [
      [refused, 403, 'INSUFFICIENT_SCOPE'],
      [unknown, 400, 'VALIDATION_ERROR'],
    ] as const) {
      await expect.poll(() => subscription.errors.length, { timeout: 5000 }).toBeGreaterThan(0);
      // graphql-sse reports a refused stream as a NetworkError carrying the HTTP response.
      const { response } = subscription.errors[0] as { response: Response };
      expect(response.status).toBe(status);
      expect(await response.text()).toContain(`"code":"${code}"`);
    }
  });
});

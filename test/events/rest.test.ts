// The event feed as an integrator uses it (GET /api/v1/events, Stripe's events list as the model): a receiver
// that was down catches up from the last event it processed and gets exactly the events it missed, each the
// webhook body byte for byte; paging, the type filter, workspace isolation and a bad cursor; the workers'
// pruning after EVENT_RETENTION_DAYS; the order of transactions whose ids cross a power of ten, and where a live
// subscription starts among them; and, on PostgreSQL, that an event committed late by a longer transaction
// never falls behind a reader's cursor, while a transaction of another database on the server holds nothing back.
import { describe, expect, it, onTestFinished } from 'vitest';
import { openHarness } from '../support/harness.js';
import { LOCAL_RECEIVER_HOSTS, startReceiver } from '../support/webhookReceiver.js';
import { recordMessageEvents, takeTurnsWithOtherWorkerFiles, testDeliveryOptions } from '../support/webhooks.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { createLogger } from '../../infra/observability/logger.js';
import { startDeliveryWorker } from '../../workers/webhooks/worker.js';
import { startEventPruner } from '../../workers/events/pruner.js';
import { getJson } from '../support/restFixtures.js';
import { feedHead } from '../../resolvers/events/feed.js';
import { holdTransactionInAnotherDatabase } from '../support/otherDatabase.js';

takeTurnsWithOtherWorkerFiles();
const h = await openHarness({ webhookTargets: createTargetGuard({ allowedHosts: LOCAL_RECEIVER_HOSTS }), rateLimitPerMinute: 100_000 });
const logger = createLogger('silent');
const prisma = h.db.prisma;

type Envelope = { id: string; type: string; created_at: string; data: Record<string, unknown> };
type EventPage = { data: Envelope[]; next_cursor: string | null; has_more: boolean };

/** Every event after `after`, read page by page as a client does; also the raw bytes of each item. */
async function catchUp(key: string, after: string | null, query = '', limit = 2) {
  const events: Envelope[] = [];
  const raw: string[] = [];
  let cursor = after;
  for (;;) {
    const response = await h.fetch(`/api/v1/events?limit=${limit}${cursor ? `&after=${cursor}` : ''}${query}`, { key });
    expect(response.status).toBe(200);
    const text = await response.text();
    const page = JSON.parse(text) as EventPage;
    events.push(...page.data);
    raw.push(...page.data.map((item) => JSON.stringify(item)));
    if (!page.has_more) return { events, raw, last: page.data.at(-1)?.id ?? cursor };
    expect(page.next_cursor).toBe(page.data.at(-1)!.id);
    cursor = page.next_cursor;
  }
}

describe('the event feed', () => {
  it('gives a receiver that was down exactly the events it missed, byte for byte, in order', async () => {
    const workspace = await h.workspace();
    let down = false;
    const receiver = await startReceiver({ answer: () => (down ? 503 : 200) });
    onTestFinished(() => receiver.close());
    const created = await h.graphql<{ webhookCreate: { secret: string } }>(
      workspace.api_key,
      'mutation ($url: String!) { webhookCreate(url: $url, events: ["message.received", "message.status"]) { secret } }',
      { url: receiver.url },
    );
    receiver.secrets.push(created.body.data!.webhookCreate.secret);
    const worker = startDeliveryWorker(h.services, await testDeliveryOptions(), logger);
    onTestFinished(() => worker.stop());

    const before = await recordMessageEvents(prisma, workspace.workspace_id, 3, 'message.received');
    await receiver.waitFor('the first events', () => receiver.deliveredEventIds().size === 3);
    // Deliveries run side by side with no ordering promise: the receiver has all three, and resumes the feed
    // from the last of them in the feed's order.
    expect(receiver.deliveredEventIds()).toEqual(new Set(before.map((event) => event.id)));
    const lastProcessed = before.at(-1)!.id;

    down = true;
    const missed = [
      ...(await recordMessageEvents(prisma, workspace.workspace_id, 3, 'message.received')),
      ...(await recordMessageEvents(prisma, workspace.workspace_id, 2, 'message.status')),
    ];
    await receiver.waitFor('failed attempts', () => receiver.requests.length > 3);
    await worker.stop();

    const { events, raw, last } = await catchUp(workspace.api_key, lastProcessed);
    expect(events.map((event) => event.id)).toEqual(missed.map((event) => event.id));
    const stored = await prisma.event.findMany({ where: { company_id: workspace.workspace_id } });
    const bodies = new Map(stored.map((event) => [`evt_${event.id}`, event.body]));
    expect(raw).toEqual(events.map((event) => bodies.get(event.id)));
    expect(last).toBe(missed.at(-1)!.id);
    expect((await catchUp(workspace.api_key, last)).events).toEqual([]);
  });

  it('filters by type, keeps workspaces apart, and refuses an after that is not an event of the workspace', async () => {
    const workspace = await h.workspace();
    const other = await h.workspace();
    const received = await recordMessageEvents(prisma, workspace.workspace_id, 2, 'message.received');
    const statuses = await recordMessageEvents(prisma, workspace.workspace_id, 2, 'message.status');
    const theirs = await recordMessageEvents(prisma, other.workspace_id, 1, 'message.received');
    expect((await catchUp(workspace.api_key, null, '', 50)).events.map((event) => event.id)).toEqual(
      [...received, ...statuses].map((event) => event.id),
    );
    expect((await catchUp(workspace.api_key, null, '&type=message.status')).events.map((event) => event.id)).toEqual(
      statuses.map((event) => event.id),
    );
    for (const query of [`?after=${theirs[0]!.id}`, '?after=evt_nope', '?type=message.sent', '?limit=101']) {
      const { status, body } = await getJson(h, `/api/v1/events${query}`, { key: workspace.api_key });
      expect(status, query).toBe(400);
      expect(body.error.code).toBe('VALIDATION_ERROR');
    }
    const narrow = await h.key(workspace.workspace_id, ['conversations']);
    expect((await getJson(h, '/api/v1/events', { key: narrow })).status).toBe(403);
  });

  // Transaction ids grow past each power of ten in a database's life (…, 9, 10, …, 99,999, 100,000): the feed is
  // ordered by their number, not by their text, in which "10" sorts before "9". Four events recorded in transactions 8,
  // 9, 10 and 11 (given explicitly, as a database reaches such ids only over its life), their ids in the reverse order.
  it('reads events in transaction order across a power of ten, page by page', async () => {
    const workspace = await h.workspace();
    const recorded = await recordMessageEvents(prisma, workspace.workspace_id, 4, 'message.received');
    for (const [index, event] of recorded.entries()) {
      await prisma.event.update({ where: { id: event.id.slice('evt_'.length) }, data: { tx_id: BigInt(11 - index) } });
    }
    const inTransactionOrder = recorded.map((event) => event.id).reverse();
    expect((await catchUp(workspace.api_key, null, '', 1)).events.map((event) => event.id)).toEqual(inTransactionOrder);
    expect((await catchUp(workspace.api_key, null, '', 100)).events.map((event) => event.id)).toEqual(inTransactionOrder);
    // Where a live subscription starts: after the last of them.
    expect((await feedHead(prisma, workspace.workspace_id))?.id).toBe(inTransactionOrder.at(-1)!.slice('evt_'.length));
  });

  it('is pruned by the workers after EVENT_RETENTION_DAYS, newer events kept', async () => {
    const workspace = await h.workspace();
    const old = await recordMessageEvents(prisma, workspace.workspace_id, 2, 'message.received');
    const recent = await recordMessageEvents(prisma, workspace.workspace_id, 1, 'message.received');
    await prisma.event.updateMany({
      where: { id: { in: old.map((event) => event.id.slice('evt_'.length)) } },
      data: { created_at: new Date(Date.now() - 31 * 86_400_000) },
    });
    const pruner = startEventPruner(h.services, { retentionDays: 30, pollMs: 60_000 }, logger);
    onTestFinished(() => pruner.stop());
    await expect.poll(() => prisma.event.count({ where: { company_id: workspace.workspace_id } })).toBe(1);
    expect((await catchUp(workspace.api_key, null)).events.map((event) => event.id)).toEqual([recent[0]!.id]);
  });

  it.skipIf(!process.env['TEST_DATABASE_URL'])(
    'never lets an event committed late by a longer transaction fall behind a reader (PostgreSQL, concurrent transactions)',
    async () => {
      const workspace = await h.workspace();
      const [start] = await recordMessageEvents(prisma, workspace.workspace_id, 1, 'message.received');
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let recorded!: () => void;
      const inside = new Promise<void>((resolve) => (recorded = resolve));
      // A transaction that records an event (taking its transaction id) and then waits before committing.
      const slow = prisma.$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_current_xact_id()`;
          const id = crypto.randomUUID();
          const envelope = { id: `evt_${id}`, type: 'message.received', created_at: new Date().toISOString(), data: {} };
          await tx.event.create({ data: { id, company_id: workspace.workspace_id, type: envelope.type, body: JSON.stringify(envelope) } });
          recorded();
          await held;
        },
        { timeout: 20_000 },
      );
      await inside;
      const [fast] = await recordMessageEvents(prisma, workspace.workspace_id, 1, 'message.received');
      const whileHeld = await catchUp(workspace.api_key, start!.id);
      expect(whileHeld.events).toEqual([]);
      release();
      await slow;
      const after = await catchUp(workspace.api_key, start!.id);
      // The slow event comes first (its transaction began first), and the reader that saw nothing while it was held
      // now gets both, without a gap.
      expect(after.events).toHaveLength(2);
      expect(after.events[0]!.data).toEqual({});
      expect(after.events[1]!.id).toBe(fast!.id);
    },
  );

  it.skipIf(!process.env['TEST_DATABASE_URL'])(
    'gives events at once while a transaction of another database on the server runs (PostgreSQL)',
    async () => {
      const workspace = await h.workspace();
      const [start] = await recordMessageEvents(prisma, workspace.workspace_id, 1, 'message.received');
      const release = await holdTransactionInAnotherDatabase();
      try {
        const recorded = await recordMessageEvents(prisma, workspace.workspace_id, 2, 'message.received');
        const caughtUp = await catchUp(workspace.api_key, start!.id);
        expect(caughtUp.events.map((event) => event.id)).toEqual(recorded.map((event) => event.id));
        expect((await feedHead(prisma, workspace.workspace_id))?.id).toBe(recorded[1]!.id.slice('evt_'.length));
      } finally {
        await release();
      }
    },
  );
});

// Reading conversations' messages over REST and GraphQL, as a dashboard or an integrator does: paging a
// conversation of 1,000 messages both ways with no gap or repeat, one message with every part of its record,
// search, the messaging window, workspace isolation, and a page of conversations with their last messages in
// a fixed number of queries however long the page.
import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { openHarness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';
import { createApp } from '../../app/createApp.js';
import { createEdge } from '../../app/edge.js';
import { loadSettings } from '../../infra/config/settings.js';
import { createLogger } from '../../infra/observability/logger.js';
import { getJson, sendJson } from '../support/restFixtures.js';

const h = await openHarness({ rateLimitPerMinute: 100_000 });
const shop = await h.workspace('Transcripts');
const other = await h.workspace('Elsewhere');
const prisma = h.db.prisma;

let phones = 0;
async function contact(workspaceId = shop.workspace_id) {
  return prisma.customer.create({
    data: { company_id: workspaceId, name: 'Ada', phone_number: `+4479${String(++phones).padStart(8, '0')}` },
  });
}

type Page = { data: { id: string; body: string }[]; next_cursor: string | null; has_more: boolean };

async function page(path: string, key = shop.api_key): Promise<Page> {
  const { status, body } = await getJson(h, path, { key });
  expect(status, JSON.stringify(body)).toBe(200);
  return body as Page;
}

describe('a conversation of 1,000 messages', async () => {
  const conversation = await seedConversation(prisma, shop, (await contact()).id);
  await prisma.message.createMany({
    data: Array.from({ length: 1000 }, (_, index) => ({
      company_id: shop.workspace_id,
      conversation_id: conversation.id,
      direction: index % 2 ? 'outbound' : 'inbound',
      body: `Line ${index}`,
      status: index % 2 ? 'sent' : 'received',
    })),
  });
  const newestFirst = (await prisma.message.findMany({ where: { conversation_id: conversation.id }, orderBy: { id: 'desc' } })).map(
    (m) => m.id,
  );
  const base = `/api/v1/conversations/${conversation.id}/messages`;

  it('pages to older messages with next_cursor as before: every message once, newest first, default 50 a page', async () => {
    const first = await page(base);
    expect(first.data).toHaveLength(50);
    const seen = [...first.data.map((m) => m.id)];
    let cursor = first.next_cursor;
    while (cursor) {
      const next = await page(`${base}?limit=100&before=${cursor}`);
      seen.push(...next.data.map((m) => m.id));
      expect(next.has_more).toBe(next.next_cursor !== null);
      cursor = next.next_cursor;
    }
    expect(seen).toEqual(newestFirst);
  });

  it('pages to newer messages with next_cursor as after: each page newest first, the pages joining with no gap', async () => {
    const seen: string[] = [];
    let cursor: string | null = '00000000-0000-0000-0000-000000000000';
    let pages = 0;
    while (cursor) {
      const next = await page(`${base}?limit=100&after=${cursor}`);
      const ids = next.data.map((m) => m.id);
      expect(ids).toEqual([...ids].sort().reverse());
      seen.push(...ids.reverse());
      cursor = next.next_cursor;
      pages += 1;
    }
    expect(pages).toBe(10);
    expect(seen).toEqual([...newestFirst].reverse());
    const caughtUp = await page(`${base}?after=${newestFirst[0]}`);
    expect(caughtUp).toEqual({ data: [], next_cursor: null, has_more: false });
  });

  it('answers the same page through GraphQL, on the conversation and as a root field', async () => {
    const rest = await page(`${base}?limit=3&before=${newestFirst[10]}`);
    const { body } = await h.graphql<{ conversation: { messages: Page }; conversationMessages: Page }>(
      shop.api_key,
      `query ($id: ID!, $before: ID) {
        conversation(id: $id) { messages(limit: 3, before: $before) { data { id body } next_cursor has_more } }
        conversationMessages(conversation_id: $id, limit: 3, before: $before) { data { id body } next_cursor has_more }
      }`,
      { id: conversation.id, before: newestFirst[10] },
    );
    const slim = { ...rest, data: rest.data.map(({ id, body }) => ({ id, body })) };
    expect(body.data?.conversation.messages).toEqual(slim);
    expect(body.data?.conversationMessages).toEqual(slim);
    expect(slim.data.map((m) => m.id)).toEqual(newestFirst.slice(11, 14));
  });

  it('refuses a bad limit, a cursor that is not a message id, and before with after (400 VALIDATION_ERROR)', async () => {
    for (const query of ['?limit=0', '?limit=101', '?before=x', `?before=${newestFirst[1]}&after=${newestFirst[5]}`]) {
      const { status, body } = await getJson(h, `${base}${query}`, { key: shop.api_key });
      expect(status, query).toBe(400);
      expect(body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it("is not found for another workspace's key, as are its messages one by one", async () => {
    for (const path of [base, `/api/v1/messages/${newestFirst[0]}`]) {
      const { status, body } = await getJson(h, path, { key: other.api_key });
      expect(status).toBe(404);
      expect(body.error.code).toBe('NOT_FOUND');
    }
    const search = await page(`/api/v1/messages/search?q=Line`, other.api_key);
    expect(search.data).toEqual([]);
  });
});

describe('one message', () => {
  it('records who sent it, its type, template and delivery times as the sandbox reports them', async () => {
    const conversation = await seedConversation(prisma, shop, (await contact()).id, { messages: ['Where is my order?'] });
    const sent = await sendJson(h, 'POST', '/api/v1/messages', shop.api_key, { conversation_id: conversation.id, body: 'On its way' });
    expect(sent.status).toBe(201);
    const id = sent.body.message.id as string;
    expect(Object.keys(sent.body.message).sort()).toEqual(['body', 'conversation_id', 'created_at', 'direction', 'id', 'status']);
    let record: Record<string, any> = {};
    await expect
      .poll(async () => {
        record = (await getJson(h, `/api/v1/messages/${id}`, { key: shop.api_key })).body;
        return record['status'];
      })
      .toBe('read');
    const apiKey = await prisma.apiKey.findFirstOrThrow({ where: { company_id: shop.workspace_id } });
    expect(record).toMatchObject({
      id,
      conversation_id: conversation.id,
      body: 'On its way',
      direction: 'outbound',
      type: 'text',
      media: null,
      template: null,
      sender: { type: 'api_key', id: apiKey.id },
      reply_to_message_id: null,
      error: null,
      failed_at: null,
      provider_message_id: expect.any(String),
    });
    const times = ['created_at', 'sent_at', 'delivered_at', 'read_at'].map((field) => Date.parse(record[field]));
    expect(times.every(Number.isFinite)).toBe(true);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const inbound = await prisma.message.findFirstOrThrow({ where: { conversation_id: conversation.id, direction: 'inbound' } });
    const { body } = await getJson(h, `/api/v1/messages/${inbound.id}`, { key: shop.api_key });
    expect(body).toMatchObject({ direction: 'inbound', status: 'received', sender: { type: 'contact', id: conversation.customer_id } });
    // The conversation's page reads its messages by a statement of its own (timestamps as text): every field the same.
    const page = await getJson(h, `/api/v1/conversations/${conversation.id}/messages`, { key: shop.api_key });
    expect(page.body.data).toEqual([record, body]);
  });

  it('is a 404 when it does not exist and a 400 when the id is not a UUID', async () => {
    expect((await getJson(h, '/api/v1/messages/0196a000-0000-7000-8000-000000000000', { key: shop.api_key })).status).toBe(404);
    expect((await getJson(h, '/api/v1/messages/nope', { key: shop.api_key })).status).toBe(400);
  });
});

describe('search', () => {
  it('finds messages containing q in any case, newest first, within one conversation when asked, paging with cursor', async () => {
    const first = await seedConversation(prisma, shop, (await contact()).id, {
      messages: ['Parcel ZX-41 is late', 'thanks', 'parcel zx-41 arrived', 'unrelated'],
    });
    const second = await seedConversation(prisma, shop, (await contact()).id, { messages: ['Is PARCEL zx-41 yours?'] });
    const all = await page('/api/v1/messages/search?q=parcel%20zx-41&limit=2');
    expect(all.data.map((m) => m.body)).toEqual(['Is PARCEL zx-41 yours?', 'parcel zx-41 arrived']);
    expect(all.has_more).toBe(true);
    const rest = await page(`/api/v1/messages/search?q=parcel%20zx-41&limit=2&cursor=${all.next_cursor}`);
    expect(rest).toMatchObject({ data: [{ body: 'Parcel ZX-41 is late' }], has_more: false, next_cursor: null });
    const inFirst = await page(`/api/v1/messages/search?q=ZX-41&conversation_id=${first.id}`);
    expect(inFirst.data.map((m) => m.body)).toEqual(['parcel zx-41 arrived', 'Parcel ZX-41 is late']);
    expect(second.id).not.toBe(first.id);
    for (const query of ['?q=', '?q=%20', `?q=x&conversation_id=nope`]) {
      expect((await getJson(h, `/api/v1/messages/search${query}`, { key: shop.api_key })).status, query).toBe(400);
    }
    const foreign = await seedConversation(prisma, other, (await contact(other.workspace_id)).id);
    expect((await getJson(h, `/api/v1/messages/search?q=x&conversation_id=${foreign.id}`, { key: shop.api_key })).status).toBe(404);
  });
});

describe('conversations with their last messages', () => {
  it('tells whether the 24-hour window is open, and when it closes', async () => {
    const lastInbound = new Date(Date.now() - 3600_000);
    const open = await seedConversation(prisma, shop, (await contact()).id, { lastMessageAt: lastInbound });
    const stale = await seedConversation(prisma, shop, (await contact()).id, { lastMessageAt: new Date(Date.now() - 30 * 3600_000) });
    const query = `query ($id: ID!) { conversation(id: $id) { messaging_window { open closes_at } } }`;
    const window = async (id: string) => (await h.graphql<any>(shop.api_key, query, { id })).body.data.conversation.messaging_window;
    expect(await window(open.id)).toEqual({ open: true, closes_at: new Date(lastInbound.getTime() + 86_400_000).toISOString() });
    expect((await window(stale.id)).open).toBe(false);
  });

  it('reads a page of 50 conversations with their last messages in at most two queries, as a page of 5', async () => {
    const reader = await h.workspace('Reader');
    const conversations = [];
    for (let index = 0; index < 50; index += 1) {
      const conversation = await seedConversation(prisma, reader, (await contact(reader.workspace_id)).id, {
        lastMessageAt: new Date(Date.now() - index * 1000),
        messages: [`first ${index}`, `last ${index}`],
      });
      conversations.push(conversation);
    }
    const statements: string[] = [];
    const counted = prisma.$extends({
      query: {
        $allOperations({ model, operation, args, query }) {
          if (model === 'Conversation' || model === 'Message') statements.push(`${model}.${operation}`);
          return query(args);
        },
      },
    }) as unknown as PrismaClient;
    const logger = createLogger('silent');
    const app = createApp(
      { ...h.services, prisma: counted },
      { graphiql: false, logger, edge: createEdge(loadSettings({}), { logger }), sessionStore: h.sessionStore() },
    );
    const read = async (limit: number) => {
      statements.length = 0;
      const response = await app.yoga.fetch('http://service.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${reader.api_key}` },
        body: JSON.stringify({
          query: `query ($limit: Int) { conversations(limit: $limit) { data { id last_message { body direction } messaging_window { open } } } }`,
          variables: { limit },
        }),
      });
      const body = (await response.json()) as { data: { conversations: { data: { id: string; last_message: { body: string } }[] } } };
      return { data: body.data.conversations.data, statements: [...statements] };
    };
    const small = await read(5);
    const large = await read(50);
    expect(large.data).toHaveLength(50);
    expect(large.data.map((c) => c.last_message.body)).toEqual(conversations.map((_, index) => `last ${index}`));
    // The list reads conversations with a message, then (when the page is not full) those without: at most two
    // reads, each with its last messages joined in; never a read of messages per conversation.
    for (const { statements } of [small, large]) {
      expect(statements.every((statement) => statement === 'Conversation.findMany')).toBe(true);
      expect(statements.length).toBeLessThanOrEqual(2);
    }
  });
});

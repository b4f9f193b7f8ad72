// What messages cost, through the Graph API fake: its status webhooks carry Meta's `pricing` object, which is stored
// on each message (shown by GET /api/v1/messages/{id}'s operation) and counted by category and day, billable apart, in
// the workspace's time zone, by GET /api/v1/analytics/messages-by-category.
import { describe, expect, it } from 'vitest';
import { openMessagingWorld } from '../support/messaging.js';
import { inboundPayload } from '../support/whatsappPayloads.js';

const world = await openMessagingWorld('whatsapp');
const { harness } = world;
const prisma = harness.db.prisma;

describe('message pricing', () => {
  it('stores the pricing of status webhooks per message and counts messages and billable ones by category and day', async () => {
    const ws = await world.workspace();
    await prisma.workspace.update({ where: { id: ws.workspaceId }, data: { time_zone: 'Pacific/Kiritimati' } });
    const from = `1555${String(Date.now()).slice(-7)}`;
    expect((await world.webhook(inboundPayload(ws.phoneNumberId, { from, text: 'Hi' }), ws.appSecret)).status).toBe(200);
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    const send = (body: Record<string, unknown>) =>
      harness.fetch('/api/v1/messages', {
        method: 'POST',
        key: ws.apiKey,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ conversation_id: conversation.id, ...body }),
      });
    expect((await send({ body: 'Thanks for writing' })).status).toBe(201);
    const template = { name: 'order_confirmation', language: 'en_US', parameters: ['A-1001', 'Ana', 'Friday'] };
    expect((await send({ template })).status).toBe(201);
    await world.graph!.settle();

    const messages = await prisma.message.findMany({
      where: { company_id: ws.workspaceId, direction: 'outbound' },
      orderBy: { id: 'asc' },
    });
    expect(messages.map((message) => message.pricing)).toEqual([
      { billable: false, category: 'service', pricing_model: 'PMP', type: 'free_customer_service' },
      { billable: true, category: 'utility', pricing_model: 'PMP', type: 'regular' },
    ]);
    const gql = await harness.graphql<{ message: { pricing: unknown } }>(
      ws.apiKey,
      'query($id: ID!) { message(id: $id) { pricing { billable category pricing_model type } } }',
      {
        id: messages[1]!.id,
      },
    );
    expect(gql.body.data?.message.pricing).toEqual({ billable: true, category: 'utility', pricing_model: 'PMP', type: 'regular' });

    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(messages[0]!.created_at);
    const range = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`;
    const answer = await harness.fetch(`/api/v1/analytics/messages-by-category?${range}`, { key: ws.apiKey });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      time_zone: 'Pacific/Kiritimati',
      days: [
        { day, category: 'service', messages: 1, billable: 0 },
        { day, category: 'utility', messages: 1, billable: 1 },
      ],
      totals: [
        { category: 'service', messages: 1, billable: 0 },
        { category: 'utility', messages: 1, billable: 1 },
      ],
    });
    const tooLong = await harness.fetch('/api/v1/analytics/messages-by-category?from=2020-01-01T00:00:00Z&to=2022-01-01T00:00:00Z', {
      key: ws.apiKey,
    });
    expect(tooLong.status).toBe(400);
  });
});

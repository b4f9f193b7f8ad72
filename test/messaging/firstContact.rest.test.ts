// First contact: POST /api/v1/messages `to` an E.164 phone number or a business-scoped user id, without a
// conversation_id. Proves that a template send finds or creates the contact and reuses its open conversation
// or opens one, that free-form text without an open window is 422 and writes nothing, that a refused
// template writes nothing, that Idempotency-Key makes a retry send once, and that MCP and GraphQL do the same.
import { describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';
import { inboundPayload } from '../support/whatsappPayloads.js';
import { openMcpClient } from '../support/mcpClient.js';

const ORDER_CONFIRMATION = { name: 'order_confirmation', language: 'en_US', parameters: ['#1001', 'Ana', 'Friday'] };

function phone(): string {
  return `+1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

describe('first contact by phone number or BSUID', async () => {
  const world = await openMessagingWorld('whatsapp');
  const { harness } = world;
  const prisma = harness.db.prisma;
  const graph = world.graph!;

  function send(ws: MessagingWorkspace, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    return harness.fetch('/api/v1/messages', {
      key: ws.apiKey,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  async function written(ws: MessagingWorkspace) {
    const where = { company_id: ws.workspaceId };
    const [customers, conversations, messages] = await Promise.all([
      prisma.customer.count({ where }),
      prisma.conversation.count({ where }),
      prisma.message.count({ where }),
    ]);
    return { customers, conversations, messages };
  }

  it('sends a template to a new phone number: creates the contact and a conversation, answers {message}, and reuses both next time', async () => {
    const ws = await world.workspace();
    const to = phone();
    const first = await send(ws, { to, template: ORDER_CONFIRMATION });
    expect(first.status).toBe(201);
    const { message } = await first.json();
    expect(message).toMatchObject({ direction: 'outbound', status: 'sent', body: expect.stringContaining('Order #1001 confirmed') });
    const contact = await prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    expect(contact).toMatchObject({ phone_number: to, wa_id: null });
    expect(graph.sends.filter((sent) => sent.phoneNumberId === ws.phoneNumberId).at(-1)?.body).toMatchObject({ to: to.slice(1) });

    expect((await send(ws, { to, template: ORDER_CONFIRMATION, integration_id: ws.integrationId })).status).toBe(201);
    expect(await written(ws)).toEqual({ customers: 1, conversations: 1, messages: 2 });
  });

  it('finds the contact who wrote in by the wa_id of the number, and sends free-form text in its open window', async () => {
    const ws = await world.workspace();
    const to = phone();
    await world.webhook(inboundPayload(ws.phoneNumberId, { from: to.slice(1) }), ws.appSecret);
    const reply = await send(ws, { to, body: 'Thanks for writing!' });
    expect(reply.status).toBe(201);
    expect(await written(ws)).toEqual({ customers: 1, conversations: 1, messages: 2 });
  });

  it("sends to a BSUID through Graph's recipient field, creating a contact known by it", async () => {
    const ws = await world.workspace();
    const to = `US.${randomInt(1e9, 9e9)}`;
    expect((await send(ws, { to, template: ORDER_CONFIRMATION })).status).toBe(201);
    expect(await prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId } })).toMatchObject({
      bsuid: to,
      phone_number: null,
    });
    expect(graph.sends.filter((sent) => sent.phoneNumberId === ws.phoneNumberId).at(-1)?.body).toMatchObject({ recipient: to });
  });

  it('refuses free-form text without an open window (422), a refused template, and bad addresses (400), writing nothing', async () => {
    const ws = await world.workspace();
    const closed = await send(ws, { to: phone(), body: 'Hello there' });
    expect(closed.status).toBe(422);
    expect((await closed.json()).error.code).toBe('MESSAGING_WINDOW_CLOSED');

    const paused = await send(ws, { to: phone(), template: { name: 'seasonal_newsletter', language: 'en_US', parameters: ['a', 'b'] } });
    expect((await paused.json()).error.code).toBe('TEMPLATE_NOT_APPROVED');

    for (const body of [
      { to: '5551234567', template: ORDER_CONFIRMATION },
      { to: phone(), conversation_id: '0190f3a0-0000-7000-8000-000000000001', template: ORDER_CONFIRMATION },
      { template: ORDER_CONFIRMATION },
    ]) {
      const refused = await send(ws, body);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.code).toBe('VALIDATION_ERROR');
    }
    expect(await written(ws)).toEqual({ customers: 0, conversations: 0, messages: 0 });
  });

  it('replays a retried first contact with the same Idempotency-Key, sending once', async () => {
    const ws = await world.workspace();
    const to = phone();
    const headers = { 'idempotency-key': `first-contact-${to}` };
    const answers = [
      await send(ws, { to, template: ORDER_CONFIRMATION }, headers),
      await send(ws, { to, template: ORDER_CONFIRMATION }, headers),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    const [a, b] = await Promise.all(answers.map((answer) => answer.json()));
    expect(b).toEqual(a);
    expect(await written(ws)).toEqual({ customers: 1, conversations: 1, messages: 1 });
  });

  it('does the same through GraphQL and the MCP messages_send tool', async () => {
    const ws = await world.workspace();
    const to = phone();
    const viaGraphql = await harness.graphql<{ messageSend: { message: { status: string } } }>(
      ws.apiKey,
      'mutation ($to: String!, $template: TemplateSendInput!) { messageSend(to: $to, template: $template) { message { status } } }',
      { to, template: ORDER_CONFIRMATION },
    );
    expect(viaGraphql.body.data?.messageSend.message.status).toBe('sent');

    const mcp = await openMcpClient(harness, ws.apiKey);
    const result = await mcp.call('messages_send', { to, template: ORDER_CONFIRMATION });
    await mcp.close();
    expect(result.isError).toBe(false);
    expect(await written(ws)).toEqual({ customers: 1, conversations: 1, messages: 2 });
  });
});

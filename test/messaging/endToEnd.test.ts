// A conversation driven end to end through the service's own surfaces — the provider webhook
// (/webhooks/whatsapp, WhatsApp Cloud API format) and GraphQL — once on the embedded `sandbox` provider and
// once on the `whatsapp` provider against a local fake Graph API: inbound message → contact, conversation
// and message; a reply inside the window; status progression; refusal outside the window; template sends;
// the error cases; idempotent retries.
import { describe, expect, it, vi } from 'vitest';
import { randomInt } from 'node:crypto';
import { PROVIDERS, openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';
import { ACCEPTED_STATUSES } from '../support/harness.js';
import { inboundPayload, providerMessageId, statusPayload } from '../support/whatsappPayloads.js';
import { httpStatusOf } from '../../schema/shared/errors.js';
import type { ErrorCode } from '../../resolvers/shared/errors.js';

const SEND = `mutation Send($conversation_id: ID!, $body: String, $template: TemplateSendInput) {
  messageSend(conversation_id: $conversation_id, body: $body, template: $template) {
    message { id conversation_id body direction status created_at }
  }
}`;

type SentMessage = { id: string; conversation_id: string; body: string; direction: string; status: string; created_at: string };
type SendAnswer = {
  status: number;
  body: { data?: { messageSend: { message: SentMessage } } | null; errors?: { message: string; extensions: Record<string, any> }[] };
};

function waId(prefix = '1555'): string {
  return `${prefix}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

describe.each(PROVIDERS)('messaging end to end on the %s provider', async (provider) => {
  const world = await openMessagingWorld(provider);
  const { harness } = world;
  const prisma = harness.db.prisma;

  async function send(ws: MessagingWorkspace, variables: Record<string, unknown>, idempotencyKey?: string): Promise<SendAnswer> {
    const response = await harness.fetch('/graphql', {
      method: 'POST',
      key: ws.apiKey,
      headers: { 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      body: JSON.stringify({ query: SEND, variables }),
    });
    return { status: response.status, body: await response.json() };
  }

  /** A contact writes in; returns its conversation id. */
  async function inbound(ws: MessagingWorkspace, options: { from?: string; at?: Date; text?: string; id?: string } = {}) {
    const from = options.from ?? waId();
    const response = await world.webhook(inboundPayload(ws.phoneNumberId, { from, name: 'Ana Silva', ...options }), ws.appSecret);
    expect(response.status).toBe(200);
    const contact = await prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId, wa_id: from } });
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { customer_id: contact.id }, orderBy: { id: 'desc' } });
    return { from, contact, conversationId: conversation.id };
  }

  function events(ws: MessagingWorkspace) {
    return prisma.event.findMany({ where: { company_id: ws.workspaceId }, orderBy: { id: 'asc' } });
  }

  /** The HTTP status and the GraphQL error's extensions (code, details, request_id). */
  /** The first error with its status: an answer with data is a 200 (checked), its error's status the one its code has. */
  function errorOf(answer: SendAnswer): Record<string, any> | undefined {
    const extensions = answer.body.errors?.[0]?.extensions;
    if (!extensions) return undefined;
    if (answer.body.data != null) expect(answer.status).toBe(200);
    return { status: answer.body.data != null ? httpStatusOf(extensions.code as ErrorCode) : answer.status, ...extensions };
  }

  it('turns an inbound message into a contact, an open conversation and a stored message, and emits message.received', async () => {
    const ws = await world.workspace();
    const at = new Date(Date.now() - 60_000);
    const { from, conversationId } = await inbound(ws, { at, text: 'Is my order on its way?' });

    const { body } = await harness.graphql<any>(
      ws.apiKey,
      `{ conversations { data { id status provider service_enabled last_message_at integration_id customer { wa_id phone_number name } } } }`,
    );
    expect(body.data.conversations.data).toEqual([
      {
        id: conversationId,
        status: 'active',
        provider,
        service_enabled: false,
        last_message_at: new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString(),
        integration_id: ws.integrationId,
        customer: { wa_id: from, phone_number: `+${from}`, name: 'Ana Silva' },
      },
    ]);
    const messages = await prisma.message.findMany({ where: { conversation_id: conversationId } });
    expect(messages).toMatchObject([{ direction: 'inbound', status: 'received', body: 'Is my order on its way?' }]);

    // A first message from a new number creates its contact first: contact.created, then message.received.
    const [created, event] = await events(ws);
    expect([created?.type, event?.type]).toEqual(['contact.created', 'message.received']);
    expect(JSON.parse(created!.body).data.contact).toMatchObject({ wa_id: from, name: 'Ana Silva' });
    const envelope = JSON.parse(event!.body);
    expect(envelope.data.message).toEqual({
      id: messages[0]!.id,
      conversation_id: conversationId,
      body: 'Is my order on its way?',
      direction: 'inbound',
      status: 'received',
      created_at: messages[0]!.created_at.toISOString(),
    });
    expect(envelope.data.conversation).toMatchObject({ id: conversationId, status: 'active', provider });
    expect(envelope.data.conversation).not.toHaveProperty('customer');
    expect(envelope.data.contact).toMatchObject({ wa_id: from, phone_number: `+${from}`, name: 'Ana Silva' });
  });

  it('stores a redelivered webhook (same provider message id) once: nothing changes the second time', async () => {
    const ws = await world.workspace();
    const payload = inboundPayload(ws.phoneNumberId, { from: waId(), id: providerMessageId() });
    expect((await world.webhook(payload, ws.appSecret)).status).toBe(200);
    const before = await prisma.conversation.findMany({ where: { company_id: ws.workspaceId } });
    expect((await world.webhook(payload, ws.appSecret)).status).toBe(200);

    expect(await prisma.conversation.findMany({ where: { company_id: ws.workspaceId } })).toEqual(before);
    expect(await prisma.message.count({ where: { company_id: ws.workspaceId } })).toBe(1);
    expect((await events(ws)).map((event) => event.type)).toEqual(['contact.created', 'message.received']);
  });

  it('sends a reply inside the window with status sent, then moves it sent → delivered → read with a message.status event per step', async () => {
    const ws = await world.workspace();
    const { conversationId } = await inbound(ws);
    const windowStart = (await prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } })).last_message_at;

    const answer = await send(ws, { conversation_id: conversationId, body: 'Yes, it ships today.' });
    expect(answer.status).toBe(200);
    const message = answer.body.data!.messageSend.message;
    expect(message).toMatchObject({ conversation_id: conversationId, body: 'Yes, it ships today.', direction: 'outbound', status: 'sent' });

    await vi.waitFor(
      async () => {
        expect((await prisma.message.findUniqueOrThrow({ where: { id: message.id } })).status).toBe('read');
      },
      { timeout: 10_000, interval: 20 },
    );
    await world.graph?.settle();
    const statusEvents = (await events(ws)).filter((event) => event.type === 'message.status').map((event) => JSON.parse(event.body).data);
    expect(statusEvents.map((data) => data.message.status)).toEqual(['sent', 'delivered', 'read']);
    expect(statusEvents.every((data) => data.message.id === message.id && data.conversation.id === conversationId)).toBe(true);
    // Outbound messages do not move the window.
    expect((await prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } })).last_message_at).toEqual(windowStart);
    expect(world.graph?.webhookFailures ?? []).toEqual([]);
  });

  it('never moves a status backwards: a late delivered report after read changes nothing and emits nothing', async () => {
    const ws = await world.workspace();
    const { from, conversationId } = await inbound(ws);
    const { id } = (await send(ws, { conversation_id: conversationId, body: 'Hello' })).body.data!.messageSend.message;
    await vi.waitFor(
      async () => {
        expect((await prisma.message.findUniqueOrThrow({ where: { id } })).status).toBe('read');
      },
      { timeout: 10_000, interval: 20 },
    );
    await world.graph?.settle();
    const { provider_message_id } = await prisma.message.findUniqueOrThrow({ where: { id } });
    const eventCount = (await events(ws)).length;

    for (const status of ['delivered', 'sent', 'failed']) {
      const late = statusPayload(ws.phoneNumberId, { id: provider_message_id!, status, recipient: from });
      expect((await world.webhook(late, ws.appSecret)).status).toBe(200);
    }
    expect((await prisma.message.findUniqueOrThrow({ where: { id } })).status).toBe('read');
    expect((await events(ws)).length).toBe(eventCount);
  });

  it('refuses a free-form message outside the 24-hour window with 422 MESSAGING_WINDOW_CLOSED saying when it closed', async () => {
    const ws = await world.workspace();
    const lastInbound = new Date(Date.now() - 25 * 3600 * 1000);
    const { conversationId } = await inbound(ws, { at: lastInbound });

    const answer = await send(ws, { conversation_id: conversationId, body: 'Are you still there?' });
    const seconds = Math.floor(lastInbound.getTime() / 1000) * 1000;
    expect(errorOf(answer)).toMatchObject({
      status: 422,
      code: 'MESSAGING_WINDOW_CLOSED',
      details: {
        window_closed_at: new Date(seconds + 24 * 3600 * 1000).toISOString(),
        last_inbound_at: new Date(seconds).toISOString(),
        reason: 'a template message is required',
      },
    });
    expect(await prisma.message.count({ where: { conversation_id: conversationId, direction: 'outbound' } })).toBe(0);
  });

  it('sends an approved template at any time, rendering its placeholders, and moves its status like any message', async () => {
    const ws = await world.workspace();
    const { conversationId } = await inbound(ws, { at: new Date(Date.now() - 3 * 24 * 3600 * 1000) });

    const answer = await send(ws, {
      conversation_id: conversationId,
      template: { name: 'order_confirmation', language: 'en_US', parameters: ['A-1001', 'Ana', 'Friday'] },
    });
    expect(answer.status).toBe(200);
    const message = answer.body.data!.messageSend.message;
    expect(message).toMatchObject({
      status: 'sent',
      direction: 'outbound',
      body: 'Order A-1001 confirmed\nHi Ana, thank you for your order! It will ship on Friday.\nReply STOP to stop order updates',
    });
    expect(await prisma.message.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({
      template_name: 'order_confirmation',
      template_language: 'en_US',
      template_parameters: ['A-1001', 'Ana', 'Friday'],
    });
    await vi.waitFor(
      async () => {
        expect((await prisma.message.findUniqueOrThrow({ where: { id: message.id } })).status).toBe('read');
      },
      { timeout: 10_000, interval: 20 },
    );

    const withImage = await send(ws, {
      conversation_id: conversationId,
      template: { name: 'welcome_offer', language: 'en-US', parameters: ['https://cdn.example.com/welcome.jpg', 'Ana', '10%'] },
    });
    expect(withImage.body.data?.messageSend.message.body).toBe('Welcome, Ana! Enjoy 10% off your first order with code WELCOME.');
    if (world.graph) {
      expect(world.graph.sends.at(-1)?.body).toMatchObject({
        type: 'template',
        template: {
          name: 'welcome_offer',
          language: { code: 'en_US' },
          components: [
            { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/welcome.jpg' } }] },
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ana' },
                { type: 'text', text: '10%' },
              ],
            },
          ],
        },
      });
    }
  });

  it('refuses templates that are not approved (422 TEMPLATE_NOT_APPROVED) and unfilled placeholders (400), sending nothing', async () => {
    const ws = await world.workspace();
    const { conversationId } = await inbound(ws);
    const attempt = (template: Record<string, unknown>) => send(ws, { conversation_id: conversationId, template });

    expect(
      errorOf(await attempt({ name: 'product_launch_video', language: 'en_US', parameters: ['https://x.example/v.mp4', 'X1'] })),
    ).toMatchObject({
      status: 422,
      code: 'TEMPLATE_NOT_APPROVED',
      details: { name: 'product_launch_video', language: 'en_US', status: 'PENDING' },
    });
    expect(errorOf(await attempt({ name: 'shipping_discount', language: 'en_US' }))).toMatchObject({
      status: 422,
      code: 'TEMPLATE_NOT_APPROVED',
      details: { status: 'REJECTED' },
    });
    expect(errorOf(await attempt({ name: 'no_such_template', language: 'en_US' }))).toMatchObject({
      status: 422,
      code: 'TEMPLATE_NOT_APPROVED',
      details: { status: null },
    });
    expect(errorOf(await attempt({ name: 'order_confirmation', language: 'en_US', parameters: ['A-1001', 'Ana'] }))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { 'template.parameters': 'must hold exactly 3 value(s): 1 header value(s), then 2 body value(s)' },
    });
    expect(errorOf(await attempt({ name: 'order_confirmation', language: 'en_US', parameters: ['A-1001', 'Ana', ' '] }))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { 'template.parameters.2': 'must not be empty' },
    });
    expect(errorOf(await attempt({ name: 'welcome_offer', language: 'en_US', parameters: ['not a link', 'Ana', '10%'] }))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { 'template.parameters.0': 'must be the https URL of the header image' },
    });
    expect(await prisma.message.count({ where: { conversation_id: conversationId, direction: 'outbound' } })).toBe(0);
    expect(world.graph?.sends.filter((sent) => sent.phoneNumberId === ws.phoneNumberId) ?? []).toEqual([]);
  });

  it('answers an unknown or foreign conversation with 404 NOT_FOUND and a closed one with 409 CONVERSATION_CLOSED', async () => {
    const ws = await world.workspace();
    const other = await world.workspace();
    const { conversationId: foreign } = await inbound(other);
    const { conversationId } = await inbound(ws);

    expect(errorOf(await send(ws, { conversation_id: '01950000-0000-7000-8000-000000000000', body: 'Hi' }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(errorOf(await send(ws, { conversation_id: foreign, body: 'Hi' }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    // Closing a conversation is the conversations API's job (another area); the test sets it directly.
    await prisma.conversation.update({ where: { id: conversationId }, data: { status: 'closed' } });
    expect(errorOf(await send(ws, { conversation_id: conversationId, body: 'Hi' }))).toMatchObject({
      status: 409,
      code: 'CONVERSATION_CLOSED',
    });
    expect(
      errorOf(
        await send(ws, {
          conversation_id: conversationId,
          body: 'Hi',
          template: { name: 'verification_code', language: 'en_US', parameters: ['123456'] },
        }),
      ),
    ).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { body: 'give one of body (a free-form text), template or media' },
    });
  });

  it('records the message as failed (never lost), emits message.status failed and answers 502 PROVIDER_ERROR when the provider refuses', async () => {
    const ws = await world.workspace();
    const { conversationId } = await inbound(ws, { from: waId('999') });

    const answer = await send(ws, { conversation_id: conversationId, body: 'Hello?' });
    const error = errorOf(answer);
    expect(error).toMatchObject({
      status: 502,
      code: 'PROVIDER_ERROR',
      details: { provider, reason: 'recipient', provider_code: '131026', retryable: false },
    });
    const failed = await prisma.message.findUniqueOrThrow({ where: { id: error!['details'].message_id } });
    expect(failed).toMatchObject({
      conversation_id: conversationId,
      direction: 'outbound',
      status: 'failed',
      body: 'Hello?',
      error_code: '131026',
    });
    const statusEvents = (await events(ws)).filter((event) => event.type === 'message.status');
    expect(statusEvents.map((event) => JSON.parse(event.body).data.message)).toMatchObject([{ id: failed.id, status: 'failed' }]);
  });

  it('replays the first result for a retried send with the same Idempotency-Key, sending only once', async () => {
    const ws = await world.workspace();
    const { conversationId } = await inbound(ws);
    const variables = { conversation_id: conversationId, body: 'Your order shipped.' };

    const first = await send(ws, variables, 'order-1001-shipped');
    const retry = await send(ws, variables, 'order-1001-shipped');
    expect(retry.body).toEqual(first.body);
    expect(ACCEPTED_STATUSES).toContain(first.body.data?.messageSend.message.status);
    expect(await prisma.message.count({ where: { conversation_id: conversationId, direction: 'outbound' } })).toBe(1);
    if (world.graph) expect(world.graph.sends.filter((sent) => sent.phoneNumberId === ws.phoneNumberId)).toHaveLength(1);

    expect(errorOf(await send(ws, { ...variables, body: 'Something else' }, 'order-1001-shipped'))).toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    // Keys are scoped per workspace: another workspace's identical key is its own.
    const other = await world.workspace();
    const { conversationId: otherConversation } = await inbound(other);
    const elsewhere = await send(other, { conversation_id: otherConversation, body: 'Your order shipped.' }, 'order-1001-shipped');
    expect(elsewhere.body.data?.messageSend.message.id).not.toBe(first.body.data?.messageSend.message.id);
  });

  it('replays a provider failure under the same Idempotency-Key instead of sending again; a refused request leaves its key unused', async () => {
    const ws = await world.workspace();
    const { conversationId } = await inbound(ws, { from: waId('999') });
    const first = await send(ws, { conversation_id: conversationId, body: 'Hello?' }, 'failing-send');
    const retry = await send(ws, { conversation_id: conversationId, body: 'Hello?' }, 'failing-send');
    expect(errorOf(first)?.['code']).toBe('PROVIDER_ERROR');
    expect(errorOf(retry)).toEqual({ ...errorOf(first), request_id: errorOf(retry)?.['request_id'] });
    expect(await prisma.message.count({ where: { conversation_id: conversationId } })).toBe(2); // the inbound one and the failed reply

    const { conversationId: stale } = await inbound(ws, { at: new Date(Date.now() - 30 * 3600 * 1000) });
    expect(errorOf(await send(ws, { conversation_id: stale, body: 'Hi' }, 'fix-and-retry'))?.['code']).toBe('MESSAGING_WINDOW_CLOSED');
    const fixed = await send(
      ws,
      { conversation_id: stale, template: { name: 'verification_code', language: 'en_US', parameters: ['123456'] } },
      'fix-and-retry',
    );
    expect(ACCEPTED_STATUSES).toContain(fixed.body.data?.messageSend.message.status);
  });

  it('needs the messages scope to send', async () => {
    const ws = await world.workspace();
    const { conversationId } = await inbound(ws);
    const readOnly = await harness.key(ws.workspaceId, ['conversations']);
    const { body } = await harness.graphql(readOnly, SEND, { conversation_id: conversationId, body: 'Hi' });
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
  });
});

describe('messaging with a slow provider', async () => {
  const world = await openMessagingWorld('whatsapp');

  it('refuses a second request with the same Idempotency-Key while the first is still sending (409 IDEMPOTENCY_KEY_IN_USE)', async () => {
    const ws = await world.workspace();
    const from = waId();
    await world.webhook(inboundPayload(ws.phoneNumberId, { from }), ws.appSecret);
    const contact = await world.harness.db.prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId, wa_id: from } });
    const conversation = await world.harness.db.prisma.conversation.findFirstOrThrow({ where: { customer_id: contact.id } });
    const request = () =>
      world.harness.fetch('/graphql', {
        method: 'POST',
        key: ws.apiKey,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'slow-send' },
        body: JSON.stringify({ query: SEND, variables: { conversation_id: conversation.id, body: 'Hi' } }),
      });

    const hold = world.graph!.holdSends();
    const first = request();
    await hold.arrived;
    const second = await request();
    // A failed field of an answer with data: 200, the error carrying its code (infra/graphql/partialAnswers.ts).
    expect(second.status).toBe(200);
    expect((await second.json()).errors[0].extensions).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    hold.release();
    expect((await (await first).json()).data.messageSend.message.status).toBe('sent');
    expect(world.graph!.sends.filter((sent) => sent.phoneNumberId === ws.phoneNumberId)).toHaveLength(1);
  });
});

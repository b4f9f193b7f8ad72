// Every path of the sandbox's error numbers (+1555013xxxx fails with Meta's code ending in xxxx), on both providers:
// the sandbox refuses the send at once, the Graph API fake as Meta does (throughput and pair rate at once, the rest
// by a failed status webhook with Meta's error object). A failed message carries {code, title, details, retryable}
// on REST and GraphQL; 131047 closes the conversation's window until the contact writes again; 131026 and 131049
// are final; 130429 passes on a retry after a pause; 131056 is retried no sooner than the pair interval, then fails.
import { describe, expect, it } from 'vitest';
import { PROVIDERS, openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';
import { inboundPayload } from '../support/whatsappPayloads.js';
import { getJson, sendJson } from '../support/restFixtures.js';
import { TEST_MESSAGING } from '../support/harness.js';

const UTILITY = { name: 'appointment_reminder', language: 'en_US', parameters: ['Ana', 'Friday', '10:00'] };

describe.each(PROVIDERS)('provider errors on the %s provider', async (provider) => {
  const world = await openMessagingWorld(provider);
  const { harness } = world;
  const prisma = harness.db.prisma;

  async function writeIn(ws: MessagingWorkspace, from: string, text = 'Hello') {
    const response = await world.webhook(inboundPayload(ws.phoneNumberId, { from, name: 'Ana', text }), ws.appSecret);
    expect(response.status).toBe(200);
    const contact = await prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId, wa_id: from } });
    return prisma.conversation.findFirstOrThrow({ where: { customer_id: contact.id } });
  }

  /** The message as REST reads it once it has its final outcome (failed, or sent and further). */
  async function settled(ws: MessagingWorkspace, id: string) {
    await expect.poll(async () => (await prisma.message.findUniqueOrThrow({ where: { id } })).status).not.toBe('pending');
    if (provider === 'whatsapp') await world.graph!.settle();
    return (await getJson(harness, `/api/v1/messages/${id}`, { key: ws.apiKey })).body;
  }

  /** Sends; answers the HTTP status and the id of the message recorded (on success or on a provider refusal). */
  async function send(ws: MessagingWorkspace, body: Record<string, unknown>) {
    const answer = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, body);
    return { status: answer.status, body: answer.body, id: (answer.body.message?.id ?? answer.body.error?.details?.message_id) as string };
  }

  it('131047 marks the window closed: the next free-form reply is 422 until the contact writes again', async () => {
    const ws = await world.workspace();
    const conversation = await writeIn(ws, '15550131047');
    const first = await send(ws, { conversation_id: conversation.id, body: 'Still there?' });
    expect(first.status).toBe(provider === 'sandbox' ? 502 : 201);
    expect((await settled(ws, first.id)).error).toMatchObject({ code: '131047', title: 'Re-engagement message', retryable: false });
    const window = await harness.graphql(ws.apiKey, 'query($id: ID!) { conversation(id: $id) { messaging_window { open } } }', {
      id: conversation.id,
    });
    expect(window.body.data).toEqual({ conversation: { messaging_window: { open: false } } });
    expect((await send(ws, { conversation_id: conversation.id, body: 'Hello?' })).body.error).toMatchObject({
      code: 'MESSAGING_WINDOW_CLOSED',
    });
    await writeIn(ws, '15550131047', 'Yes, here');
    const reopened = await harness.graphql(ws.apiKey, 'query($id: ID!) { conversation(id: $id) { messaging_window { open } } }', {
      id: conversation.id,
    });
    expect(reopened.body.data).toEqual({ conversation: { messaging_window: { open: true } } });
  });

  it.each([
    ['131026', 'Message undeliverable'],
    ['131049', 'This message was not delivered to maintain healthy ecosystem engagement.'],
  ])('%s is final: the message fails once with the provider’s error, not retryable', async (code, title) => {
    const ws = await world.workspace();
    const sendsBefore = world.graph?.sends.length ?? 0;
    const sent = await send(ws, { to: `+1555013${code.slice(2)}`, template: UTILITY });
    if (provider === 'sandbox') {
      expect(sent.status).toBe(502);
      expect(sent.body.error).toMatchObject({
        code: 'PROVIDER_ERROR',
        details: { reason: 'recipient', provider_code: code, retryable: false },
      });
    } else {
      expect(sent.status).toBe(201);
      expect(world.graph!.sends.length - sendsBefore).toBe(1);
    }
    const message = await settled(ws, sent.id);
    expect(message).toMatchObject({ status: 'failed', error: { code, title, retryable: false } });
    expect(message.error.details).toEqual(expect.any(String));
    const graphql = await harness.graphql(ws.apiKey, 'query($id: ID!) { message(id: $id) { error { code title details retryable } } }', {
      id: sent.id,
    });
    expect(graphql.body.data).toEqual({ message: { error: message.error } });
  });

  it('130429 (throughput) is retried after a pause and the message is sent', async () => {
    const ws = await world.workspace();
    const sent = await send(ws, { to: '+15550130429', template: UTILITY });
    expect(sent.status).toBe(201);
    expect(sent.body.message.status).not.toBe('failed');
    expect((await settled(ws, sent.id)).error).toBeNull();
  });

  it('131056 (pair rate) is retried no sooner than the pair interval, as many times as allowed, then fails retryable', async () => {
    const ws = await world.workspace();
    const started = Date.now();
    const sent = await send(ws, { to: '+15550131056', template: UTILITY });
    const { attempts, pairIntervalMs } = TEST_MESSAGING.sendRetry;
    expect(Date.now() - started).toBeGreaterThanOrEqual((attempts - 1) * pairIntervalMs);
    expect(sent.status).toBe(502);
    expect(sent.body.error).toMatchObject({
      code: 'PROVIDER_ERROR',
      details: { reason: 'rate_limited', provider_code: '131056', retryable: true },
    });
    expect((await settled(ws, sent.id)).error).toMatchObject({ code: '131056', retryable: true });
  });
});

// The provider callback at /webhooks/whatsapp over HTTP, as the WhatsApp Cloud API calls it: the
// subscription handshake, the X-Hub-Signature-256 check over the raw body, payloads that are not a webhook
// envelope at all (400, nothing written), kinds it does not handle (200, ignored), and how inbound messages
// map to contacts, conversations and messages. Message sending and status progression are in
// messaging.test.ts; identities by BSUID in whatsappIdentity.test.ts; bad parts of a payload in
// whatsappDeadLetters.test.ts.
import { describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';
import { envelope, hubSignature, inboundPayload, providerMessageId, statusPayload } from '../support/whatsappPayloads.js';

function waId(): string {
  return `1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

describe('the WhatsApp provider webhook', async () => {
  const world = await openMessagingWorld('sandbox');
  const { harness } = world;
  const prisma = harness.db.prisma;

  async function written(ws: MessagingWorkspace) {
    const [customers, conversations, messages, events] = await Promise.all([
      prisma.customer.count({ where: { company_id: ws.workspaceId } }),
      prisma.conversation.count({ where: { company_id: ws.workspaceId } }),
      prisma.message.count({ where: { company_id: ws.workspaceId } }),
      prisma.event.count({ where: { company_id: ws.workspaceId } }),
    ]);
    return { customers, conversations, messages, events };
  }
  const NOTHING = { customers: 0, conversations: 0, messages: 0, events: 0 };

  /** Resolves once a statement of another session waits for a row lock (the delivery the test holds back). */
  async function waitUntilBlocked() {
    for (let tries = 0; tries < 200; tries++) {
      const [waiting] = await prisma.$queryRaw<{ count: bigint }[]>`
        SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      if (waiting!.count > 0n) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the delivery never waited for the lock');
  }

  function handshake(query: Record<string, string>) {
    return harness.fetch(`/webhooks/whatsapp?${new URLSearchParams(query)}`);
  }

  it('answers the subscription handshake with the challenge for the verify token of an integration, and 403 otherwise', async () => {
    const ws = await world.workspace();
    const ok = await handshake({ 'hub.mode': 'subscribe', 'hub.verify_token': ws.verifyToken, 'hub.challenge': '1158201444' });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');

    const refusals: Record<string, string>[] = [
      { 'hub.mode': 'subscribe', 'hub.verify_token': 'not-the-token', 'hub.challenge': '1158201444' },
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': ws.verifyToken, 'hub.challenge': '1158201444' },
      { 'hub.mode': 'subscribe', 'hub.verify_token': ws.verifyToken },
    ];
    for (const query of refusals) {
      const refused = await handshake(query);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.code).toBe('FORBIDDEN');
    }
  });

  it('needs no API key but refuses a POST without a valid X-Hub-Signature-256 over the raw body (401, nothing written)', async () => {
    const ws = await world.workspace();
    const payload = inboundPayload(ws.phoneNumberId, { from: waId() });
    const compact = JSON.stringify(payload);
    const pretty = JSON.stringify(payload, null, 2);

    for (const signature of [null, 'sha1=abc', hubSignature(compact, 'another-app-secret'), hubSignature(compact, ws.appSecret)]) {
      const response = await world.webhook(payload, ws.appSecret, { raw: pretty, signature });
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe('UNAUTHORIZED');
    }
    expect(await written(ws)).toEqual(NOTHING);

    expect((await world.webhook(payload, ws.appSecret, { raw: pretty })).status).toBe(200);
    // contact.created and message.received.
    expect(await written(ws)).toEqual({ customers: 1, conversations: 1, messages: 1, events: 2 });
  });

  it('answers a body that is not a webhook envelope (not JSON, no entries, nested too deep) with 400 VALIDATION_ERROR', async () => {
    const ws = await world.workspace();
    for (const raw of [
      '{"object": "whatsapp_business_account", "entry": [',
      '{"object":"whatsapp_business_account"}',
      `{"object":"whatsapp_business_account","entry":${'['.repeat(200)}${']'.repeat(200)}}`,
    ]) {
      const response = await world.webhook(null, ws.appSecret, { raw });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('VALIDATION_ERROR');
    }
    expect(await written(ws)).toEqual(NOTHING);
  });

  it('acknowledges kinds of payload it does not handle with 200 and ignores them', async () => {
    const ws = await world.workspace();
    const from = waId();
    const unknown = [
      { object: 'page', entry: [{ id: '1', changes: [{ field: 'feed', value: { item: 'post' } }] }] },
      {
        object: 'whatsapp_business_account',
        entry: [{ id: '1', changes: [{ field: 'message_template_status_update', value: { event: 'APPROVED', message_template_id: 1 } }] }],
      },
      inboundPayload(ws.phoneNumberId, {
        from,
        message: { type: 'system', system: { body: 'User changed number', type: 'user_changed_number' } },
      }),
      statusPayload(ws.phoneNumberId, { id: providerMessageId(), status: 'deleted', recipient: from }),
      statusPayload(ws.phoneNumberId, { id: providerMessageId(), status: 'delivered', recipient: from }),
      inboundPayload('100000000000001', { from }),
    ];
    for (const payload of unknown) {
      expect((await world.webhook(payload, ws.appSecret)).status).toBe(200);
    }
    expect(await written(ws)).toEqual(NOTHING);
  });

  it('stores non-text messages with a readable body: captions, locations, button replies and reactions', async () => {
    const ws = await world.workspace();
    const from = waId();
    const kinds = [
      { type: 'image', image: { caption: 'The damaged box', mime_type: 'image/jpeg', sha256: 'x', id: '1' } },
      { type: 'audio', audio: { mime_type: 'audio/ogg', id: '2', voice: true } },
      { type: 'location', location: { latitude: 38.7223, longitude: -9.1393, name: 'Home' } },
      { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'confirm', title: 'Confirm' } } },
      { type: 'reaction', reaction: { message_id: 'wamid.x', emoji: '👍' } },
    ];
    for (const message of kinds) {
      expect((await world.webhook(inboundPayload(ws.phoneNumberId, { from, message }), ws.appSecret)).status).toBe(200);
    }
    const bodies = (await prisma.message.findMany({ where: { company_id: ws.workspaceId }, orderBy: { id: 'asc' } })).map((m) => m.body);
    expect(bodies).toEqual(['The damaged box', '[audio]', '[location] Home (38.7223, -9.1393)', 'Confirm', '[reaction] 👍']);
    expect(await prisma.conversation.count({ where: { company_id: ws.workspaceId } })).toBe(1);
  });

  it('reads a business-scoped id sent in place of the wa_id as the BSUID, and keeps the team-set name', async () => {
    const ws = await world.workspace();
    const bsuid = `US.${randomInt(1e9, 9e9)}`;
    await world.webhook(inboundPayload(ws.phoneNumberId, { from: bsuid, name: 'kim' }), ws.appSecret);
    const contact = await prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId, bsuid } });
    expect(contact).toMatchObject({ wa_id: null, phone_number: null, profile_name: 'kim', name: 'kim' });

    await prisma.customer.update({ where: { id: contact.id }, data: { name: 'Kim Larsen' } });
    await world.webhook(inboundPayload(ws.phoneNumberId, { from: bsuid, name: 'Kim L.' }), ws.appSecret);
    expect(await prisma.customer.findMany({ where: { company_id: ws.workspaceId } })).toMatchObject([
      { id: contact.id, name: 'Kim Larsen', profile_name: 'Kim L.' },
    ]);
  });

  it("makes a new contact's wa_id and phone number its primary channels, and still stores the message when another contact has the number", async () => {
    const ws = await world.workspace();
    const from = waId();
    const CHANNELS = 'query ($id: ID!) { contactChannels(customer_id: $id) { channels { type value provider is_primary } } }';
    type Channels = { contactChannels: { channels: { type: string; value: string; provider: string; is_primary: boolean }[] } };
    await world.webhook(inboundPayload(ws.phoneNumberId, { from, name: 'Ana' }), ws.appSecret);
    const contact = await prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId, wa_id: from } });
    const listed = await harness.graphql<Channels>(ws.apiKey, CHANNELS, { id: contact.id });
    expect(listed.body.data?.contactChannels.channels).toEqual([
      { type: 'phone', value: `+${from}`, provider: 'sandbox', is_primary: true },
      { type: 'wa_id', value: from, provider: 'sandbox', is_primary: true },
    ]);

    // The team already has this number on a contact of its own: the writer becomes a contact of its wa_id alone.
    const taken = waId();
    const created = await harness.graphql<{ contactCreate: { id: string } }>(
      ws.apiKey,
      'mutation ($phone: String!) { contactCreate(name: "Known", phone_number: $phone) { id } }',
      { phone: `+${taken}` },
    );
    expect(created.body.errors).toBeUndefined();
    const response = await world.webhook(inboundPayload(ws.phoneNumberId, { from: taken, name: 'Bo' }), ws.appSecret);
    expect(response.status).toBe(200);
    const writer = await prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId, wa_id: taken } });
    expect(writer).toMatchObject({ phone_number: null, name: 'Bo' });
    expect(await prisma.message.count({ where: { conversation: { customer_id: writer.id } } })).toBe(1);
    const writerChannels = await harness.graphql<Channels>(ws.apiKey, CHANNELS, { id: writer.id });
    expect(writerChannels.body.data?.contactChannels.channels).toEqual([
      { type: 'wa_id', value: taken, provider: 'sandbox', is_primary: true },
    ]);
  });

  it('opens a new conversation when the contact writes after the last one was closed', async () => {
    const ws = await world.workspace();
    const from = waId();
    await world.webhook(inboundPayload(ws.phoneNumberId, { from }), ws.appSecret);
    // Closing is the conversations API's job (another area); the test sets it directly.
    await prisma.conversation.updateMany({ where: { company_id: ws.workspaceId }, data: { status: 'closed' } });
    await world.webhook(inboundPayload(ws.phoneNumberId, { from }), ws.appSecret);
    const conversations = await prisma.conversation.findMany({ where: { company_id: ws.workspaceId }, orderBy: { id: 'asc' } });
    expect(conversations.map((conversation) => conversation.status)).toEqual(['closed', 'active']);
  });

  it('never moves last_message_at back for a late delivery of an older message', async () => {
    const ws = await world.workspace();
    const from = waId();
    const recent = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    await world.webhook(inboundPayload(ws.phoneNumberId, { from, at: recent }), ws.appSecret);
    await world.webhook(inboundPayload(ws.phoneNumberId, { from, at: new Date(recent.getTime() - 3600_000) }), ws.appSecret);
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId }, include: { customer: true } });
    expect(conversation.last_message_at).toEqual(recent);
    expect(conversation.customer.last_message_at).toEqual(recent);
    expect(await prisma.message.count({ where: { conversation_id: conversation.id } })).toBe(2);
  });

  it('handles concurrent deliveries: one contact and one conversation for a new contact, one message per provider id', async () => {
    const ws = await world.workspace();
    const from = waId();
    const twice = inboundPayload(ws.phoneNumberId, { from, id: providerMessageId() });
    const answers = await Promise.all([
      world.webhook(twice, ws.appSecret),
      world.webhook(twice, ws.appSecret),
      world.webhook(inboundPayload(ws.phoneNumberId, { from }), ws.appSecret),
      world.webhook(inboundPayload(ws.phoneNumberId, { from }), ws.appSecret),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    // One contact.created and a message.received per message.
    expect(await written(ws)).toEqual({ customers: 1, conversations: 1, messages: 3, events: 4 });
  });

  // Two connections: only a PostgreSQL server has them (the embedded database is one session).
  it.skipIf(!process.env['TEST_DATABASE_URL'])(
    'keeps one contact when another first message of the same person commits the contact while this one is being stored',
    async () => {
      const ws = await world.workspace();
      const from = waId();
      let delivered: Promise<Response> | undefined;
      await prisma.$transaction(async (tx) => {
        // Creating a contact checks its workspace (foreign key); holding the workspace's row stops the delivery there,
        // after it found no contact with the wa_id, while this transaction stores that contact as the other message would.
        await tx.$queryRaw`SELECT 1 FROM workspaces WHERE id = ${ws.workspaceId}::uuid FOR UPDATE`;
        delivered = world.webhook(inboundPayload(ws.phoneNumberId, { from }), ws.appSecret);
        await waitUntilBlocked();
        const first = await tx.customer.create({ data: { company_id: ws.workspaceId, wa_id: from, name: 'First' } });
        await tx.contactChannel.create({
          data: { company_id: ws.workspaceId, customer_id: first.id, type: 'wa_id', provider: 'sandbox', value: from, is_primary: true },
        });
      });
      expect((await delivered!).status).toBe(200);
      const contacts = await prisma.customer.findMany({ where: { company_id: ws.workspaceId }, include: { conversations: true } });
      expect(contacts).toHaveLength(1);
      expect(contacts[0]).toMatchObject({ name: 'First', wa_id: from });
      expect(contacts[0]!.conversations).toHaveLength(1);
    },
  );

  it('refuses other methods with 405 and bodies over 1 MiB with 413', async () => {
    const ws = await world.workspace();
    const put = await harness.fetch('/webhooks/whatsapp', { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    const huge = JSON.stringify(envelope(ws.phoneNumberId, { padding: 'x'.repeat(1024 * 1024) }));
    expect((await world.webhook(null, ws.appSecret, { raw: huge })).status).toBe(413);
  });
});

// One bad part of a WhatsApp webhook payload never costs the rest: each message and status report is handled
// on its own, a part that can never be stored is kept as a dead letter with its raw JSON (listed by
// GET /api/v1/inbound-failures, scope conversations, per workspace), and the payload gets 200 once every good
// part is stored. Also: text is stored with NUL and unpaired surrogates removed.
import { describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';
import { inboundPayload, providerMessageId, unixSeconds } from '../support/whatsappPayloads.js';

function waId(): string {
  return `1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

type Failure = { id: string; kind: string; reason: string; phone_number_id: string | null; integration_id: string | null; payload: any };
type FailurePage = { data: Failure[]; has_more: boolean; next_cursor: string | null };

describe('dead letters of the WhatsApp webhook', async () => {
  const world = await openMessagingWorld('sandbox');
  const { harness } = world;
  const prisma = harness.db.prisma;

  async function failures(ws: MessagingWorkspace, key = ws.apiKey) {
    const response = await harness.fetch('/api/v1/inbound-failures', { key });
    return { status: response.status, body: (await response.json()) as FailurePage };
  }

  it('stores the good parts of a batch, keeps each malformed part with its raw JSON, and answers 200; a redelivery adds nothing', async () => {
    const ws = await world.workspace();
    const from = waId();
    const payload = inboundPayload(ws.phoneNumberId, { from, text: 'The good one' }) as any;
    const value = payload.entry[0].changes[0].value;
    const noText = { from, id: providerMessageId(), timestamp: unixSeconds(new Date()), type: 'text' };
    const noTimestamp = { from, id: providerMessageId(), type: 'text', text: { body: 'when?' } };
    value.messages.push(noText, noTimestamp);
    value.statuses = [{ status: 'delivered', timestamp: unixSeconds(new Date()), recipient_id: from }];

    for (let delivery = 0; delivery < 2; delivery++) {
      expect((await world.webhook(payload, ws.appSecret)).status).toBe(200);
    }
    const messages = await prisma.message.findMany({ where: { company_id: ws.workspaceId } });
    expect(messages.map((message) => message.body)).toEqual(['The good one']);

    const listed = await failures(ws);
    expect(listed.status).toBe(200);
    expect(listed.body.has_more).toBe(false);
    const byReason = Object.fromEntries(listed.body.data.map((failure) => [failure.reason, failure]));
    expect(Object.keys(byReason).sort()).toEqual(
      [
        'message.text: is required',
        'message.timestamp: Invalid input',
        'status.id: Invalid input: expected string, received undefined',
      ].sort(),
    );
    expect(byReason['message.text: is required']).toMatchObject({
      kind: 'message',
      phone_number_id: ws.phoneNumberId,
      integration_id: ws.integrationId,
      payload: { metadata: { phone_number_id: ws.phoneNumberId }, messages: [noText], contacts: value.contacts },
    });
    expect(byReason['status.id: Invalid input: expected string, received undefined']?.payload.statuses).toEqual(value.statuses);
  });

  it('keeps a part for a phone number not connected here in the workspace whose integration signed the delivery', async () => {
    const ws = await world.workspace();
    const payload = inboundPayload(ws.phoneNumberId, { from: waId() }) as any;
    const stranger = inboundPayload('100000000000077', { from: waId(), text: 'For another number' }) as any;
    payload.entry.push(stranger.entry[0]);

    expect((await world.webhook(payload, ws.appSecret)).status).toBe(200);
    expect(await prisma.message.count({ where: { company_id: ws.workspaceId } })).toBe(1);
    const listed = await failures(ws);
    expect(listed.body.data).toMatchObject([
      {
        kind: 'message',
        phone_number_id: '100000000000077',
        integration_id: null,
        reason: 'phone number id 100000000000077 is not connected to an integration here',
      },
    ]);
    expect(listed.body.data[0]!.payload.messages[0].text.body).toBe('For another number');
  });

  it('removes NUL and unpaired surrogates from text and names instead of failing on them', async () => {
    const ws = await world.workspace();
    const from = waId();
    const payload = inboundPayload(ws.phoneNumberId, { from, name: 'A\u0000na', text: 'Hel\u0000lo \ud800wor\udc00ld 👍' });
    const raw = JSON.stringify(payload);
    expect(raw).toContain('\\u0000');
    expect(raw).toContain('\\ud800');
    expect((await world.webhook(null, ws.appSecret, { raw })).status).toBe(200);
    const message = await prisma.message.findFirstOrThrow({
      where: { company_id: ws.workspaceId },
      include: { conversation: { include: { customer: true } } },
    });
    expect(message.body).toBe('Hello world 👍');
    expect(message.conversation.customer).toMatchObject({ name: 'Ana', profile_name: 'Ana' });
  });

  it('shows each workspace only its own dead letters, to keys with the conversations scope', async () => {
    const ws = await world.workspace();
    const other = await world.workspace();
    const payload = inboundPayload(ws.phoneNumberId, { from: waId(), message: { type: 'location' } });
    expect((await world.webhook(payload, ws.appSecret)).status).toBe(200);
    expect((await failures(ws)).body.data).toHaveLength(1);
    expect((await failures(other)).body.data).toEqual([]);

    const narrow = await harness.key(ws.workspaceId, ['customers']);
    const refused = await failures(ws, narrow);
    expect(refused.status).toBe(403);
    const allowed = await failures(ws, await harness.key(ws.workspaceId, ['conversations']));
    expect(allowed.body.data).toHaveLength(1);

    const graphql = await harness.graphql<{ inboundFailures: FailurePage }>(
      ws.apiKey,
      '{ inboundFailures(limit: 1) { data { kind reason } has_more } }',
    );
    expect(graphql.body.data?.inboundFailures).toEqual({
      data: [{ kind: 'message', reason: 'message.location: is required' }],
      has_more: false,
    });
  });
});

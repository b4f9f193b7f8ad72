// The events that messaging really records (an inbound WhatsApp message from a new number, then a reply moving
// through sent → delivered → read) match the JSON Schemas that docs/webhooks publishes for receivers.
import { describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMessagingWorld } from '../support/messaging.js';
import { inboundPayload } from '../support/whatsappPayloads.js';
import { envelopeProblems } from '../support/webhooks.js';

const world = await openMessagingWorld('sandbox');
const prisma = world.harness.db.prisma;

describe('recorded message events', () => {
  it('validate against docs/webhooks/contact.created, message.received, message.created and message.status schemas', async () => {
    const ws = await world.workspace();
    await world.webhook(
      inboundPayload(ws.phoneNumberId, { from: `1555${randomInt(1_000_000, 9_999_999)}`, text: 'Where is my parcel?' }),
      ws.appSecret,
    );
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    const sent = await world.harness.graphql(
      ws.apiKey,
      'mutation($id: ID!) { messageSend(conversation_id: $id, body: "On its way") { message { id } } }',
      {
        id: conversation.id,
      },
    );
    expect(sent.body.errors).toBeUndefined();
    await expect
      .poll(() => prisma.event.count({ where: { company_id: ws.workspaceId, type: 'message.status' } }))
      .toBeGreaterThanOrEqual(3);

    const events = await prisma.event.findMany({ where: { company_id: ws.workspaceId }, orderBy: { id: 'asc' } });
    expect(events.map((event) => event.type)).toEqual([
      'contact.created',
      'message.received',
      'message.created',
      'message.status',
      'message.status',
      'message.status',
    ]);
    for (const event of events) expect(envelopeProblems(JSON.parse(event.body)), event.body).toEqual([]);
  });
});

// Who a WhatsApp user is, when Meta names them by wa_id (the phone number), by business-scoped user id
// (BSUID), or both: payloads follow Meta's business-scoped user ids reference (see
// test/support/whatsappPayloads.ts). Proves a BSUID-only user becomes a contact without a phone number, a
// user who adds a phone later (or a BSUID later) stays one contact, status reports teach a contact its BSUID,
// and a contact known only by BSUID is sent to through Graph's `recipient` field.
import { describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMessagingWorld } from '../support/messaging.js';
import { inboundPayload, statusPayload } from '../support/whatsappPayloads.js';

function waId(): string {
  return `1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}
function bsuid(): string {
  return `US.${randomInt(1e9, 9e9)}${randomInt(1e9, 9e9)}`;
}

const CONTACT = `query ($id: ID!) {
  contact(id: $id) { id wa_id phone_number bsuid username }
  contactChannels(customer_id: $id) { channels { type value is_primary } }
}`;
type ContactView = {
  contact: { id: string; wa_id: string | null; phone_number: string | null; bsuid: string | null; username: string | null };
  contactChannels: { channels: { type: string; value: string; is_primary: boolean }[] };
};

describe('WhatsApp identities: wa_id, business-scoped user id, or both', async () => {
  const world = await openMessagingWorld('whatsapp');
  const { harness } = world;
  const prisma = harness.db.prisma;
  const graph = world.graph!;

  async function onlyContact(workspaceId: string) {
    const contacts = await prisma.customer.findMany({ where: { company_id: workspaceId } });
    expect(contacts).toHaveLength(1);
    return contacts[0]!;
  }

  it('makes a user who withholds the phone number a contact by BSUID, with its username, on GraphQL and as channels', async () => {
    const ws = await world.workspace();
    const id = bsuid();
    const payload = inboundPayload(ws.phoneNumberId, { userId: id, username: 'kim.larsen', name: 'Kim' });
    expect((await world.webhook(payload, ws.appSecret)).status).toBe(200);

    const contact = await onlyContact(ws.workspaceId);
    const view = await harness.graphql<ContactView>(ws.apiKey, CONTACT, { id: contact.id });
    expect(view.body.data?.contact).toEqual({ id: contact.id, wa_id: null, phone_number: null, bsuid: id, username: 'kim.larsen' });
    expect(view.body.data?.contactChannels.channels).toEqual([
      { type: 'bsuid', value: id, is_primary: true },
      { type: 'username', value: 'kim.larsen', is_primary: true },
    ]);
    expect(await prisma.message.count({ where: { company_id: ws.workspaceId } })).toBe(1);
  });

  it('keeps one contact for a user who first writes by BSUID alone and later with the phone number, and takes the new username', async () => {
    const ws = await world.workspace();
    const [id, phone] = [bsuid(), waId()];
    await world.webhook(inboundPayload(ws.phoneNumberId, { userId: id, username: 'first' }), ws.appSecret);
    await world.webhook(inboundPayload(ws.phoneNumberId, { userId: id, from: phone, username: 'second' }), ws.appSecret);

    const contact = await onlyContact(ws.workspaceId);
    expect(contact).toMatchObject({ bsuid: id, wa_id: phone, phone_number: `+${phone}`, username: 'second' });
    expect(await prisma.conversation.count({ where: { company_id: ws.workspaceId } })).toBe(1);
    expect(await prisma.message.count({ where: { company_id: ws.workspaceId } })).toBe(2);
  });

  it('keeps one contact for a user known by phone number who later writes with a BSUID (and a parent BSUID) too', async () => {
    const ws = await world.workspace();
    const [phone, id, parent] = [waId(), bsuid(), `US.ENT.${randomInt(1e9, 9e9)}`];
    await world.webhook(inboundPayload(ws.phoneNumberId, { from: phone }), ws.appSecret);
    await world.webhook(inboundPayload(ws.phoneNumberId, { from: phone, userId: id, parentUserId: parent }), ws.appSecret);
    // Then the phone number is withheld: the BSUID alone still finds the contact.
    await world.webhook(inboundPayload(ws.phoneNumberId, { userId: id }), ws.appSecret);

    const contact = await onlyContact(ws.workspaceId);
    expect(contact).toMatchObject({ wa_id: phone, phone_number: `+${phone}`, bsuid: id });
    const parentChannel = await prisma.contactChannel.findFirst({ where: { customer_id: contact.id, type: 'parent_bsuid' } });
    expect(parentChannel?.value).toBe(parent);
    expect(await prisma.message.count({ where: { company_id: ws.workspaceId } })).toBe(3);
  });

  it("learns a contact's BSUID from a status report's recipient_user_id", async () => {
    const ws = await world.workspace();
    const phone = waId();
    await world.webhook(inboundPayload(ws.phoneNumberId, { from: phone }), ws.appSecret);
    const contact = await onlyContact(ws.workspaceId);
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { customer_id: contact.id } });
    const sent = await harness.fetch('/api/v1/messages', {
      key: ws.apiKey,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: conversation.id, body: 'Your order has shipped' }),
    });
    expect(sent.status).toBe(201);
    const message = await prisma.message.findFirstOrThrow({ where: { conversation_id: conversation.id, direction: 'outbound' } });

    const id = bsuid();
    const report = statusPayload(ws.phoneNumberId, {
      id: message.provider_message_id!,
      status: 'delivered',
      recipient: phone,
      recipientUserId: id,
    });
    expect((await world.webhook(report, ws.appSecret)).status).toBe(200);
    expect(await prisma.customer.findUniqueOrThrow({ where: { id: contact.id } })).toMatchObject({ wa_id: phone, bsuid: id });
  });

  it("sends to a contact known only by BSUID through Graph's recipient field, never to", async () => {
    const ws = await world.workspace();
    const id = bsuid();
    await world.webhook(inboundPayload(ws.phoneNumberId, { userId: id }), ws.appSecret);
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    const sent = await harness.fetch('/api/v1/messages', {
      key: ws.apiKey,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: conversation.id, body: 'Hello Kim' }),
    });
    expect(sent.status).toBe(201);
    const request = graph.sends.filter((send) => send.phoneNumberId === ws.phoneNumberId).at(-1)!.body;
    expect(request).toMatchObject({ messaging_product: 'whatsapp', recipient_type: 'individual', recipient: id, type: 'text' });
    expect(request).not.toHaveProperty('to');
  });
});

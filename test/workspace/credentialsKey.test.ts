// An instance whose ENCRYPTION_KEY is not the one an integration's credentials were sealed with (an instance that
// generated its own key beside others on one PostgreSQL, a key changed) cannot send through it. The caller is told
// so in the spec's error form, 409 with the reason and the remedy, and no message is written; the instance holding
// the right key sends as before. The provider's signed callback for the number is refused the same way (the provider
// redelivers it) and accepted by the instance holding the key.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';
import { hubSignature, inboundPayload } from '../support/whatsappPayloads.js';

const sealing = await openHarness({ messaging: { sandboxStatusIntervalMs: 60_000 } });
// Each harness has an encryption key of its own, as an instance started without ENCRYPTION_KEY generates one.
const otherKey = await openHarness({ messaging: { sandboxStatusIntervalMs: 60_000 } });
const ws = await sealing.workspace('Sealed elsewhere');

describe('credentials sealed under another encryption key', () => {
  it('answers a send 409 CONFLICT credentials_unreadable, writes nothing, and the sealing instance still sends', async () => {
    const contact = await sealing.db.prisma.customer.create({
      data: { company_id: ws.workspace_id, name: 'Ana', wa_id: '15550133444', phone_number: '+15550133444' },
    });
    const conversation = await seedConversation(sealing.db.prisma, ws, contact.id);
    const send = (through: typeof sealing) =>
      through.fetch('/api/v1/messages', {
        method: 'POST',
        key: ws.api_key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ conversation_id: conversation.id, body: 'Hello' }),
      });

    const refused = await send(otherKey);
    expect(refused.status).toBe(409);
    const { error } = await refused.json();
    expect(error).toMatchObject({ code: 'CONFLICT', details: { reason: 'credentials_unreadable' } });
    expect(error.message).toContain('ENCRYPTION_KEY');
    expect(await sealing.db.prisma.message.count({ where: { conversation_id: conversation.id } })).toBe(0);

    const sent = await send(sealing);
    expect(sent.status).toBe(201);
  });

  it('refuses the provider callback for the number with 409 credentials_unreadable, writing nothing; the sealing instance takes it', async () => {
    const body = JSON.stringify(inboundPayload(ws.phone_number_id, { from: '15550144555', text: 'Are you open?' }));
    const callback = (through: typeof sealing) =>
      through.fetch('/webhooks/whatsapp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(body, ws.app_secret) },
        body,
      });
    const received = () => sealing.db.prisma.message.count({ where: { company_id: ws.workspace_id, direction: 'inbound' } });

    const refused = await callback(otherKey);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatchObject({ code: 'CONFLICT', details: { reason: 'credentials_unreadable' } });
    expect(await received()).toBe(0);

    expect((await callback(sealing)).status).toBe(200);
    expect(await received()).toBe(1);
  });
});

// Marketing consent, on both providers and every surface: a contact who writes STOP is opted out (source keyword,
// contact.consent recorded, the workspace's confirmation sent back), a MARKETING template to it is 409
// CONTACT_OPTED_OUT on REST, GraphQL and MCP with nothing sent, a UTILITY template and a reply in the window still
// go, START opts it back in; Meta's 131050 opts a contact out (source provider); a person sets consent through the
// API with its source; the settings are checked and only keys with the campaigns scope change them.
import { describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { randomInt } from 'node:crypto';
import { PROVIDERS, openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';
import { inboundPayload } from '../support/whatsappPayloads.js';
import { getJson, sendJson } from '../support/restFixtures.js';
import { envelopeProblems } from '../support/webhooks.js';
import { operation } from '../../facades/core/operations.js';
import { openMcpClient } from '../support/mcpClient.js';

const MARKETING = {
  name: 'coupon_offer',
  language: 'en_US',
  header: 'Ana',
  body: ['20%'],
  buttons: [
    { index: 0, sub_type: 'copy_code', value: 'SAVE20' },
    { index: 1, sub_type: 'quick_reply', value: 'no-thanks' },
  ],
};
const UTILITY = { name: 'appointment_reminder', language: 'en_US', parameters: ['Ana', 'Friday', '10:00'] };

describe.each(PROVIDERS)('marketing consent on the %s provider', async (provider) => {
  const world = await openMessagingWorld(provider);
  const { harness } = world;
  const prisma = harness.db.prisma;

  async function writeIn(ws: MessagingWorkspace, from: string, text: string) {
    const response = await world.webhook(inboundPayload(ws.phoneNumberId, { from, name: 'Ana', text }), ws.appSecret);
    expect(response.status).toBe(200);
    return prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId, wa_id: from } });
  }

  const outbound = (ws: MessagingWorkspace) => prisma.message.count({ where: { company_id: ws.workspaceId, direction: 'outbound' } });
  const providerSends = () => world.graph?.sends.length ?? 0;

  async function mcpCall(key: string, name: string, args: Record<string, unknown>) {
    const mcp = await openMcpClient(harness, key);
    try {
      const { isError, json } = await mcp.call(name, args);
      return { isError, json };
    } finally {
      await mcp.close();
    }
  }

  it('STOP opts out with its confirmation; a MARKETING template is then 409 everywhere with nothing sent; UTILITY and replies still go; START opts back in', async () => {
    const ws = await world.workspace();
    const settings = await sendJson(harness, 'PATCH', '/api/v1/consent-settings', ws.apiKey, {
      opt_out_confirmation: 'You will get no more offers. Write START to come back.',
    });
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({
      opt_out_keywords: ['STOP', 'UNSUBSCRIBE', 'PARAR', 'BAJA'],
      opt_in_keywords: ['START', 'SUBSCRIBE'],
    });

    const from = `1555${randomInt(1_000_000, 9_999_999)}`;
    const contact = await writeIn(ws, from, '  stop ');
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { customer_id: contact.id } });
    const detail = await getJson(harness, `/api/v1/contacts/${contact.id}`, { key: ws.apiKey });
    expect(detail.body.marketing_consent).toMatchObject({ status: 'opted_out', source: 'keyword' });
    // The confirmation goes back as a free-form reply inside the window the STOP opened.
    await expect
      .poll(() => prisma.message.findFirst({ where: { conversation_id: conversation.id, sender_type: 'consent' }, select: { body: true } }))
      .toEqual({ body: 'You will get no more offers. Write START to come back.' });
    const [consentEvent] = await prisma.event.findMany({ where: { company_id: ws.workspaceId, type: 'contact.consent' } });
    const envelope = JSON.parse(consentEvent!.body);
    expect(envelopeProblems(envelope)).toEqual([]);
    expect(envelope.data).toMatchObject({
      contact_id: contact.id,
      marketing_consent: { status: 'opted_out', source: 'keyword' },
      previous_status: 'unknown',
    });
    const feed = await getJson(harness, '/api/v1/events?type=contact.consent', { key: ws.apiKey });
    expect(feed.body.data.map((event: { id: string }) => event.id)).toEqual([envelope.id]);

    const [messagesBefore, sendsBefore] = [await outbound(ws), providerSends()];
    const rest = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, { conversation_id: conversation.id, template: MARKETING });
    expect(rest.status).toBe(409);
    expect(rest.body.error).toMatchObject({ code: 'CONTACT_OPTED_OUT', details: { contact_id: contact.id, category: 'MARKETING' } });
    const byNumber = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, { to: `+${from}`, template: MARKETING });
    expect(byNumber.status).toBe(409);
    const graphql = await harness.graphql(ws.apiKey, print(operation('MessageSend')), {
      conversation_id: conversation.id,
      template: MARKETING,
    });
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'CONTACT_OPTED_OUT' });
    const mcp = await mcpCall(ws.apiKey, 'messages_send', { conversation_id: conversation.id, template: MARKETING });
    expect(mcp).toMatchObject({ isError: true, json: { error: { code: 'CONTACT_OPTED_OUT' } } });
    expect([await outbound(ws), providerSends()]).toEqual([messagesBefore, sendsBefore]);

    const utility = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, { conversation_id: conversation.id, template: UTILITY });
    expect(utility.status).toBe(201);
    const reply = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, { conversation_id: conversation.id, body: 'Noted, Ana.' });
    expect(reply.status).toBe(201);

    await writeIn(ws, from, 'START');
    const back = await getJson(harness, `/api/v1/contacts/${contact.id}`, { key: ws.apiKey });
    expect(back.body.marketing_consent).toMatchObject({ status: 'opted_in', source: 'keyword' });
    const marketing = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, {
      conversation_id: conversation.id,
      template: MARKETING,
    });
    expect(marketing.status).toBe(201);
    // No opt-in confirmation was set: none was sent.
    expect(await prisma.message.count({ where: { conversation_id: conversation.id, sender_type: 'consent' } })).toBe(1);
  });

  it("Meta's 131050 on a marketing send opts the contact out, source provider, and the message keeps the provider's error", async () => {
    const ws = await world.workspace();
    const sent = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, { to: '+15550131050', template: MARKETING });
    const contact = await prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId, phone_number: '+15550131050' } });
    await expect
      .poll(async () => (await getJson(harness, `/api/v1/contacts/${contact.id}`, { key: ws.apiKey })).body.marketing_consent)
      .toMatchObject({ status: 'opted_out', source: 'provider' });
    const message = await prisma.message.findFirstOrThrow({ where: { company_id: ws.workspaceId, direction: 'outbound' } });
    // The sandbox refuses at once (502); Meta accepts and then reports the failure by a status webhook.
    expect(sent.status).toBe(provider === 'sandbox' ? 502 : 201);
    const read = await getJson(harness, `/api/v1/messages/${message.id}`, { key: ws.apiKey });
    expect(read.body.error).toMatchObject({ code: '131050', retryable: false });
    expect(read.body.error.details).toContain('stop receiving marketing messages');
    const again = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, { to: '+15550131050', template: MARKETING });
    expect(again.status).toBe(409);
  });

  it('a person sets consent with its source; bad values are 400; a read-only key may not', async () => {
    const ws = await world.workspace();
    const contact = await writeIn(ws, `1555${randomInt(1_000_000, 9_999_999)}`, 'Hello');
    const set = await sendJson(harness, 'PUT', `/api/v1/contacts/${contact.id}/consent`, ws.apiKey, {
      status: 'opted_out',
      source: 'console',
    });
    expect(set.status).toBe(200);
    expect(set.body.marketing_consent).toMatchObject({ status: 'opted_out', source: 'console' });
    const listed = await getJson(harness, '/api/v1/contacts', { key: ws.apiKey });
    expect(listed.body.data[0].marketing_consent).toMatchObject({ status: 'opted_out', source: 'console' });
    const viaMcp = await mcpCall(ws.apiKey, 'contacts_consent_update', { id: contact.id, status: 'opted_in' });
    expect(viaMcp.json.marketing_consent).toMatchObject({ status: 'opted_in', source: 'api' });

    const bad = await sendJson(harness, 'PUT', `/api/v1/contacts/${contact.id}/consent`, ws.apiKey, { status: 'maybe', source: 'keyword' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.details).sort()).toEqual(['source', 'status']);
    const clash = await sendJson(harness, 'PATCH', '/api/v1/consent-settings', ws.apiKey, { opt_in_keywords: ['stop'] });
    expect(clash.status).toBe(400);
    expect(clash.body.error.details).toHaveProperty('opt_in_keywords');

    const contactsOnly = await harness.key(ws.workspaceId, ['customers']);
    expect((await sendJson(harness, 'PATCH', '/api/v1/consent-settings', contactsOnly, { opt_out_keywords: ['ALTO'] })).status).toBe(403);
    const readOnly = await harness.key(ws.workspaceId, ['contacts:read']);
    expect((await getJson(harness, '/api/v1/consent-settings', { key: readOnly })).status).toBe(200);
    expect((await sendJson(harness, 'PATCH', '/api/v1/consent-settings', readOnly, { opt_out_keywords: ['ALTO'] })).status).toBe(403);
    expect((await sendJson(harness, 'PUT', `/api/v1/contacts/${contact.id}/consent`, readOnly, { status: 'opted_out' })).status).toBe(403);
    expect((await getJson(harness, '/api/v1/consent-settings')).status).toBe(401);
  });
});

// The sandbox tried without leaving the console: POST /api/v1/sandbox/inbound, the sandboxInboundSend mutation and
// the MCP tool sandbox_inbound_send make up a customer message that is signed and handled as a provider delivery:
// 202 {message_id, conversation_id}, the contact and conversation found or created, message.received recorded. The
// other doors: no key 401, a key without the messages scope 403, a WhatsApp workspace 404, bad input 400. The app
// secret rotates (GraphQL, CLI's resolver): the old one signs nothing any more, the new one does, and the
// simulation keeps working because it signs with whatever secret is current.
import { describe, expect, it } from 'vitest';
import { openMessagingWorld } from '../support/messaging.js';
import { inboundPayload } from '../support/whatsappPayloads.js';
import { createIntegration } from '../../resolvers/workspace/integrations.js';
import { openMcpClient } from '../support/mcpClient.js';

const world = await openMessagingWorld('sandbox');
const h = world.harness;

function simulate(key: string | undefined, body: unknown) {
  return h.fetch('/api/v1/sandbox/inbound', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('a simulated customer message', () => {
  it('arrives as a signed provider delivery would: 202 with the message and its conversation, and message.received', async () => {
    const ws = await world.workspace();
    const answer = await simulate(ws.apiKey, { from: '+15550001111', name: 'Sam Sample', text: 'Is my order on its way?' });
    expect(answer.status).toBe(202);
    const sent = (await answer.json()) as { message_id: string; conversation_id: string };
    expect(sent).toEqual({ message_id: expect.any(String), conversation_id: expect.any(String) });
    const message = await h.db.prisma.message.findUniqueOrThrow({
      where: { id: sent.message_id },
      include: { conversation: { include: { customer: true } } },
    });
    expect(message).toMatchObject({ direction: 'inbound', body: 'Is my order on its way?', conversation_id: sent.conversation_id });
    expect(message.conversation.customer).toMatchObject({ name: 'Sam Sample', wa_id: '15550001111' });
    const events = await (await h.fetch('/api/v1/events?type=message.received', { key: ws.apiKey })).json();
    expect(JSON.stringify(events)).toContain(sent.message_id);

    // The same customer again, with the sample photo: the same conversation.
    const again = await simulate(ws.apiKey, { from: '+15550001111', text: 'Here is a photo', image: true });
    expect(again.status).toBe(202);
    const photo = (await again.json()) as { message_id: string; conversation_id: string };
    expect(photo.conversation_id).toBe(sent.conversation_id);
    expect(await h.db.prisma.message.findUniqueOrThrow({ where: { id: photo.message_id } })).toMatchObject({ type: 'image' });
  });

  it('is the same on GraphQL and MCP', async () => {
    const ws = await world.workspace();
    const viaGraphql = await h.graphql<{ sandboxInboundSend: { message_id: string } }>(
      ws.apiKey,
      'mutation { sandboxInboundSend(from: "+15550002222", text: "Hello from GraphQL") { message_id conversation_id } }',
    );
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(viaGraphql.body.data?.sandboxInboundSend.message_id).toEqual(expect.any(String));

    const mcp = await openMcpClient(h, ws.apiKey);
    const result = await mcp.call('sandbox_inbound_send', { from: '+15550002222', text: 'Hello from MCP' });
    await mcp.close();
    expect(result).toMatchObject({ isError: false, json: { message_id: expect.any(String), conversation_id: expect.any(String) } });
  });

  it('is refused at the other doors: no key 401, no messages scope 403, a workspace not on the sandbox 404, bad input 400', async () => {
    const ws = await world.workspace();
    const body = { from: '+15550003333', text: 'Hi' };
    expect((await simulate(undefined, body)).status).toBe(401);
    expect((await simulate(await h.key(ws.workspaceId, ['conversations']), body)).status).toBe(403);
    expect((await simulate(ws.apiKey, { from: 'nobody', text: '' })).status).toBe(400);

    const other = await world.workspace();
    await h.db.prisma.integration.updateMany({ where: { company_id: other.workspaceId }, data: { status: 'disconnected' } });
    await createIntegration(h.services, {
      workspaceId: other.workspaceId,
      provider: 'whatsapp',
      phone_number_id: '1065403522429' + String(Date.now()).slice(-5),
      business_account_id: '102290129340398',
      access_token: 'EAAGexample',
      app_secret: 'meta-app-secret',
    });
    const refused = await simulate(other.apiKey, body);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error.code).toBe('NOT_FOUND');
  });

  it('keeps working after the app secret rotates, while the old secret signs nothing any more', async () => {
    const ws = await world.workspace();
    const rotated = await h.graphql<{ integrationRotateSecret: { app_secret: string } }>(
      ws.apiKey,
      'mutation ($id: ID!) { integrationRotateSecret(id: $id) { integration_id app_secret } }',
      { id: ws.integrationId },
    );
    // Integrations are an owner's or admin's: an API key may not rotate them.
    expect(rotated.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_SCOPE');

    const { rotateIntegrationSecret } = await import('../../resolvers/workspace/integrations.js');
    const { app_secret } = await rotateIntegrationSecret(h.services, { workspaceId: ws.workspaceId, id: ws.integrationId });
    expect(app_secret).not.toBe(ws.appSecret);
    const payload = inboundPayload(ws.phoneNumberId, { from: '15550004444', text: 'Signed with the old secret' });
    expect((await world.webhook(payload, ws.appSecret)).status).toBe(401);
    expect((await world.webhook(payload, app_secret)).status).toBe(200);
    expect((await simulate(ws.apiKey, { from: '+15550004444', text: 'Still simulated' })).status).toBe(202);
  });
});

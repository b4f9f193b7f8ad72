// The AI-agent hand-off: an inbound message on a conversation with service_enabled on reaches the agent
// (with the message, its conversation and its contact); with it off, the agent hears nothing. Runs on the
// sandbox and on the whatsapp provider. The switch is flipped the way a dashboard does, through the
// GraphQL conversationUpdate mutation.
import { describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import type { AgentHandOff, ConversationAgent } from '../../resolvers/shared/agentHandOff.js';
import { PROVIDERS, openMessagingWorld } from '../support/messaging.js';
import { inboundPayload } from '../support/whatsappPayloads.js';

/** An agent that remembers what it was handed. */
function recordingAgent(): ConversationAgent & { handOffs: AgentHandOff[] } {
  const handOffs: AgentHandOff[] = [];
  return {
    handOffs,
    async onInboundMessage(handOff) {
      handOffs.push(handOff);
    },
  };
}

describe.each(PROVIDERS)('agent hand-off on the %s provider', async (provider) => {
  const agent = recordingAgent();
  const world = await openMessagingWorld(provider, { agent });
  const prisma = world.harness.db.prisma;

  it('hands each inbound message to the agent while the conversation has service_enabled on, and stops when it is switched off', async () => {
    const ws = await world.workspace();
    const from = `1555${randomInt(1_000_000, 9_999_999)}`;
    const mine = () => agent.handOffs.filter((handOff) => handOff.workspaceId === ws.workspaceId);

    await world.webhook(inboundPayload(ws.phoneNumberId, { from, text: 'First, agent off' }), ws.appSecret);
    expect(mine()).toEqual([]);

    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    const toggle = (service_enabled: boolean) =>
      world.harness.graphql(
        ws.apiKey,
        'mutation($id: ID!, $on: Boolean) { conversationUpdate(id: $id, service_enabled: $on) { service_enabled } }',
        {
          id: conversation.id,
          on: service_enabled,
        },
      );
    expect((await toggle(true)).body.data).toEqual({ conversationUpdate: { service_enabled: true } });
    await world.webhook(inboundPayload(ws.phoneNumberId, { from, text: 'Can I change my address?' }), ws.appSecret);
    expect(mine()).toHaveLength(1);
    expect(mine()[0]).toMatchObject({
      workspaceId: ws.workspaceId,
      message: { conversation_id: conversation.id, direction: 'inbound', status: 'received', body: 'Can I change my address?' },
      conversation: { id: conversation.id, service_enabled: true },
      contact: { wa_id: from, phone_number: `+${from}` },
    });

    expect((await toggle(false)).body.data).toEqual({ conversationUpdate: { service_enabled: false } });
    await world.webhook(inboundPayload(ws.phoneNumberId, { from, text: 'Agent off again' }), ws.appSecret);
    expect(mine()).toHaveLength(1);
  });

  it('does not hand a redelivered message to the agent twice', async () => {
    const ws = await world.workspace();
    const payload = inboundPayload(ws.phoneNumberId, { from: `1555${randomInt(1_000_000, 9_999_999)}` });
    await world.webhook(payload, ws.appSecret);
    await prisma.conversation.updateMany({ where: { company_id: ws.workspaceId }, data: { service_enabled: true } });
    await world.webhook(payload, ws.appSecret);
    expect(agent.handOffs.filter((handOff) => handOff.workspaceId === ws.workspaceId)).toEqual([]);
  });
});

describe('a failing agent', async () => {
  const failing: ConversationAgent = {
    async onInboundMessage() {
      throw new Error('the model is unavailable');
    },
  };
  const world = await openMessagingWorld('sandbox', { agent: failing });

  it('does not fail the provider webhook: the message is stored and acknowledged', async () => {
    const ws = await world.workspace();
    const from = `1555${randomInt(1_000_000, 9_999_999)}`;
    await world.webhook(inboundPayload(ws.phoneNumberId, { from }), ws.appSecret);
    await world.harness.db.prisma.conversation.updateMany({ where: { company_id: ws.workspaceId }, data: { service_enabled: true } });
    const response = await world.webhook(inboundPayload(ws.phoneNumberId, { from, text: 'Anyone there?' }), ws.appSecret);
    expect(response.status).toBe(200);
    expect(await world.harness.db.prisma.message.count({ where: { company_id: ws.workspaceId } })).toBe(2);
  });
});

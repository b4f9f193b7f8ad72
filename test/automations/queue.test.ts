// How events wait in the outbox for their two readers, the automations and the webhook fan-out. An event is recorded
// already done for the automations when no trigger follows its type (a send's message.created, its delivery statuses),
// and already dispatched when no active subscription of its workspace names its type, so that neither reader has to
// write it again. The automations' claim leases the followed events and hands them to the rules, in order; an event no
// trigger follows that still waits (recorded before that rule) is marked done as it is taken, never leased nor handed
// over. No worker runs in this file: it claims by hand.
import { describe, expect, it } from 'vitest';
import { openAutomationWorld } from '../support/automations.js';
import { postJson } from '../support/restFixtures.js';
import { claimEvents } from '../../workers/automations/queue.js';
import { AUTOMATION_EVENT_TYPES } from '../../resolvers/shared/outbox.js';

const { prisma, contact, say, conversationOf, harness, world } = await openAutomationWorld();
const followed: readonly string[] = AUTOMATION_EVENT_TYPES;
const isFollowed = (type: string) => followed.includes(type);

/** A new workspace where a contact wrote; `send` answers the contact through the API and returns the message's id. */
async function conversationToAnswer() {
  const ws = await world.workspace();
  const from = contact();
  await say(ws, from, 'Hello');
  const conversation = await conversationOf(ws, from);
  const send = async () => {
    const sent = await postJson(harness, '/api/v1/messages', ws.apiKey, { conversation_id: conversation.id, body: 'Hi there' });
    expect(sent.status).toBe(201);
    return (sent.body as { message: { id: string } }).message.id;
  };
  return { ws, send };
}

describe('events in the outbox', () => {
  it('are recorded done for the automations unless a trigger follows their type', async () => {
    const { ws, send } = await conversationToAnswer();
    await send();

    const stored = await prisma.event.findMany({ where: { company_id: ws.workspaceId } });
    expect(stored.some((event) => isFollowed(event.type))).toBe(true);
    expect(stored.some((event) => !isFollowed(event.type))).toBe(true);
    for (const event of stored) {
      expect(event.automations_done_at === null, event.type).toBe(isFollowed(event.type));
    }
  });

  it('are recorded dispatched unless an active subscription of their workspace names their type', async () => {
    const { ws, send } = await conversationToAnswer();
    /** Whether the send's message.created event waits for the fan-out. */
    const waiting = async (messageId: string) => {
      const event = await prisma.event.findFirstOrThrow({
        where: { company_id: ws.workspaceId, type: 'message.created', body: { contains: messageId } },
      });
      return event.dispatched_at === null;
    };

    const unsubscribed = await send();
    const subscription = await prisma.webhookSubscription.create({
      data: { company_id: ws.workspaceId, url: 'https://receiver.example.com/hook', events: ['message.created'], secret: 'sealed' },
    });
    const subscribed = await send();
    await prisma.webhookSubscription.update({ where: { id: subscription.id }, data: { active: false } });
    const disabled = await send();

    expect(await waiting(unsubscribed)).toBe(false);
    expect(await waiting(subscribed)).toBe(true);
    expect(await waiting(disabled)).toBe(false);
    // The subscription names message.created only: the send's statuses never wait.
    const statuses = await prisma.event.findMany({ where: { company_id: ws.workspaceId, type: 'message.status' } });
    expect(statuses.every((event) => event.dispatched_at !== null)).toBe(true);
  });

  it('are leased and returned to the automations in order when followed, and marked done as taken when not', async () => {
    const { ws, send } = await conversationToAnswer();
    await send();
    // As events were recorded before the automations' flag was set at recording: every one waits.
    await prisma.event.updateMany({ where: { company_id: ws.workspaceId }, data: { automations_done_at: null } });

    const returned: string[] = [];
    for (;;) {
      const { taken, events } = await claimEvents(prisma, { limit: 50, leaseMs: 60_000, followed });
      returned.push(...events.filter((event) => event.company_id === ws.workspaceId).map((event) => event.id));
      if (taken < 50) break;
    }
    const stored = await prisma.event.findMany({ where: { company_id: ws.workspaceId }, orderBy: { id: 'asc' } });
    expect(stored.some((event) => !isFollowed(event.type))).toBe(true);
    expect(returned).toEqual(stored.filter((event) => isFollowed(event.type)).map((event) => event.id));
    for (const event of stored) {
      if (isFollowed(event.type)) {
        expect(event, event.type).toMatchObject({ automations_done_at: null, automations_lease_until: expect.any(Date) });
      } else {
        expect(event, event.type).toMatchObject({ automations_done_at: expect.any(Date), automations_lease_until: null });
      }
    }
  });
});

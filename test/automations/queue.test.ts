// The automations' claim of outbox events: an event of a type some trigger follows (an inbound message, a new contact)
// is leased and handed to the rules, in order; an event no trigger follows (a send's message.created, its delivery
// statuses) is marked done as it is taken, never leased nor handed over. No worker runs in this file: it claims by hand.
import { describe, expect, it } from 'vitest';
import { openAutomationWorld } from '../support/automations.js';
import { postJson } from '../support/restFixtures.js';
import { claimEvents } from '../../workers/automations/queue.js';
import { TRIGGERS_OF_EVENT } from '../../resolvers/automations/run.js';

const { prisma, contact, say, conversationOf, harness, world } = await openAutomationWorld();
const followed = Object.keys(TRIGGERS_OF_EVENT);

describe('claiming events for the automations', () => {
  it('leases and returns the followed events in order, and marks the others done as it takes them', async () => {
    const ws = await world.workspace();
    const from = contact();
    await say(ws, from, 'Hello');
    const conversation = await conversationOf(ws, from);
    const sent = await postJson(harness, '/api/v1/messages', ws.apiKey, { conversation_id: conversation.id, body: 'Hi there' });
    expect(sent.status).toBe(201);

    const returned: string[] = [];
    for (;;) {
      const { taken, events } = await claimEvents(prisma, { limit: 50, leaseMs: 60_000, followed });
      returned.push(...events.filter((event) => event.company_id === ws.workspaceId).map((event) => event.id));
      if (taken < 50) break;
    }
    const stored = await prisma.event.findMany({ where: { company_id: ws.workspaceId }, orderBy: { id: 'asc' } });
    const isFollowed = (type: string) => followed.includes(type);
    expect(stored.some((event) => isFollowed(event.type))).toBe(true);
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

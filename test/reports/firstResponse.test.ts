// The first response a conversation keeps for the reports (migration 0040: first_inbound_at, first_response_at and
// the responder, written by a trigger on messages) follows its messages however they are written: a reply sent before
// the contact ever wrote is not a response, a campaign's message is not one, an inbound message delivered late and
// older than the first becomes the first (and its response is looked up again), and rows inserted together in one
// statement count as if written one by one. What the reports show is read through GraphQL, as a dashboard would.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';

const harness = await openHarness();
const { data } = graphqlCalls(harness);
const prisma = harness.db.prisma;

const workspace = await harness.workspace('Reports first response');
const company_id = workspace.workspace_id;
const owner = workspace.user_id;
const DAY = { from: '2026-09-01T00:00:00.000Z', to: '2026-09-02T00:00:00.000Z' };
const at = (minutes: number) => new Date(new Date(DAY.from).getTime() + 10 * 3_600_000 + minutes * 60_000);

async function conversation() {
  const customer = await prisma.customer.create({ data: { company_id, name: 'First response customer' } });
  return prisma.conversation.create({ data: { company_id, customer_id: customer.id, provider: 'sandbox', created_at: at(-60) } });
}
const inbound = (conversation_id: string, minutes: number) => ({
  company_id,
  conversation_id,
  direction: 'inbound',
  status: 'received',
  sender_type: 'contact',
  body: 'Hello?',
  created_at: at(minutes),
});
const outbound = (conversation_id: string, minutes: number, sender_type = 'user') => ({
  company_id,
  conversation_id,
  direction: 'outbound',
  status: 'delivered',
  sender_type,
  sender_id: sender_type === 'user' ? owner : null,
  body: 'Hi!',
  created_at: at(minutes),
});

const REPORT = `query($from: DateTime!, $to: DateTime!) { reportConversations(from: $from, to: $to) {
  totals { first_response_conversations unanswered_conversations first_response_median_seconds first_response_p90_seconds } } }`;
const PEOPLE = `query($from: DateTime!, $to: DateTime!) { reportPeople(from: $from, to: $to) {
  rows { user_id first_response_conversations first_response_median_seconds } } }`;

async function firstResponses() {
  const { reportConversations } = await data(workspace.api_key, REPORT, DAY);
  return reportConversations.totals;
}

describe('the first response kept on each conversation', () => {
  it('waits for the contact, skips campaign messages, and moves back when an older inbound message arrives late', async () => {
    const opened = await conversation();
    // A reply before the contact ever wrote, then the contact's message, a campaign's message, and a person's reply.
    await prisma.message.create({ data: outbound(opened.id, -30) });
    expect(await firstResponses()).toMatchObject({ first_response_conversations: 0, unanswered_conversations: 0 });
    await prisma.message.create({ data: inbound(opened.id, 0) });
    expect(await firstResponses()).toMatchObject({ first_response_conversations: 0, unanswered_conversations: 1 });
    await prisma.message.create({ data: outbound(opened.id, 1, 'campaign') });
    expect(await firstResponses()).toMatchObject({ first_response_conversations: 0, unanswered_conversations: 1 });
    await prisma.message.create({ data: outbound(opened.id, 5) });
    expect(await firstResponses()).toEqual({
      first_response_conversations: 1,
      unanswered_conversations: 0,
      first_response_median_seconds: 300,
      first_response_p90_seconds: 300,
    });
    // Delivered late: the contact had written 40 minutes before; the reply at -30 answered it, after 10 minutes.
    await prisma.message.create({ data: inbound(opened.id, -40) });
    expect(await firstResponses()).toMatchObject({ first_response_conversations: 1, first_response_median_seconds: 600 });
    // Later messages change nothing.
    await prisma.message.create({ data: inbound(opened.id, 20) });
    await prisma.message.create({ data: outbound(opened.id, 21) });
    expect(await firstResponses()).toMatchObject({ first_response_conversations: 1, first_response_median_seconds: 600 });
    const { reportPeople } = await data(workspace.api_key, PEOPLE, DAY);
    expect(reportPeople.rows).toEqual([{ user_id: owner, first_response_conversations: 1, first_response_median_seconds: 600 }]);
  });

  it('counts messages inserted together in one statement as if they were written one by one', async () => {
    const [first, second] = [await conversation(), await conversation()];
    // Out of time order on purpose: the second conversation's reply comes before its inbound message in the list.
    const { count } = await prisma.message.createMany({
      data: [
        outbound(second.id, 102),
        inbound(first.id, 100),
        outbound(first.id, 100.5, 'campaign'),
        outbound(first.id, 101),
        inbound(second.id, 100),
        inbound(first.id, 99),
      ],
    });
    expect(count).toBe(6);
    const kept = await prisma.conversation.findMany({
      where: { id: { in: [first.id, second.id] } },
      select: { id: true, first_inbound_at: true, first_response_at: true, first_responder_type: true, first_responder_id: true },
    });
    const byId = new Map(kept.map((row) => [row.id, row]));
    expect(byId.get(first.id)).toEqual({
      id: first.id,
      first_inbound_at: at(99),
      first_response_at: at(101),
      first_responder_type: 'user',
      first_responder_id: owner,
    });
    expect(byId.get(second.id)).toMatchObject({ first_inbound_at: at(100), first_response_at: at(102) });
  });
});

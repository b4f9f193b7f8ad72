// Closing a conversation dates its resolution (closed_at), which analytics counts; reopening clears it.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';

const h = await openHarness();
const ws = await h.workspace('Resolution');
const contact = await h.db.prisma.customer.create({ data: { company_id: ws.workspace_id, name: 'Ida' } });

const summary = `query($from: DateTime!, $to: DateTime!) { analyticsSummary(from: $from, to: $to) { totals { conversations_closed resolution_avg_seconds } } }`;
const range = () => ({ from: new Date(Date.now() - 3600_000).toISOString(), to: new Date(Date.now() + 3600_000).toISOString() });

describe('conversation close and reopen', () => {
  it('sets closed_at on close, counted as a resolution by analytics, and clears it on reopen', async () => {
    const conversation = await seedConversation(h.db.prisma, ws, contact.id);
    const closed = await h.graphql(ws.api_key, 'mutation($id: ID!) { conversationClose(id: $id) { status } }', { id: conversation.id });
    expect(closed.body.data).toEqual({ conversationClose: { status: 'closed' } });
    expect((await h.db.prisma.conversation.findUniqueOrThrow({ where: { id: conversation.id } })).closed_at).toBeInstanceOf(Date);
    const afterClose = await h.graphql<{ analyticsSummary: { totals: { conversations_closed: number } } }>(ws.api_key, summary, range());
    expect(afterClose.body.data!.analyticsSummary.totals.conversations_closed).toBe(1);

    await h.graphql(ws.api_key, 'mutation($id: ID!) { conversationReopen(id: $id) { status } }', { id: conversation.id });
    expect((await h.db.prisma.conversation.findUniqueOrThrow({ where: { id: conversation.id } })).closed_at).toBeNull();
    const afterReopen = await h.graphql<{ analyticsSummary: { totals: { conversations_closed: number } } }>(ws.api_key, summary, range());
    expect(afterReopen.body.data!.analyticsSummary.totals.conversations_closed).toBe(0);
  });
});

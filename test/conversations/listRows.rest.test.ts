// The conversations list and search read their conversations with one written statement (resolvers/conversations/
// rows.ts) unless the selection needs more. These tests prove that what the statement reads is what Prisma reads:
// every conversation of a page, with its contact, is the JSON that GET /conversations/{id} answers, and the fields
// computed from its timestamps (the messaging window) agree through GraphQL.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { getJson } from '../support/restFixtures.js';

const h = await openHarness();
const ws = await h.workspace('Listed conversations');
const key = ws.api_key;
const prisma = h.db.prisma;

// Every column filled in, on a few kinds of conversation: closed, snoozed, window closed, never written to.
const hour = 3_600_000;
const contacts = await Promise.all(
  ['Ana Lima', 'Bo Chen', 'Cy Diaz', 'Di Eze'].map((name, index) =>
    prisma.customer.create({
      data: {
        company_id: ws.workspace_id,
        name,
        phone_number: `+1555777000${index}`,
        email: `listed${index}@example.com`,
        metadata: { tier: index, tags: ['a', 'b'], nested: { ok: true } },
        profile_name: `${name} (WhatsApp)`,
        notes: 'Prefers mornings',
        last_message_at: new Date(Date.now() - index * hour),
        marketing_consent_status: index % 2 ? 'opted_in' : 'unknown',
        marketing_consent_source: index % 2 ? 'api' : null,
        marketing_consent_updated_at: index % 2 ? new Date(Date.now() - 5 * hour) : null,
      },
    }),
  ),
);
const conversations = await Promise.all(
  contacts.map((contact, index) =>
    prisma.conversation.create({
      data: {
        company_id: ws.workspace_id,
        customer_id: contact.id,
        integration_id: ws.integration_id,
        provider: 'sandbox',
        status: ['active', 'closed', 'pending', 'active'][index]!,
        service_enabled: index % 2 === 0,
        details: { topic: `order ${index}`, items: [1, 2, 3] },
        last_message_at: index === 3 ? null : new Date(Date.now() - (index + 1) * hour - 123),
        closed_at: index === 1 ? new Date(Date.now() - hour / 2) : null,
        window_closed_at: index === 2 ? new Date(Date.now() - hour / 4) : null,
        snoozed_until: index === 2 ? new Date(Date.now() + hour) : null,
        external_conversation_id: `ext-${index}`,
        session_id: `session-${index}`,
      },
    }),
  ),
);

describe('a page of conversations read by the written statement', () => {
  it('answers each conversation, with its contact, as GET /conversations/{id} does', async () => {
    const list = await getJson(h, '/api/v1/conversations?limit=10', { key });
    expect(list.status).toBe(200);
    const listed = (list.body as { data: { id: string }[] }).data;
    expect(listed.map((conversation) => conversation.id).sort()).toEqual(conversations.map((conversation) => conversation.id).sort());
    for (const conversation of listed) {
      const single = await getJson(h, `/api/v1/conversations/${conversation.id}`, { key });
      expect(conversation).toEqual(single.body);
    }
  });

  it('answers search results the same way, in the list order', async () => {
    const found = await getJson(h, `/api/v1/conversations/search?q=${encodeURIComponent('example.com')}`, { key });
    const listed = (found.body as { data: { id: string }[] }).data;
    const all = (await getJson(h, '/api/v1/conversations?limit=10', { key })).body as { data: unknown[] };
    expect(listed).toEqual(all.data);
  });

  it('computes the messaging window from the listed timestamps as from the single record', async () => {
    const fields =
      'id last_message_at messaging_window { open closes_at } customer { id created_at marketing_consent { status updated_at } }';
    const listed = await h.graphql<any>(key, `{ conversations(limit: 10) { data { ${fields} } } }`);
    expect(listed.body.errors).toBeUndefined();
    for (const conversation of listed.body.data.conversations.data) {
      const single = await h.graphql<any>(key, `query ($id: ID!) { conversation(id: $id) { ${fields} } }`, { id: conversation.id });
      expect(conversation).toEqual(single.body.data.conversation);
    }
    const windowClosed = listed.body.data.conversations.data.find((c: { id: string }) => c.id === conversations[2]!.id);
    expect(windowClosed.messaging_window.open).toBe(false);
  });
});

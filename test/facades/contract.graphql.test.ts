// The GraphQL contract returns the spec's resources with exactly its field names, envelopes and formats.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';

const harness = await openHarness();
const ws = await harness.workspace('Fields');
const prisma = harness.db.prisma;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const vip = await prisma.tag.create({ data: { company_id: ws.workspace_id, name: 'vip', color: '#d4af37' } });
const lead = await prisma.tag.create({ data: { company_id: ws.workspace_id, name: 'lead' } });
const ana = await prisma.customer.create({
  data: {
    company_id: ws.workspace_id,
    name: 'Ana Silva',
    profile_name: 'Ana',
    phone_number: '+351912345678',
    wa_id: '351912345678',
    email: 'ana@example.com',
    metadata: { plan: 'gold' },
    notes: 'Prefers mornings',
    last_message_at: new Date('2026-11-20T10:00:00.000Z'),
    tags: { create: [{ tag_id: vip.id }, { tag_id: lead.id }] },
  },
});
const conversation = await prisma.conversation.create({
  data: {
    company_id: ws.workspace_id,
    customer_id: ana.id,
    integration_id: ws.integration_id,
    provider: 'sandbox',
    last_message_at: new Date('2026-11-20T10:00:00.000Z'),
    details: { topic: 'delivery' },
  },
});

describe('resources', () => {
  it('returns users with the spec fields, createdAt in camelCase', async () => {
    const { body } = await harness.graphql<{ users: Record<string, unknown>[] }>(
      ws.api_key,
      '{ users { id name email role status createdAt } }',
    );
    expect(body.data!.users).toEqual([
      {
        id: ws.user_id,
        name: null,
        email: expect.stringContaining('@example.com'),
        role: 'owner',
        status: 'active',
        createdAt: expect.stringMatching(ISO),
      },
    ]);
  });

  it('returns a contact detail with profile, notes, tags, last_message_at and conversation_count', async () => {
    const { body } = await harness.graphql<{ contact: Record<string, unknown> }>(
      ws.api_key,
      `query($id: ID!) { contact(id: $id) { id company_id phone_number wa_id email name image_url metadata created_at updated_at
        profile_name notes tags last_message_at conversation_count } }`,
      { id: ana.id },
    );
    expect(body.data!.contact).toEqual({
      id: ana.id,
      company_id: ws.workspace_id,
      phone_number: '+351912345678',
      wa_id: '351912345678',
      email: 'ana@example.com',
      name: 'Ana Silva',
      image_url: null,
      metadata: { plan: 'gold' },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      profile_name: 'Ana',
      notes: 'Prefers mornings',
      tags: ['lead', 'vip'],
      last_message_at: '2026-11-20T10:00:00.000Z',
      conversation_count: 1,
    });
  });

  it('lists conversations in the {data, next_cursor, has_more} envelope, each embedding its customer', async () => {
    const { body } = await harness.graphql<{
      conversations: { data: Record<string, unknown>[]; next_cursor: string | null; has_more: boolean };
    }>(
      ws.api_key,
      `{ conversations { has_more next_cursor data { id company_id customer_id agent_id integration_id session_id provider status
        service_enabled assigned_user_id details last_message_at external_conversation_id created_at updated_at
        customer { id name phone_number } } } }`,
    );
    expect(body.data!.conversations).toEqual({
      has_more: false,
      next_cursor: null,
      data: [
        {
          id: conversation.id,
          company_id: ws.workspace_id,
          customer_id: ana.id,
          agent_id: null,
          integration_id: ws.integration_id,
          session_id: null,
          provider: 'sandbox',
          status: 'active',
          service_enabled: false,
          assigned_user_id: null,
          details: { topic: 'delivery' },
          last_message_at: '2026-11-20T10:00:00.000Z',
          external_conversation_id: null,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
          customer: { id: ana.id, name: 'Ana Silva', phone_number: '+351912345678' },
        },
      ],
    });
  });

  it('lists tags by name under {tags}', async () => {
    const { body } = await harness.graphql<{ tags: { tags: { name: string; color: string | null }[] } }>(
      ws.api_key,
      '{ tags { tags { name color } } }',
    );
    expect(body.data!.tags.tags).toEqual([
      { name: 'lead', color: null },
      { name: 'vip', color: '#d4af37' },
    ]);
  });

  it('creates a tag and refuses a duplicate name with CONFLICT', async () => {
    const created = await harness.graphql(ws.api_key, 'mutation { tagCreate(name: "support", color: "#e53935") { name color } }');
    expect(created.body.data).toEqual({ tagCreate: { name: 'support', color: '#e53935' } });
    const duplicate = await harness.graphql(ws.api_key, 'mutation { tagCreate(name: "support") { id } }');
    // A failed field of an answer with data: 200, the error carrying its code (infra/graphql/partialAnswers.ts).
    expect(duplicate.status).toBe(200);
    expect(duplicate.body.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', details: { name: 'already exists' } });
  });
});

describe('search and filters', () => {
  it.each([
    ['a name fragment', 'silv'],
    ['a phone fragment', '91234'],
    ['an email fragment', 'ANA@EXAMPLE'],
  ])('finds the contact by %s, case-insensitively', async (_what, q) => {
    const { body } = await harness.graphql<{ contactSearch: { data: { id: string }[] } }>(
      ws.api_key,
      'query($q: String!) { contactSearch(q: $q) { data { id } } }',
      { q },
    );
    expect(body.data!.contactSearch.data.map((contact) => contact.id)).toEqual([ana.id]);
  });

  it('filters contacts by tag', async () => {
    const other = await prisma.customer.create({ data: { company_id: ws.workspace_id, name: 'No Tags' } });
    const tagged = await harness.graphql<{ contacts: { data: { id: string }[] } }>(
      ws.api_key,
      'query($t: ID) { contacts(tag_id: $t) { data { id } } }',
      { t: vip.id },
    );
    expect(tagged.body.data!.contacts.data.map((contact) => contact.id)).toEqual([ana.id]);
    const all = await harness.graphql<{ contacts: { data: { id: string }[] } }>(ws.api_key, '{ contacts { data { id } } }');
    expect(all.body.data!.contacts.data.map((contact) => contact.id)).toEqual([other.id, ana.id]);
  });

  it("accepts the guides' status open as active", async () => {
    const { body } = await harness.graphql<{ conversations: { data: { id: string }[] } }>(
      ws.api_key,
      '{ conversations(status: "open") { data { id } } }',
    );
    expect(body.data!.conversations.data.map((row) => row.id)).toEqual([conversation.id]);
  });
});

describe('validation', () => {
  it.each([
    ['limit above 100', '{ contacts(limit: 101) { has_more } }', { limit: 'must be between 1 and 100' }],
    ['limit below 1', '{ conversations(limit: 0) { has_more } }', { limit: 'must be between 1 and 100' }],
    ['a cursor that is not a uuid', '{ contacts(cursor: "abc") { has_more } }', { cursor: 'must be a UUID' }],
    [
      'an unknown status',
      '{ conversations(status: "archived") { has_more } }',
      { status: 'must be one of active, closed, pending (or open)' },
    ],
    [
      'a before that is not a date-time',
      '{ conversations(before: "yesterday") { has_more } }',
      { before: 'must be an ISO 8601 date-time or a next_cursor value' },
    ],
    ['an empty q', '{ contactSearch(q: "") { has_more } }', { q: 'must be at least 1 character' }],
  ])('answers VALIDATION_ERROR with a reason per field for %s', async (_case, query, details) => {
    const { status, body } = await harness.graphql(ws.api_key, query);
    // A failed field of an answer with data: 200, the error carrying its code (infra/graphql/partialAnswers.ts).
    expect(status).toBe(200);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', details });
  });
});

describe('pagination', () => {
  it('pages contacts newest first with the last id as cursor, until has_more is false', async () => {
    const paged = await harness.workspace('Paged');
    for (let i = 0; i < 5; i++) await prisma.customer.create({ data: { company_id: paged.workspace_id, name: `C${i}` } });
    const names: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      type Page = { contacts: { data: { name: string }[]; next_cursor: string | null; has_more: boolean } };
      const { body }: { body: { data?: Page | null } } = await harness.graphql<Page>(
        paged.api_key,
        'query($c: ID) { contacts(limit: 2, cursor: $c) { data { name } next_cursor has_more } }',
        { c: cursor },
      );
      const page: Page['contacts'] = body.data!.contacts;
      names.push(...page.data.map((row) => row.name));
      if (!page.has_more) {
        expect(page.next_cursor).toBeNull();
        break;
      }
      cursor = page.next_cursor;
    }
    expect(names).toEqual(['C4', 'C3', 'C2', 'C1', 'C0']);
  });

  it('pages conversations through ties and into those without messages, each exactly once', async () => {
    const paged = await harness.workspace('Conversations');
    const customer = await prisma.customer.create({ data: { company_id: paged.workspace_id, name: 'Tie' } });
    const same = new Date('2026-11-01T00:00:00.000Z');
    const times = [same, same, same, new Date('2026-11-02T00:00:00.000Z'), null, null];
    const ids = [];
    for (const last_message_at of times) {
      const row = await prisma.conversation.create({
        data: { company_id: paged.workspace_id, customer_id: customer.id, provider: 'sandbox', last_message_at },
      });
      ids.push(row.id);
    }
    const seen: string[] = [];
    let before: string | null = null;
    do {
      type Page = { conversations: { data: { id: string }[]; next_cursor: string | null; has_more: boolean } };
      const { body }: { body: { data?: Page | null } } = await harness.graphql<Page>(
        paged.api_key,
        'query($b: String) { conversations(limit: 2, before: $b) { data { id } next_cursor has_more } }',
        { b: before },
      );
      seen.push(...body.data!.conversations.data.map((row) => row.id));
      before = body.data!.conversations.has_more ? body.data!.conversations.next_cursor : null;
    } while (before);
    const expected = [ids[3], ids[2], ids[1], ids[0], ids[5], ids[4]];
    expect(seen).toEqual(expected);
  });

  it('treats a plain ISO before as "last_message_at older than it", leaving message-less conversations out', async () => {
    const { body } = await harness.graphql<{ conversations: { data: { id: string }[] } }>(
      ws.api_key,
      '{ conversations(before: "2026-11-20T10:00:00.001Z") { data { id } } }',
    );
    expect(body.data!.conversations.data.map((row) => row.id)).toEqual([conversation.id]);
    const none = await harness.graphql<{ conversations: { data: unknown[] } }>(
      ws.api_key,
      '{ conversations(before: "2026-11-20T10:00:00Z") { data { id } } }',
    );
    expect(none.body.data!.conversations.data).toEqual([]);
  });
});

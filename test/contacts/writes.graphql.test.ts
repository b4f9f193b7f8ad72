// Contacts written through GraphQL, as dashboards do: create, update, delete, bulk import, channels and
// tag assignments, with the rule that the contact's phone_number, wa_id and email are its primary channels.
import { describe, expect, it } from 'vitest';
import { useWorkspace } from '../support/workspace.js';
import { seedConversation } from '../support/conversations.js';

const DETAIL = 'id company_id phone_number wa_id email name image_url metadata profile_name notes tags conversation_count';
const CHANNEL = 'id customer_id type value provider is_primary';

const shop = useWorkspace();

async function create(variables: Record<string, unknown>) {
  const { body } = await shop.harness.graphql<{ contactCreate: Record<string, unknown> }>(
    shop.key,
    `mutation($name: String, $phone_number: String, $wa_id: String, $email: String, $metadata: JSON) {
      contactCreate(name: $name, phone_number: $phone_number, wa_id: $wa_id, email: $email, metadata: $metadata) { ${DETAIL} }
    }`,
    variables,
  );
  return body;
}

async function channels(customerId: string) {
  const { body } = await shop.harness.graphql<{ contactChannels: { channels: Record<string, unknown>[] } }>(
    shop.key,
    `query($id: ID!) { contactChannels(customer_id: $id) { channels { ${CHANNEL} } } }`,
    { id: customerId },
  );
  return body.data!.contactChannels.channels;
}

let phoneCounter = 0;
const newPhone = () => `+1415${String(Date.now() % 1_000_000).padStart(6, '0')}${++phoneCounter % 10}`;

describe('contactCreate', () => {
  it('creates a contact whose identities become its primary channels (email lowercased, provider from the integration)', async () => {
    const phone = newPhone();
    const body = await create({ name: 'Ada', phone_number: phone, email: 'Ada@Example.COM', metadata: { plan: 'pro' } });
    const contact = body.data!.contactCreate;
    expect(contact).toMatchObject({
      company_id: shop.workspace.workspace_id,
      name: 'Ada',
      phone_number: phone,
      email: 'ada@example.com',
      wa_id: null,
      metadata: { plan: 'pro' },
      tags: [],
      conversation_count: 0,
    });
    expect(await channels(String(contact['id']))).toEqual([
      expect.objectContaining({ type: 'email', value: 'ada@example.com', provider: 'email', is_primary: true }),
      expect.objectContaining({ type: 'phone', value: phone, provider: 'sandbox', is_primary: true }),
    ]);
  });

  it('refuses an invalid phone, email or image_url with VALIDATION_ERROR and a reason per field', async () => {
    const { body } = await shop.harness.graphql(
      shop.key,
      'mutation { contactCreate(phone_number: "0800", email: "nope", image_url: "ftp://x") { id } }',
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: {
        phone_number: expect.stringContaining('E.164'),
        email: 'must be an email address',
        image_url: 'must be an http(s) URL',
      },
    });
  });

  it('refuses an empty contact', async () => {
    const { body } = await shop.harness.graphql(shop.key, 'mutation { contactCreate(notes: "nothing else") { id } }');
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(body.errors?.[0]?.message).toContain('input');
  });

  it('refuses an identity another contact already has with CONFLICT naming that contact', async () => {
    const phone = newPhone();
    const first = (await create({ phone_number: phone })).data!.contactCreate;
    const second = await create({ name: 'Copy', phone_number: phone });
    expect(second.errors?.[0]?.extensions).toMatchObject({
      code: 'CONFLICT',
      details: { phone_number: 'already belongs to a contact', contact_id: first['id'] },
    });
  });
});

describe('contactUpdate', () => {
  it('changes only the given fields, and null clears one', async () => {
    const contact = (await create({ name: 'Bob', email: 'bob@example.com', metadata: { a: 1 } })).data!.contactCreate;
    const { body } = await shop.harness.graphql<{ contactUpdate: Record<string, unknown> }>(
      shop.key,
      `mutation($id: ID!) { contactUpdate(id: $id, name: "Robert", metadata: null) { ${DETAIL} } }`,
      { id: contact['id'] },
    );
    expect(body.data!.contactUpdate).toMatchObject({ name: 'Robert', email: 'bob@example.com', metadata: null });
  });

  it('writing phone_number changes the primary phone channel; null removes it and the next phone takes its place', async () => {
    const [first, second, third] = [newPhone(), newPhone(), newPhone()];
    const contact = (await create({ phone_number: first })).data!.contactCreate;
    const id = String(contact['id']);
    await shop.harness.graphql(
      shop.key,
      `mutation($id: ID!, $v: String!) { contactChannelAdd(customer_id: $id, type: phone, value: $v) { id } }`,
      {
        id,
        v: second,
      },
    );

    const changed = await shop.harness.graphql<{ contactUpdate: { phone_number: string } }>(
      shop.key,
      'mutation($id: ID!, $p: String) { contactUpdate(id: $id, phone_number: $p) { phone_number } }',
      { id, p: third },
    );
    expect(changed.body.data!.contactUpdate.phone_number).toBe(third);
    expect((await channels(id)).map((channel) => [channel['value'], channel['is_primary']])).toEqual([
      [third, true],
      [second, false],
    ]);

    const cleared = await shop.harness.graphql<{ contactUpdate: { phone_number: string | null } }>(
      shop.key,
      'mutation($id: ID!) { contactUpdate(id: $id, phone_number: null) { phone_number } }',
      { id },
    );
    expect(cleared.body.data!.contactUpdate.phone_number).toBe(second);
  });

  it("answers NOT_FOUND for another workspace's contact", async () => {
    const other = await shop.harness.workspace();
    const contact = (await create({ name: 'Mine' })).data!.contactCreate;
    const { body } = await shop.harness.graphql(other.api_key, 'mutation($id: ID!) { contactUpdate(id: $id, name: "Theirs") { id } }', {
      id: contact['id'],
    });
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('contact channels', () => {
  it('adding a primary channel moves the contact field to it; removing it gives the field back to the remaining one', async () => {
    const contact = (await create({ wa_id: `wa${Date.now()}` })).data!.contactCreate;
    const id = String(contact['id']);
    const added = await shop.harness.graphql<{ contactChannelAdd: Record<string, unknown> }>(
      shop.key,
      `mutation($id: ID!) { contactChannelAdd(customer_id: $id, type: wa_id, value: "bsuid.US.${Date.now()}", provider: "whatsapp", is_primary: true) { ${CHANNEL} } }`,
      { id },
    );
    const channel = added.body.data!.contactChannelAdd;
    expect(channel).toMatchObject({ provider: 'whatsapp', is_primary: true });
    const detail = await shop.harness.graphql<{ contact: { wa_id: string } }>(shop.key, 'query($id: ID!) { contact(id: $id) { wa_id } }', {
      id,
    });
    expect(detail.body.data!.contact.wa_id).toBe(channel['value']);

    const removed = await shop.harness.graphql(shop.key, 'mutation($id: ID!) { contactChannelRemove(id: $id) { id deleted } }', {
      id: channel['id'],
    });
    expect(removed.body.data).toEqual({ contactChannelRemove: { id: channel['id'], deleted: true } });
    const after = await shop.harness.graphql<{ contact: { wa_id: string } }>(shop.key, 'query($id: ID!) { contact(id: $id) { wa_id } }', {
      id,
    });
    expect(after.body.data!.contact.wa_id).toBe(contact['wa_id']);
    expect(await channels(id)).toEqual([expect.objectContaining({ value: contact['wa_id'], is_primary: true })]);
  });

  it('refuses a value that does not fit its type', async () => {
    const contact = (await create({ name: 'Typed' })).data!.contactCreate;
    const { body } = await shop.harness.graphql(
      shop.key,
      'mutation($id: ID!) { contactChannelAdd(customer_id: $id, type: email, value: "not-an-email") { id } }',
      {
        id: contact['id'],
      },
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { value: 'must be an email address' } });
  });
});

describe('contactsBulkImport', () => {
  it('writes the valid rows and reports each failed row with its error, writing nothing for it', async () => {
    const [phone, taken] = [newPhone(), newPhone()];
    await create({ phone_number: taken });
    const { body } = await shop.harness.graphql<{
      contactsBulkImport: {
        created: number;
        failed: number;
        results: {
          index: number;
          status: string;
          contact: { id: string; phone_number: string } | null;
          error: Record<string, unknown> | null;
        }[];
      };
    }>(
      shop.key,
      `mutation($rows: [ContactInput!]!) {
        contactsBulkImport(contacts: $rows) {
          created failed results { index status contact { id phone_number } error { code message details } }
        }
      }`,
      {
        rows: [
          { name: 'Row 0', phone_number: phone },
          { name: 'Row 1', email: 'broken' },
          { name: 'Row 2', phone_number: taken },
          { name: 'Row 3', phone_number: phone },
          { name: 'Row 4' },
        ],
      },
    );
    const result = body.data!.contactsBulkImport;
    expect(result).toMatchObject({ created: 2, failed: 3 });
    expect(result.results.map((row) => [row.index, row.status, row.error?.['code'] ?? null])).toEqual([
      [0, 'created', null],
      [1, 'failed', 'VALIDATION_ERROR'],
      [2, 'failed', 'CONFLICT'],
      [3, 'failed', 'CONFLICT'],
      [4, 'created', null],
    ]);
    expect(result.results[1]?.error).toMatchObject({ details: { email: 'must be an email address' } });
    const search = await shop.harness.graphql<{ contactSearch: { data: { name: string }[] } }>(
      shop.key,
      'query { contactSearch(q: "Row ") { data { name } } }',
    );
    expect(search.body.data!.contactSearch.data.map((contact) => contact.name).sort()).toEqual(['Row 0', 'Row 4']);
  });

  it('refuses an empty import as a whole', async () => {
    const { body } = await shop.harness.graphql(shop.key, 'mutation { contactsBulkImport(contacts: []) { created } }');
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { contacts: 'must hold at least one contact' },
    });
  });
});

describe('contactDelete', () => {
  it('deletes the contact with its conversations and their messages, and says how many', async () => {
    const contact = (await create({ name: 'Leaving' })).data!.contactCreate;
    const id = String(contact['id']);
    await seedConversation(shop.harness.db.prisma, shop.workspace, id, { messages: ['hi', 'bye'] });
    const { body } = await shop.harness.graphql(
      shop.key,
      'mutation($id: ID!) { contactDelete(id: $id) { id deleted deleted_conversations deleted_messages } }',
      { id },
    );
    expect(body.data).toEqual({ contactDelete: { id, deleted: true, deleted_conversations: 1, deleted_messages: 2 } });
    const again = await shop.harness.graphql(shop.key, 'query($id: ID!) { contact(id: $id) { id } }', { id });
    expect(again.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect(await shop.harness.db.prisma.conversation.count({ where: { customer_id: id } })).toBe(0);
  });
});

describe('tag assignment', () => {
  it('assigns and unassigns a tag, both idempotent, and the contact lists it meanwhile', async () => {
    const contact = (await create({ name: 'Tagged' })).data!.contactCreate;
    const tag = await shop.harness.graphql<{ tagCreate: { id: string } }>(
      shop.key,
      `mutation { tagCreate(name: "vip-${Date.now()}") { id } }`,
    );
    const ids = { c: contact['id'], t: tag.body.data!.tagCreate.id };
    const assign = 'mutation($c: ID!, $t: ID!) { tagAssign(customer_id: $c, tag_id: $t) { customer_id tag_id assigned } }';
    const unassign = 'mutation($c: ID!, $t: ID!) { tagUnassign(customer_id: $c, tag_id: $t) { assigned } }';
    await shop.harness.graphql(shop.key, assign, ids);
    const twice = await shop.harness.graphql(shop.key, assign, ids);
    expect(twice.body.data).toEqual({ tagAssign: { customer_id: ids.c, tag_id: ids.t, assigned: true } });
    const detail = await shop.harness.graphql<{ contact: { tags: string[] } }>(shop.key, 'query($c: ID!) { contact(id: $c) { tags } }', {
      c: ids.c,
    });
    expect(detail.body.data!.contact.tags).toHaveLength(1);
    await shop.harness.graphql(shop.key, unassign, ids);
    const again = await shop.harness.graphql(shop.key, unassign, ids);
    expect(again.body.data).toEqual({ tagUnassign: { assigned: false } });
  });

  it("answers NOT_FOUND for another workspace's tag", async () => {
    const other = await shop.harness.workspace();
    const contact = (await create({ name: 'Mine too' })).data!.contactCreate;
    const foreignTag = await shop.harness.graphql<{ tagCreate: { id: string } }>(
      other.api_key,
      'mutation { tagCreate(name: "theirs") { id } }',
    );
    const { body } = await shop.harness.graphql(
      shop.key,
      'mutation($c: ID!, $t: ID!) { tagAssign(customer_id: $c, tag_id: $t) { assigned } }',
      {
        c: contact['id'],
        t: foreignTag.body.data!.tagCreate.id,
      },
    );
    expect(body.errors?.[0]).toMatchObject({ message: 'Tag not found', extensions: { code: 'NOT_FOUND' } });
  });
});

// Managing contacts over REST: create, update, delete and import contacts, their channels and their tags.
// Each answer is the JSON the GraphQL mutation behind the route (and the MCP tool over it) gives.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';
import { SPEC_FIELDS, UTC_DATE_TIME, expectError, getJson, operationResult, postJson, sendJson } from '../support/restFixtures.js';

const h = await openHarness();
const ws = await h.workspace('Rest contacts');
const key = ws.api_key;
const other = await h.workspace('Rest contacts elsewhere');

const DETAIL_FIELDS = [...SPEC_FIELDS.customer, ...SPEC_FIELDS.customerDetailExtra].sort();
const CHANNEL_FIELDS = ['created_at', 'customer_id', 'id', 'is_primary', 'provider', 'type', 'updated_at', 'value'];

let phoneCounter = 0;
const newPhone = () => `+1555020${String(++phoneCounter).padStart(4, '0')}`;

async function createContact(body: Record<string, unknown>, as = key): Promise<Record<string, unknown> & { id: string }> {
  const created = await postJson(h, '/api/v1/contacts', as, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('a contact read by written statements', () => {
  it('is the contact Prisma reads: its record, the list and search give what a conversation embeds, timestamps as the same ISO text', async () => {
    const contact = await createContact({
      name: 'Timestamp Tess',
      phone_number: newPhone(),
      email: 'tess@example.com',
      metadata: { plan: 'pro', seats: 3, labels: ['a', 'b'], nested: { ok: true, none: null } },
    });
    const conversation = await seedConversation(h.db.prisma, ws, contact.id);
    // Years below 1000 are written with four digits by both, as by toISOString. (Set after the conversation, whose
    // last message moves the contact's forward, migration 0050.)
    await h.db.prisma.customer.update({ where: { id: contact.id }, data: { last_message_at: new Date('0999-02-03T04:05:06.789Z') } });
    // The conversation's contact is read through Prisma (a relation of the conversation).
    const embedded = (await getJson(h, `/api/v1/conversations/${conversation.id}`, { key })).body.customer;
    const stored = await h.db.prisma.customer.findUniqueOrThrow({ where: { id: contact.id } });
    expect(embedded).toMatchObject({ id: contact.id, created_at: stored.created_at.toISOString(), metadata: stored.metadata });
    const listed = (await getJson(h, '/api/v1/contacts?limit=100', { key })).body.data.find(
      (item: { id: string }) => item.id === contact.id,
    );
    expect(listed).toEqual(embedded);
    expect((await getJson(h, '/api/v1/contacts/search?q=Timestamp%20Tess', { key })).body.data).toEqual([embedded]);
    const record = (await getJson(h, `/api/v1/contacts/${contact.id}`, { key })).body;
    expect(record).toMatchObject({ ...embedded, last_message_at: '0999-02-03T04:05:06.789Z', conversation_count: 1 });
  });
});

describe('POST /api/v1/contacts', () => {
  it('creates a contact: 201 with its CustomerDetail, the same JSON GraphQL and MCP give for it', async () => {
    const phone = newPhone();
    const created = await postJson(h, '/api/v1/contacts', key, {
      name: 'Ada',
      phone_number: phone,
      email: 'Ada@Example.COM',
      metadata: { plan: 'pro' },
      notes: 'Prefers mornings',
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(DETAIL_FIELDS);
    expect(created.body).toMatchObject({
      company_id: ws.workspace_id,
      name: 'Ada',
      phone_number: phone,
      email: 'ada@example.com',
      wa_id: null,
      metadata: { plan: 'pro' },
      notes: 'Prefers mornings',
      tags: [],
      conversation_count: 0,
    });
    expect(created.body.created_at).toMatch(UTC_DATE_TIME);
    expect(created.body).toEqual(await operationResult(h, key, 'Contact', { id: created.body.id }));
  });

  it('refuses invalid fields with 400 VALIDATION_ERROR and a reason for each', async () => {
    const formats = await postJson(h, '/api/v1/contacts', key, { phone_number: '0800', email: 'nope', image_url: 'ftp://x' });
    expectError(formats, 400, {
      code: 'VALIDATION_ERROR',
      details: { phone_number: expect.stringContaining('E.164'), email: 'must be an email address', image_url: 'must be an http(s) URL' },
    });
    const types = await postJson(h, '/api/v1/contacts', key, { name: 5, email: ['a@example.com'] });
    expectError(types, 400, { code: 'VALIDATION_ERROR', details: { name: 'must be a string', email: 'must be a string' } });
    const empty = await sendJson(h, 'POST', '/api/v1/contacts', key);
    expectError(empty, 400, { code: 'VALIDATION_ERROR' });
  });

  it('refuses an identity another contact has with 409 CONFLICT naming that contact', async () => {
    const phone = newPhone();
    const first = await createContact({ phone_number: phone });
    const copy = await postJson(h, '/api/v1/contacts', key, { name: 'Copy', phone_number: phone });
    expectError(copy, 409, { code: 'CONFLICT', details: { phone_number: 'already belongs to a contact', contact_id: first.id } });
  });
});

describe('PATCH /api/v1/contacts/{id}', () => {
  it('changes only the fields given; null clears one', async () => {
    const contact = await createContact({ name: 'Bob', email: 'bob@example.com', metadata: { a: 1 }, notes: 'VIP' });
    const changed = await sendJson(h, 'PATCH', `/api/v1/contacts/${contact.id}`, key, { name: 'Robert', metadata: null, notes: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: contact.id, name: 'Robert', email: 'bob@example.com', metadata: null, notes: null });
    expect(changed.body).toEqual(await operationResult(h, key, 'Contact', { id: contact.id }));
  });

  it('writing phone_number moves the primary phone channel; null removes it', async () => {
    const [first, second] = [newPhone(), newPhone()];
    const contact = await createContact({ phone_number: first });
    const moved = await sendJson(h, 'PATCH', `/api/v1/contacts/${contact.id}`, key, { phone_number: second });
    expect(moved.body.phone_number).toBe(second);
    const cleared = await sendJson(h, 'PATCH', `/api/v1/contacts/${contact.id}`, key, { phone_number: null });
    expect(cleared.body.phone_number).toBeNull();
    const { body } = await getJson(h, `/api/v1/contacts/${contact.id}/channels`, { key });
    expect(body).toEqual({ channels: [] });
  });

  it('answers 400 per field, 409 for a taken identity, and 404 for a missing or foreign contact', async () => {
    const taken = newPhone();
    await createContact({ phone_number: taken });
    const contact = await createContact({ name: 'Carol' });
    const invalid = await sendJson(h, 'PATCH', `/api/v1/contacts/${contact.id}`, key, { email: 'carol', image_url: 7 });
    expectError(invalid, 400, { code: 'VALIDATION_ERROR', details: { image_url: 'must be a string' } });
    const domain = await sendJson(h, 'PATCH', `/api/v1/contacts/${contact.id}`, key, { email: 'carol' });
    expectError(domain, 400, { code: 'VALIDATION_ERROR', details: { email: 'must be an email address' } });
    const conflict = await sendJson(h, 'PATCH', `/api/v1/contacts/${contact.id}`, key, { phone_number: taken });
    expectError(conflict, 409, { code: 'CONFLICT' });
    const foreign = await createContact({ name: 'Not yours' }, other.api_key);
    for (const id of [foreign.id, '01960000-0000-7000-8000-000000000000']) {
      expectError(await sendJson(h, 'PATCH', `/api/v1/contacts/${id}`, key, { name: 'Mine now' }), 404, {
        code: 'NOT_FOUND',
        message: 'Customer not found',
      });
    }
    expect((await getJson(h, `/api/v1/contacts/${foreign.id}`, { key: other.api_key })).body.name).toBe('Not yours');
  });
});

describe('DELETE /api/v1/contacts/{id}', () => {
  it('deletes the contact with its conversations and messages and says how many; then it is gone', async () => {
    const contact = await createContact({ name: 'Leaving', wa_id: '15550209999' });
    const conversation = await h.db.prisma.conversation.create({
      data: { company_id: ws.workspace_id, customer_id: contact.id, integration_id: ws.integration_id, provider: 'sandbox' },
    });
    await h.db.prisma.message.create({
      data: { company_id: ws.workspace_id, conversation_id: conversation.id, direction: 'inbound', body: 'Bye', status: 'received' },
    });
    const deleted = await getJson(h, `/api/v1/contacts/${contact.id}`, { method: 'DELETE', key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: contact.id, deleted: true, deleted_conversations: 1, deleted_messages: 1 });
    expect((await getJson(h, `/api/v1/contacts/${contact.id}`, { key })).status).toBe(404);
    expectError(await getJson(h, `/api/v1/contacts/${contact.id}`, { method: 'DELETE', key }), 404, { code: 'NOT_FOUND' });
  });

  it("never deletes another workspace's contact", async () => {
    const foreign = await createContact({ name: 'Keep me' }, other.api_key);
    expectError(await getJson(h, `/api/v1/contacts/${foreign.id}`, { method: 'DELETE', key }), 404, { code: 'NOT_FOUND' });
    expect((await getJson(h, `/api/v1/contacts/${foreign.id}`, { key: other.api_key })).status).toBe(200);
  });
});

describe('POST /api/v1/contacts/import', () => {
  it('writes the valid rows and reports each failed row, in request order', async () => {
    const [phone, taken] = [newPhone(), newPhone()];
    await createContact({ phone_number: taken });
    const imported = await postJson(h, '/api/v1/contacts/import', key, {
      contacts: [
        { name: 'Row 0', phone_number: phone },
        { name: 'Row 1', email: 'broken' },
        { name: 'Row 2', phone_number: taken },
      ],
    });
    expect(imported.status).toBe(200);
    expect(Object.keys(imported.body).sort()).toEqual(['created', 'failed', 'results']);
    expect(imported.body).toMatchObject({ created: 1, failed: 2 });
    const [created, invalid, conflict] = imported.body.results;
    expect(created).toMatchObject({ index: 0, status: 'created', error: null, contact: { name: 'Row 0', phone_number: phone } });
    expect(Object.keys(created.contact).sort()).toEqual(DETAIL_FIELDS);
    expect(invalid).toEqual({
      index: 1,
      status: 'failed',
      contact: null,
      error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: { email: 'must be an email address' } },
    });
    expect(conflict).toMatchObject({ index: 2, status: 'failed', error: { code: 'CONFLICT' } });
  });

  it('refuses the whole request for a value of the wrong type, an unknown row field or no rows', async () => {
    const wrongType = await postJson(h, '/api/v1/contacts/import', key, { contacts: [{ name: 'Fine' }, { name: 'Bad', email: 5 }] });
    expectError(wrongType, 400, { code: 'VALIDATION_ERROR', details: { 'contacts.1.email': 'must be a string' } });
    const unknown = await postJson(h, '/api/v1/contacts/import', key, { contacts: [{ phone: '+15550100000' }] });
    expectError(unknown, 400, { details: { 'contacts.0.phone': 'is not a known field' } });
    const notAList = await postJson(h, '/api/v1/contacts/import', key, { contacts: { name: 'One' } });
    expectError(notAList, 400, { details: { contacts: 'must be an array' } });
    const none = await postJson(h, '/api/v1/contacts/import', key, { contacts: [] });
    expectError(none, 400, { details: { contacts: 'must hold at least one contact' } });
    expect((await getJson(h, '/api/v1/contacts/search?q=Fine', { key })).body.data).toEqual([]);
  });
});

describe('a contact’s channels', () => {
  it('lists them (GET), adds one (POST 201) and removes one by its own id (DELETE), as GraphQL answers', async () => {
    const phone = newPhone();
    const contact = await createContact({ phone_number: phone, email: 'dora@example.com' });
    const path = `/api/v1/contacts/${contact.id}/channels`;
    const listed = await getJson(h, path, { key });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual(await operationResult(h, key, 'ContactChannels', { customer_id: contact.id }));
    expect(listed.body.channels.map((channel: { type: string; value: string }) => [channel.type, channel.value])).toEqual([
      ['email', 'dora@example.com'],
      ['phone', phone],
    ]);

    const second = newPhone();
    const added = await postJson(h, path, key, { type: 'phone', value: second, is_primary: true });
    expect(added.status).toBe(201);
    expect(Object.keys(added.body).sort()).toEqual(CHANNEL_FIELDS);
    expect(added.body).toMatchObject({ customer_id: contact.id, type: 'phone', value: second, provider: 'sandbox', is_primary: true });
    expect((await getJson(h, `/api/v1/contacts/${contact.id}`, { key })).body.phone_number).toBe(second);

    const removed = await getJson(h, `/api/v1/contacts/channels/${added.body.id}`, { method: 'DELETE', key });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: added.body.id, deleted: true });
    expect((await getJson(h, `/api/v1/contacts/${contact.id}`, { key })).body.phone_number).toBe(phone);
    expectError(await getJson(h, `/api/v1/contacts/channels/${added.body.id}`, { method: 'DELETE', key }), 404, { code: 'NOT_FOUND' });
  });

  it('answers 400 per field, 409 for an identity of another contact, 404 for a foreign contact or channel', async () => {
    const contact = await createContact({ name: 'Eve' });
    const path = `/api/v1/contacts/${contact.id}/channels`;
    expectError(await postJson(h, path, key, { type: 'fax', value: 5 }), 400, {
      code: 'VALIDATION_ERROR',
      details: { type: 'must be one of bsuid, email, parent_bsuid, phone, username, wa_id', value: 'must be a string' },
    });
    expectError(await postJson(h, path, key, { type: 'email', value: 'eve' }), 400, { details: { value: 'must be an email address' } });
    const owner = await createContact({ email: 'owner@example.com' });
    expectError(await postJson(h, path, key, { type: 'email', value: 'owner@example.com' }), 409, {
      code: 'CONFLICT',
      details: expect.objectContaining({ contact_id: owner.id }),
    });

    const foreign = await createContact({ email: 'theirs@example.com' }, other.api_key);
    const foreignChannels = await getJson(h, `/api/v1/contacts/${foreign.id}/channels`, { key: other.api_key });
    expectError(await getJson(h, `/api/v1/contacts/${foreign.id}/channels`, { key }), 404, { code: 'NOT_FOUND' });
    expectError(await postJson(h, `/api/v1/contacts/${foreign.id}/channels`, key, { type: 'email', value: 'mine@example.com' }), 404, {
      code: 'NOT_FOUND',
    });
    const channelId = foreignChannels.body.channels[0].id;
    expectError(await getJson(h, `/api/v1/contacts/channels/${channelId}`, { method: 'DELETE', key }), 404, { code: 'NOT_FOUND' });
    expect((await getJson(h, `/api/v1/contacts/${foreign.id}/channels`, { key: other.api_key })).body).toEqual(foreignChannels.body);
  });
});

describe('POST /api/v1/tags raced', () => {
  it('creates a name once when ten requests race for it: one 201, nine 409 CONFLICT naming the field, no 5xx', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => postJson(h, '/api/v1/tags', key, { name: 'raced' })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 201)) {
      expectError(answer, 409, { code: 'CONFLICT', details: { name: 'already exists' } });
    }
  });
});

describe('tag assignment: PUT and DELETE /api/v1/contacts/{customer_id}/tags/{tag_id}', () => {
  it('assigns and unassigns, both idempotent, without a body; the contact lists the tag meanwhile', async () => {
    const contact = await createContact({ name: 'Finn' });
    const tag = (await postJson(h, '/api/v1/tags', key, { name: 'returning' })).body;
    const path = `/api/v1/contacts/${contact.id}/tags/${tag.id}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const assigned = await getJson(h, path, { method: 'PUT', key });
      expect(assigned.status).toBe(200);
      expect(assigned.body).toEqual({ customer_id: contact.id, tag_id: tag.id, assigned: true });
    }
    expect((await getJson(h, `/api/v1/contacts/${contact.id}`, { key })).body.tags).toEqual(['returning']);
    expect((await getJson(h, `/api/v1/contacts?tag_id=${tag.id}`, { key })).body.data.map((row: { id: string }) => row.id)).toEqual([
      contact.id,
    ]);
    for (let attempt = 0; attempt < 2; attempt++) {
      const unassigned = await getJson(h, path, { method: 'DELETE', key });
      expect(unassigned.status).toBe(200);
      expect(unassigned.body).toEqual({ customer_id: contact.id, tag_id: tag.id, assigned: false });
    }
    expect((await getJson(h, `/api/v1/contacts/${contact.id}`, { key })).body.tags).toEqual([]);
  });

  it("answers 404 for another workspace's contact or tag, and 400 for a malformed id", async () => {
    const contact = await createContact({ name: 'Gus' });
    const tag = (await postJson(h, '/api/v1/tags', key, { name: 'mine' })).body;
    const foreignTag = (await postJson(h, '/api/v1/tags', other.api_key, { name: 'theirs' })).body;
    const foreignContact = await createContact({ name: 'Theirs' }, other.api_key);
    expectError(await getJson(h, `/api/v1/contacts/${contact.id}/tags/${foreignTag.id}`, { method: 'PUT', key }), 404, {
      code: 'NOT_FOUND',
      message: 'Tag not found',
    });
    expectError(await getJson(h, `/api/v1/contacts/${foreignContact.id}/tags/${tag.id}`, { method: 'DELETE', key }), 404, {
      code: 'NOT_FOUND',
      message: 'Customer not found',
    });
    expectError(await getJson(h, `/api/v1/contacts/${contact.id}/tags/vip`, { method: 'PUT', key }), 400, {
      code: 'VALIDATION_ERROR',
      details: { tag_id: 'must be a UUID' },
    });
  });
});

describe('scopes', () => {
  it('contact writes need customers; contacts:read may list channels; tag assignment needs tags', async () => {
    const contact = await createContact({ name: 'Hal' });
    const tag = (await postJson(h, '/api/v1/tags', key, { name: 'scoped' })).body;
    const readOnly = await h.key(ws.workspace_id, ['contacts:read']);
    const tagsOnly = await h.key(ws.workspace_id, ['tags']);
    const refused = [
      await postJson(h, '/api/v1/contacts', readOnly, { name: 'Nope' }),
      await sendJson(h, 'PATCH', `/api/v1/contacts/${contact.id}`, readOnly, { name: 'Nope' }),
      await getJson(h, `/api/v1/contacts/${contact.id}`, { method: 'DELETE', key: readOnly }),
      await postJson(h, '/api/v1/contacts/import', readOnly, { contacts: [{ name: 'Nope' }] }),
      await postJson(h, `/api/v1/contacts/${contact.id}/channels`, readOnly, { type: 'email', value: 'hal@example.com' }),
      await getJson(h, `/api/v1/contacts/${contact.id}/tags/${tag.id}`, { method: 'PUT', key: readOnly }),
      await getJson(h, `/api/v1/contacts/${contact.id}/channels`, { key: tagsOnly }),
    ];
    for (const answer of refused) expectError(answer, 403, { code: 'INSUFFICIENT_SCOPE' });
    expect((await getJson(h, `/api/v1/contacts/${contact.id}/channels`, { key: readOnly })).status).toBe(200);
    expect((await getJson(h, `/api/v1/contacts/${contact.id}/tags/${tag.id}`, { method: 'PUT', key: tagsOnly })).status).toBe(200);
    expect((await getJson(h, `/api/v1/contacts/${contact.id}`, { key })).body).toMatchObject({ name: 'Hal', tags: ['scoped'] });
  });
});

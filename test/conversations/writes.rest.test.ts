// Managing conversations over REST: get, search, update, close and reopen under the one transition table,
// and their notes and summaries. Each answer is the JSON the GraphQL field behind the route (and the MCP
// tool over it) gives.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';
import { CONVERSATION_TRANSITIONS } from '../../resolvers/conversations/status.js';
import { envelopeProblems } from '../support/webhooks.js';
import { GUIDE, SPEC_FIELDS, expectError, getJson, operationResult, postJson, sendJson } from '../support/restFixtures.js';

const h = await openHarness();
const ws = await h.workspace('Rest conversations');
const key = ws.api_key;
const other = await h.workspace('Rest conversations elsewhere');
const prisma = h.db.prisma;

async function conversation(options: { status?: string; name?: string; messages?: string[]; workspace?: typeof ws } = {}) {
  const owner = options.workspace ?? ws;
  const contact = await prisma.customer.create({ data: { company_id: owner.workspace_id, name: options.name ?? 'Ida' } });
  return seedConversation(prisma, owner, contact.id, { status: options.status ?? 'active', messages: options.messages ?? [] });
}

const post = (path: string, as = key) => getJson(h, path, { method: 'POST', key: as });

describe('GET /api/v1/conversations/{id} and /conversations/search', () => {
  it('answers one conversation with its whole customer, as GraphQL does; foreign or missing is 404', async () => {
    const { id } = await conversation();
    const answer = await getJson(h, `/api/v1/conversations/${id}`, { key });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual([...SPEC_FIELDS.conversation].sort());
    expect(answer.body).toEqual(await operationResult(h, key, 'Conversation', { id }));
    const foreign = await conversation({ workspace: other });
    for (const missing of [foreign.id, '01960000-0000-7000-8000-000000000000']) {
      expectError(await getJson(h, `/api/v1/conversations/${missing}`, { key }), 404, {
        code: 'NOT_FOUND',
        message: 'Conversation not found',
      });
    }
    expectError(await getJson(h, '/api/v1/conversations/42', { key }), 400, {
      code: 'VALIDATION_ERROR',
      details: { id: 'must be a UUID' },
    });
  });

  it('searches by contact or message text in the list envelope, with the guide form on request', async () => {
    const word = `parcel${Date.now()}`;
    const byMessage = await conversation({ messages: [`where is my ${word}?`] });
    await conversation({ workspace: other, messages: [`my ${word} too`] });
    const found = await getJson(h, `/api/v1/conversations/search?q=${word.toUpperCase()}`, { key });
    expect(found.status).toBe(200);
    expect(found.body).toEqual(await operationResult(h, key, 'ConversationSearch', { q: word }));
    expect(found.body).toMatchObject({ data: [{ id: byMessage.id }], has_more: false, next_cursor: null });
    const guide = await getJson(h, `/api/v1/conversations/search?q=${word}`, { key, headers: { accept: GUIDE } });
    expect(guide.body).toEqual({ conversations: found.body.data, hasMore: false });
    expectError(await getJson(h, '/api/v1/conversations/search', { key }), 400, { details: { q: 'is required' } });
  });
});

describe('PATCH /api/v1/conversations/{id}', () => {
  it('assigns a user, switches the AI agent and replaces details; omitted fields stay, null unassigns', async () => {
    const { id } = await conversation();
    const changed = await sendJson(h, 'PATCH', `/api/v1/conversations/${id}`, key, {
      assigned_user_id: ws.user_id,
      service_enabled: true,
      details: { topic: 'refund' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, assigned_user_id: ws.user_id, service_enabled: true, details: { topic: 'refund' } });
    expect(changed.body).toEqual(await operationResult(h, key, 'Conversation', { id }));
    const unassigned = await sendJson(h, 'PATCH', `/api/v1/conversations/${id}`, key, { assigned_user_id: null });
    expect(unassigned.body).toMatchObject({ assigned_user_id: null, service_enabled: true, details: { topic: 'refund' } });
    const cleared = await sendJson(h, 'PATCH', `/api/v1/conversations/${id}`, key, { details: null, service_enabled: false });
    expect(cleared.body).toMatchObject({ assigned_user_id: null, service_enabled: false, details: null });
  });

  it('answers 400 for a wrong type, a foreign assignee or a null switch; 404 for a foreign conversation', async () => {
    const { id } = await conversation();
    const path = `/api/v1/conversations/${id}`;
    expectError(await sendJson(h, 'PATCH', path, key, { service_enabled: 'yes', details: 'x' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { service_enabled: 'must be true or false' },
    });
    expectError(await sendJson(h, 'PATCH', path, key, { assigned_user_id: other.user_id }), 400, {
      code: 'VALIDATION_ERROR',
      details: { assigned_user_id: expect.any(String) },
    });
    expectError(await sendJson(h, 'PATCH', path, key, { service_enabled: null }), 400, {
      code: 'VALIDATION_ERROR',
      details: { service_enabled: expect.any(String) },
    });
    const foreign = await conversation({ workspace: other });
    expectError(await sendJson(h, 'PATCH', `/api/v1/conversations/${foreign.id}`, key, { details: {} }), 404, { code: 'NOT_FOUND' });
  });
});

describe('POST /api/v1/conversations/{id}/close and /reopen', () => {
  it('close an active or pending conversation and reopen a closed one as active, without a body', async () => {
    for (const status of CONVERSATION_TRANSITIONS.close.from) {
      const { id } = await conversation({ status });
      const closed = await post(`/api/v1/conversations/${id}/close`);
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ id, status: 'closed' });
      expect(closed.body).toEqual(await operationResult(h, key, 'Conversation', { id }));
      const reopened = await post(`/api/v1/conversations/${id}/reopen`);
      expect(reopened.status).toBe(200);
      expect(reopened.body).toMatchObject({ id, status: 'active' });
    }
  });

  it('answer 409 INVALID_TRANSITION for closing a closed or reopening an open conversation, changing nothing', async () => {
    const closed = await conversation({ status: 'closed' });
    const again = await post(`/api/v1/conversations/${closed.id}/close`);
    expectError(again, 409, {
      code: 'INVALID_TRANSITION',
      message: 'Cannot close a conversation whose status is closed',
      details: { status: 'closed', action: 'close', allowed_from: [...CONVERSATION_TRANSITIONS.close.from] },
    });
    const active = await conversation({ status: 'active' });
    expectError(await post(`/api/v1/conversations/${active.id}/reopen`), 409, {
      code: 'INVALID_TRANSITION',
      details: { status: 'active', action: 'reopen', allowed_from: [...CONVERSATION_TRANSITIONS.reopen.from] },
    });
    expect((await getJson(h, `/api/v1/conversations/${closed.id}`, { key })).body.status).toBe('closed');
    expect((await getJson(h, `/api/v1/conversations/${active.id}`, { key })).body.status).toBe('active');
  });

  it("answer 404 for another workspace's conversation and leave it as it was", async () => {
    const foreign = await conversation({ workspace: other });
    expectError(await post(`/api/v1/conversations/${foreign.id}/close`), 404, { code: 'NOT_FOUND' });
    expect((await getJson(h, `/api/v1/conversations/${foreign.id}`, { key: other.api_key })).body.status).toBe('active');
  });
});

describe('conversation.updated events', () => {
  type Envelope = { id: string; type: string; data: { conversation: { id: string; status: string }; changes: string[] } };
  const updatesOf = async (id: string): Promise<Envelope[]> => {
    const feed = await getJson(h, '/api/v1/events?type=conversation.updated&limit=100', { key });
    return (feed.body.data as Envelope[]).filter((event) => event.data.conversation.id === id);
  };

  it('announce each close, reopen, assignment, agent switch and details edit with the fields it changed, valid against docs/webhooks', async () => {
    const { id } = await conversation();
    await sendJson(h, 'PATCH', `/api/v1/conversations/${id}`, key, { assigned_user_id: ws.user_id, service_enabled: true });
    await post(`/api/v1/conversations/${id}/close`);
    await post(`/api/v1/conversations/${id}/reopen`);
    await sendJson(h, 'PATCH', `/api/v1/conversations/${id}`, key, { details: { topic: 'refund' } });
    // The feed shows an event once every transaction older than it has ended, anywhere on the server: poll.
    await expect.poll(async () => (await updatesOf(id)).length).toBe(4);
    const events = await updatesOf(id);
    expect(events.map((event) => [event.data.conversation.status, event.data.changes])).toEqual([
      ['active', ['assigned_user_id', 'service_enabled']],
      ['closed', ['status']],
      ['active', ['status']],
      ['active', ['details']],
    ]);
    for (const event of events) expect(envelopeProblems(event)).toEqual([]);
  });

  it('are not recorded for an update that changes nothing, a refused transition or a foreign conversation', async () => {
    const { id } = await conversation({ status: 'closed' });
    await sendJson(h, 'PATCH', `/api/v1/conversations/${id}`, key, { service_enabled: false, assigned_user_id: null });
    await post(`/api/v1/conversations/${id}/close`);
    const foreign = await conversation({ workspace: other });
    await post(`/api/v1/conversations/${foreign.id}/close`);
    expect(await updatesOf(id)).toEqual([]);
    const foreignFeed = await getJson(h, '/api/v1/events?type=conversation.updated', { key: other.api_key });
    expect(foreignFeed.body.data).toEqual([]);
  });
});

describe.each(['notes', 'summaries'] as const)('a conversation’s %s', (kind) => {
  const fields = ['body', 'conversation_id', 'created_at', 'id', 'updated_at', ...(kind === 'notes' ? ['author_user_id'] : [])].sort();
  const listOperation = kind === 'notes' ? 'ConversationNotes' : 'ConversationSummaries';

  it(`are created (201), listed newest first with paging, edited (PATCH) and deleted (DELETE by their own id)`, async () => {
    const { id } = await conversation({ status: 'closed' });
    const created = [];
    for (const body of ['First', '  Second  ']) {
      const answer = await postJson(h, `/api/v1/conversations/${id}/${kind}`, key, { body });
      expect(answer.status).toBe(201);
      expect(Object.keys(answer.body).sort()).toEqual(fields);
      created.push(answer.body);
    }
    expect(created[1]).toMatchObject({ conversation_id: id, body: 'Second' });
    if (kind === 'notes') expect(created[0].author_user_id).toBe(ws.user_id);

    const page = await getJson(h, `/api/v1/conversations/${id}/${kind}?limit=1`, { key });
    expect(page.status).toBe(200);
    expect(page.body).toEqual(await operationResult(h, key, listOperation, { conversation_id: id, limit: 1 }));
    expect(page.body).toEqual({ data: [created[1]], has_more: true, next_cursor: created[1].id });
    const rest = await getJson(h, `/api/v1/conversations/${id}/${kind}?limit=1&cursor=${page.body.next_cursor}`, { key });
    expect(rest.body).toEqual({ data: [created[0]], has_more: false, next_cursor: null });

    const edited = await sendJson(h, 'PATCH', `/api/v1/conversations/${kind}/${created[0].id}`, key, { body: 'First, edited' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: created[0].id, body: 'First, edited', created_at: created[0].created_at });
    const deleted = await getJson(h, `/api/v1/conversations/${kind}/${created[0].id}`, { method: 'DELETE', key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: created[0].id, deleted: true });
    expect((await getJson(h, `/api/v1/conversations/${id}/${kind}`, { key })).body.data).toEqual([created[1]]);
    expectError(await sendJson(h, 'PATCH', `/api/v1/conversations/${kind}/${created[0].id}`, key, { body: 'Gone' }), 404, {
      code: 'NOT_FOUND',
    });
  });

  it('refuse an empty or missing body (400) and answer 404 for records of another workspace', async () => {
    const { id } = await conversation();
    expectError(await postJson(h, `/api/v1/conversations/${id}/${kind}`, key, {}), 400, {
      code: 'VALIDATION_ERROR',
      details: { body: 'is required' },
    });
    expectError(await postJson(h, `/api/v1/conversations/${id}/${kind}`, key, { body: '   ' }), 400, { code: 'VALIDATION_ERROR' });
    expectError(await getJson(h, `/api/v1/conversations/${id}/${kind}?limit=500`, { key }), 400, {
      details: { limit: 'must be between 1 and 100' },
    });

    const foreign = await conversation({ workspace: other });
    const theirs = (await postJson(h, `/api/v1/conversations/${foreign.id}/${kind}`, other.api_key, { body: 'Private' })).body;
    expectError(await getJson(h, `/api/v1/conversations/${foreign.id}/${kind}`, { key }), 404, { code: 'NOT_FOUND' });
    expectError(await postJson(h, `/api/v1/conversations/${foreign.id}/${kind}`, key, { body: 'Mine' }), 404, { code: 'NOT_FOUND' });
    expectError(await sendJson(h, 'PATCH', `/api/v1/conversations/${kind}/${theirs.id}`, key, { body: 'Mine' }), 404, {
      code: 'NOT_FOUND',
    });
    expectError(await getJson(h, `/api/v1/conversations/${kind}/${theirs.id}`, { method: 'DELETE', key }), 404, { code: 'NOT_FOUND' });
    expect((await getJson(h, `/api/v1/conversations/${foreign.id}/${kind}`, { key: other.api_key })).body.data).toEqual([theirs]);
  });
});

describe('scopes', () => {
  it('conversation updates, transitions, notes and summaries need the conversations scope', async () => {
    const { id } = await conversation();
    const customersOnly = await h.key(ws.workspace_id, ['customers']);
    const refused = [
      await getJson(h, `/api/v1/conversations/${id}`, { key: customersOnly }),
      await sendJson(h, 'PATCH', `/api/v1/conversations/${id}`, customersOnly, { service_enabled: true }),
      await post(`/api/v1/conversations/${id}/close`, customersOnly),
      await postJson(h, `/api/v1/conversations/${id}/notes`, customersOnly, { body: 'x' }),
      await getJson(h, `/api/v1/conversations/${id}/summaries`, { key: customersOnly }),
    ];
    for (const answer of refused) expectError(answer, 403, { code: 'INSUFFICIENT_SCOPE' });
    expect((await getJson(h, `/api/v1/conversations/${id}`, { key })).body).toMatchObject({ status: 'active', service_enabled: false });
  });
});

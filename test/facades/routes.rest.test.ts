import { beforeAll, describe, expect, it } from 'vitest';
import { createYoga } from 'graphql-yoga';
import { openHarness, type Harness } from '../support/harness.js';
import { GUIDE, SPEC_FIELDS, UTC_DATE_TIME, getJson, postJson, seedWorkspace, type Seeded } from '../support/restFixtures.js';
import { createApp } from '../../app/createApp.js';
import { createLogger } from '../../infra/observability/logger.js';
import { loadSettings } from '../../infra/config/settings.js';
import { useAuthentication, useRequestId } from '../../infra/http/pipeline.js';
import { createSessionAuthenticator } from '../../resolvers/people/sessions.js';
import { createApiKeyAuthenticator } from '../../resolvers/workspace/apiKeyAuthenticator.js';
import { requestState } from '../../infra/http/requestState.js';
import { createGateway } from '../../facades/core/gateway.js';
import { restSurface, useRestFacade } from '../../facades/rest/facade.js';

import { FACADE_TABLE } from '../../facades/operations/index.js';
import type { RestRoute } from '../../facades/core/table.js';
import { schema } from '../../schema/index.js';

let h: Harness;
let seed: Seeded;

beforeAll(async () => {
  h = await openHarness();
  seed = await seedWorkspace(h);
});

const sorted = (keys: string[]) => [...keys].sort();

describe('REST routes answer in the spec’s schema form', () => {
  it('GET /api/v1/users is a bare array of User with exactly the spec’s fields', async () => {
    const { status, body } = await getJson(h, '/api/v1/users', { key: seed.key });
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(1);
    expect(sorted(Object.keys(body[0]))).toEqual(sorted(SPEC_FIELDS.user));
    expect(body[0]).toMatchObject({ id: seed.workspace.user_id, status: 'active', role: 'owner' });
    expect(body[0].createdAt).toMatch(UTC_DATE_TIME);
  });

  it('GET /api/v1/conversations is {data, next_cursor, has_more}; each conversation embeds its whole customer', async () => {
    const { status, body } = await getJson(h, '/api/v1/conversations', { key: seed.key });
    expect(status).toBe(200);
    expect(sorted(Object.keys(body))).toEqual(['data', 'has_more', 'next_cursor']);
    expect(body).toMatchObject({ has_more: false, next_cursor: null });
    const ids = seed.conversationIds;
    expect(body.data.map((c: { id: string }) => c.id)).toEqual([ids.active, ids.pending, ids.closed, ids.silent]);
    for (const conversation of body.data) {
      expect(sorted(Object.keys(conversation))).toEqual(sorted(SPEC_FIELDS.conversation));
      expect(sorted(Object.keys(conversation.customer))).toEqual(sorted(SPEC_FIELDS.customer));
      expect(conversation.customer).toMatchObject({ id: seed.fullContactId, name: 'Ada Lovelace', email: 'ada@example.com' });
      expect(conversation.created_at).toMatch(UTC_DATE_TIME);
    }
    expect(body.data[0]).toMatchObject({
      status: 'active',
      service_enabled: true,
      assigned_user_id: seed.workspace.user_id,
      integration_id: seed.workspace.integration_id,
      details: { topic: 'billing' },
      last_message_at: '2026-03-01T10:00:00.000Z',
      agent_id: null,
      session_id: null,
      external_conversation_id: null,
    });
    expect(body.data[3].last_message_at).toBeNull();
  });

  it('GET /api/v1/contacts and /contacts/search answer CustomerLists of list items, newest first', async () => {
    const list = await getJson(h, '/api/v1/contacts', { key: seed.key });
    expect(list.status).toBe(200);
    expect(sorted(Object.keys(list.body))).toEqual(['data', 'has_more', 'next_cursor']);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([seed.bareContactId, seed.fullContactId]);
    for (const contact of list.body.data) expect(sorted(Object.keys(contact))).toEqual(sorted(SPEC_FIELDS.customer));
    expect(list.body.data[0]).toMatchObject({ phone_number: '+15550100002', name: null, email: null, metadata: null, wa_id: null });

    const search = await getJson(h, '/api/v1/contacts/search?q=lovelace', { key: seed.key });
    expect(search.status).toBe(200);
    expect(search.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(search.body.data.map((c: { id: string }) => c.id)).toEqual([seed.fullContactId]);
  });

  it('GET /api/v1/contacts/{id} is a CustomerDetail: the list fields plus profile, notes, tags and activity', async () => {
    const { status, body } = await getJson(h, `/api/v1/contacts/${seed.fullContactId}`, { key: seed.key });
    expect(status).toBe(200);
    expect(sorted(Object.keys(body))).toEqual(sorted([...SPEC_FIELDS.customer, ...SPEC_FIELDS.customerDetailExtra]));
    expect(body).toMatchObject({
      profile_name: 'Ada',
      notes: 'Prefers mornings',
      tags: ['vip'],
      last_message_at: '2026-03-01T10:00:00.000Z',
      conversation_count: 4,
      metadata: { plan: 'gold' },
    });
    const bare = await getJson(h, `/api/v1/contacts/${seed.bareContactId}`, { key: seed.key });
    expect(bare.body).toMatchObject({ profile_name: null, notes: null, last_message_at: null, conversation_count: 0, name: null });
  });

  it('GET /api/v1/tags is {tags}; POST /api/v1/tags creates one from the JSON body with 201', async () => {
    const created = await postJson(h, '/api/v1/tags', seed.key, { name: 'follow-up', color: '#43a047' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'follow-up', color: '#43a047' });
    expect(created.body.created_at).toMatch(UTC_DATE_TIME);
    const minimal = await postJson(h, '/api/v1/tags', seed.key, { name: 'lead' });
    expect(minimal.status).toBe(201);
    expect(minimal.body.color).toBeNull();

    const { status, body } = await getJson(h, '/api/v1/tags', { key: seed.key });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['tags']);
    expect(body.tags.map((tag: { name: string }) => tag.name)).toEqual(['follow-up', 'lead', 'vip']);

    const duplicate = await postJson(h, '/api/v1/tags', seed.key, { name: 'vip' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({ code: 'CONFLICT', details: { name: 'already exists' } });
  });

  it('filters: status (open is active), assigned_user_id, and search and tag_id on the contacts list', async () => {
    const ids = seed.conversationIds;
    const conversations = async (query: string) =>
      (await getJson(h, `/api/v1/conversations?${query}`, { key: seed.key })).body.data.map((c: { id: string }) => c.id);
    expect(await conversations('status=active')).toEqual([ids.active, ids.silent]);
    expect(await conversations('status=open')).toEqual([ids.active, ids.silent]);
    expect(await conversations('status=pending')).toEqual([ids.pending]);
    expect(await conversations('status=closed')).toEqual([ids.closed]);
    expect(await conversations(`assigned_user_id=${seed.workspace.user_id}`)).toEqual([ids.active]);
    expect(await conversations('before=2026-02-15T00:00:00Z')).toEqual([ids.pending, ids.closed]);

    const contacts = async (query: string) =>
      (await getJson(h, `/api/v1/contacts?${query}`, { key: seed.key })).body.data.map((c: { id: string }) => c.id);
    expect(await contacts('search=ADA')).toEqual([seed.fullContactId]);
    expect(await contacts('search=0100002')).toEqual([seed.bareContactId]);
    expect(await contacts(`tag_id=${seed.tagId}`)).toEqual([seed.fullContactId]);
    expect(await contacts('limit=1')).toEqual([seed.bareContactId]);
  });
});

describe('the guide form, for clients that send Accept: application/vnd.messaging-crm.guide+json', () => {
  const cases = [
    ['/api/v1/users', 'users', 1],
    ['/api/v1/conversations', 'conversations', 4],
    ['/api/v1/contacts', 'customers', 2],
    ['/api/v1/contacts/search?q=a', 'customers', 1],
    ['/api/v1/customers', 'customers', 2],
    ['/api/v1/customers/search?q=a', 'customers', 1],
    ['/api/v1/tags', 'tags', 3],
  ] as const;

  it.each(cases)('%s answers {%s: [...], hasMore}', async (path, key, count) => {
    const { status, headers, body } = await getJson(h, path, { key: seed.key, headers: { accept: GUIDE } });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe(`${GUIDE}; charset=utf-8`);
    expect(headers.get('vary')).toBe('Accept');
    expect(sorted(Object.keys(body))).toEqual(sorted([key, 'hasMore']));
    expect(body.hasMore).toBe(false);
    expect(body[key].length).toBeGreaterThanOrEqual(count);
  });

  it('hasMore is true while pages remain, and a guide client pages contacts by the last id', async () => {
    const first = await getJson(h, '/api/v1/contacts?limit=1', { key: seed.key, headers: { accept: GUIDE } });
    expect(first.body).toEqual({ customers: [expect.objectContaining({ id: seed.bareContactId })], hasMore: true });
    const second = await getJson(h, `/api/v1/contacts?limit=1&cursor=${seed.bareContactId}`, { key: seed.key, headers: { accept: GUIDE } });
    expect(second.body).toEqual({ customers: [expect.objectContaining({ id: seed.fullContactId })], hasMore: false });
  });

  it('conversation items in the guide form carry last_message_at and created_at', async () => {
    const { body } = await getJson(h, '/api/v1/conversations?limit=2', { key: seed.key, headers: { accept: GUIDE } });
    expect(body.hasMore).toBe(true);
    expect(body.conversations[0].last_message_at).toBe('2026-03-01T10:00:00.000Z');
    expect(body.conversations[0].created_at).toMatch(UTC_DATE_TIME);
  });

  it('the schema form stays the default, and single records ignore the guide media type', async () => {
    const plain = await getJson(h, '/api/v1/users', { key: seed.key, headers: { accept: 'application/json' } });
    expect(Array.isArray(plain.body)).toBe(true);
    const refused = await getJson(h, '/api/v1/users', { key: seed.key, headers: { accept: `${GUIDE};q=0, application/json` } });
    expect(Array.isArray(refused.body)).toBe(true);
    const detail = await getJson(h, `/api/v1/contacts/${seed.fullContactId}`, { key: seed.key, headers: { accept: GUIDE } });
    expect(detail.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(detail.body.id).toBe(seed.fullContactId);
  });
});

describe('errors: the spec’s error object with a request id', () => {
  const validation: [string, string, string][] = [
    ['/api/v1/conversations?limit=0', 'limit', 'must be between 1 and 100'],
    ['/api/v1/conversations?limit=101', 'limit', 'must be between 1 and 100'],
    ['/api/v1/conversations?limit=abc', 'limit', 'must be an integer'],
    ['/api/v1/conversations?limit=2.5', 'limit', 'must be an integer'],
    ['/api/v1/conversations?limit=99999999999', 'limit', 'must be an integer'],
    ['/api/v1/conversations?limit=1&limit=2', 'limit', 'must be given once'],
    ['/api/v1/conversations?status=archived', 'status', 'must be one of active, closed, pending (or open)'],
    ['/api/v1/conversations?before=yesterday', 'before', 'must be an ISO 8601 date-time or a next_cursor value'],
    // Cursors not made here, naming an instant the database cannot compare: no Date at all, or past the year 9999.
    ...['c1.01960000-0000-7000-8000-000000000000.99999999999999999', 'c1.01960000-0000-7000-8000-000000000000.253402300800000'].flatMap(
      (cursor): [string, string, string][] =>
        ['/api/v1/conversations?', '/api/v1/conversations/search?q=ab&'].map((path) => [
          `${path}before=${cursor}`,
          'before',
          'must be an ISO 8601 date-time or a next_cursor value',
        ]),
    ),
    ['/api/v1/conversations?before=0000-01-01T00:00:00Z', 'before', 'must be an ISO 8601 date-time or a next_cursor value'],
    ['/api/v1/conversations?assigned_user_id=bob', 'assigned_user_id', 'must be a UUID'],
    ['/api/v1/contacts?limit=-1', 'limit', 'must be between 1 and 100'],
    ['/api/v1/contacts?cursor=42', 'cursor', 'must be a UUID'],
    ['/api/v1/contacts?tag_id=vip', 'tag_id', 'must be a UUID'],
    ['/api/v1/contacts/search', 'q', 'is required'],
    ['/api/v1/contacts/search?q=', 'q', 'is required'],
    ['/api/v1/contacts/search?q=%20', 'q', 'must be at least 1 character'],
    ['/api/v1/contacts/search?q=a&cursor=x', 'cursor', 'must be a UUID'],
    ['/api/v1/contacts/not-a-uuid', 'id', 'must be a UUID'],
    ['/api/v1/contacts/%E0%A4%A', 'id', 'must be a valid path segment'],
    ['/api/v1/customers?limit=abc', 'limit', 'must be an integer'],
    ['/api/v1/customers/not-a-uuid', 'id', 'must be a UUID'],
  ];

  it.each(validation)('GET %s → 400 VALIDATION_ERROR {%s: %s}', async (path, field, reason) => {
    const { status, headers, body } = await getJson(h, path, { key: seed.key });
    expect(status).toBe(400);
    expect(body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        details: { [field]: reason },
        request_id: headers.get('x-request-id'),
      },
    });
  });

  it.each([
    [{ name: 5 }, 'name', 'must be a string'],
    [{ color: '#000000' }, 'name', 'is required'],
    [{ name: null }, 'name', 'is required'],
    [{ name: 'x', color: 'blue' }, 'color', 'must be a hex color such as #1e88e5'],
    [{ name: '  ' }, 'name', 'is required'],
  ])('POST /api/v1/tags %j → 400 {%s: %s}', async (payload, field, reason) => {
    const { status, body } = await postJson(h, '/api/v1/tags', seed.key, payload);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { [field]: reason } });
  });

  it('a malformed or non-object JSON body is 400, another content type 415', async () => {
    const post = (body: string, type?: string) =>
      getJson(h, '/api/v1/tags', { method: 'POST', key: seed.key, body, headers: type ? { 'content-type': type } : {} });
    const malformed = await post('{"name": ', 'application/json');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { body: 'must be valid JSON' } });
    const array = await post('["vip"]', 'application/json');
    expect(array.status).toBe(400);
    expect(array.body.error.details).toEqual({ body: 'must be a JSON object' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const wrong = await post('name=vip', type);
      expect(wrong.status).toBe(415);
      expect(wrong.body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', request_id: wrong.headers.get('x-request-id') });
    }
  });

  it('a wrong method on a known path is 405 with Allow', async () => {
    for (const [method, path, allow] of [
      ['PUT', `/api/v1/contacts/${seed.fullContactId}`, 'GET, PATCH, DELETE'],
      ['PUT', '/api/v1/tags', 'GET, POST'],
      ['POST', '/api/v1/contacts/search', 'GET'],
      ['POST', '/api/v1/openapi.json', 'GET'],
    ] as const) {
      const { status, headers, body } = await getJson(h, path, { method, key: seed.key });
      expect(status).toBe(405);
      expect(headers.get('allow')).toBe(allow);
      expect(body.error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', request_id: headers.get('x-request-id') });
    }
  });

  it('another workspace’s record answers exactly as a missing one: 404 NOT_FOUND', async () => {
    const foreign = await getJson(h, `/api/v1/contacts/${seed.foreignContactId}`, { key: seed.key });
    const missing = await getJson(h, '/api/v1/contacts/01960000-0000-7000-8000-000000000000', { key: seed.key });
    for (const answer of [foreign, missing]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error).toEqual({
        code: 'NOT_FOUND',
        message: 'Customer not found',
        request_id: answer.headers.get('x-request-id'),
      });
    }
  });

  it('unknown paths are 404, a missing key 401, a key without the scope 403, each with a request id', async () => {
    const unknown = await getJson(h, '/api/v1/contacts/a/b', { key: seed.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.request_id).toBe(unknown.headers.get('x-request-id'));
    const anonymous = await getJson(h, '/api/v1/contacts');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Unauthorized',
      request_id: anonymous.headers.get('x-request-id'),
    });
    const tagsOnly = await h.key(seed.workspace.workspace_id, ['tags']);
    const forbidden = await getJson(h, '/api/v1/customers', { key: tagsOnly });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', request_id: forbidden.headers.get('x-request-id') });
    const contactsRead = await h.key(seed.workspace.workspace_id, ['contacts:read']);
    expect((await getJson(h, '/api/v1/contacts', { key: contactsRead })).status).toBe(200);
    expect((await postJson(h, '/api/v1/tags', contactsRead, { name: 'nope' })).status).toBe(403);
  });
});

describe('the deprecated customers routes', () => {
  const pairs = () => [
    ['/api/v1/customers?limit=1', '/api/v1/contacts?limit=1'],
    ['/api/v1/customers/search?q=ada', '/api/v1/contacts/search?q=ada'],
    [`/api/v1/customers/${seed.fullContactId}`, `/api/v1/contacts/${seed.fullContactId}`],
    ['/api/v1/customers?cursor=nope', '/api/v1/contacts?cursor=nope'],
    ['/api/v1/customers/search', '/api/v1/contacts/search'],
    [`/api/v1/customers/${seed.foreignContactId}`, `/api/v1/contacts/${seed.foreignContactId}`],
  ];

  it('answer exactly as the contacts routes, plus Deprecation and a Link to the successor', async () => {
    for (const [alias, successor] of pairs()) {
      const old = await getJson(h, alias!, { key: seed.key });
      const current = await getJson(h, successor!, { key: seed.key });
      expect(old.status).toBe(current.status);
      if (old.status < 400) expect(old.body).toEqual(current.body);
      else expect({ ...old.body.error, request_id: 'x' }).toEqual({ ...current.body.error, request_id: 'x' });
      expect(old.headers.get('deprecation')).toBe('@1767225600');
      expect(old.headers.get('link')).toBe(`<${successor}>; rel="successor-version"`);
      expect(old.headers.get('sunset')).toBeNull();
      for (const header of ['deprecation', 'link', 'sunset']) expect(current.headers.get(header)).toBeNull();
    }
  });

  it('announce Sunset as an HTTP-date when CUSTOMERS_SUNSET is configured', async () => {
    const settings = loadSettings({ CUSTOMERS_SUNSET: '2027-06-30' });
    expect(settings.CUSTOMERS_SUNSET).toEqual(new Date('2027-06-30T00:00:00Z'));
    const app = createApp(h.services, {
      sessionStore: h.sessionStore(),
      graphiql: false,
      logger: createLogger('silent'),
      customersSunset: settings.CUSTOMERS_SUNSET,
    });
    const response = await app.yoga.fetch('http://service.test/api/v1/customers', { headers: { authorization: `Bearer ${seed.key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(response.headers.get('deprecation')).toBe('@1767225600');
    const current = await app.yoga.fetch('http://service.test/api/v1/contacts', { headers: { authorization: `Bearer ${seed.key}` } });
    expect(current.headers.get('sunset')).toBeNull();
  });

  it('refuse a CUSTOMERS_SUNSET that is not a date, or earlier than the deprecation', () => {
    expect(loadSettings({ CUSTOMERS_SUNSET: '2027-06-30T12:00:00+02:00' }).CUSTOMERS_SUNSET).toEqual(new Date('2027-06-30T10:00:00Z'));
    expect(() => loadSettings({ CUSTOMERS_SUNSET: 'next year' })).toThrow(/CUSTOMERS_SUNSET/);
    expect(() =>
      createApp(h.services, {
        sessionStore: h.sessionStore(),
        graphiql: false,
        logger: createLogger('silent'),
        customersSunset: new Date('2025-06-30T00:00:00Z'),
      }),
    ).toThrow(/earlier than the deprecation/);
  });
});

describe('the route table', () => {
  const route = (operation: string, rest: RestRoute) => restSurface(schema, [{ operation, rest: [rest] }]);

  it('refuses, at start-up, a route whose operation does not exist or does not fit its method and path', () => {
    expect(() => route('Widgets', { operationId: 'listWidgets', method: 'GET', path: '/widgets' })).toThrow(/Unknown operation Widgets/);
    expect(() => route('Users', { operationId: 'bad', method: 'POST', path: '/users' })).toThrow(/GET routes run queries/);
    expect(() => route('TagCreate', { operationId: 'bad', method: 'GET', path: '/tags/{id}' })).toThrow(/GET routes run queries/);
    expect(() => route('TagAssign', { operationId: 'bad', method: 'DELETE', path: '/tags/{id}' })).toThrow(
      /\{id\} is not a variable of TagAssign/,
    );
  });

  it('refuses, at start-up, two routes for one method and path', () => {
    const deleteContact = FACADE_TABLE.flatMap((entry) => entry.rest ?? []).find((candidate) => candidate.operationId === 'deleteContact')!;
    const twice = [...FACADE_TABLE, { operation: 'ContactDelete', rest: [{ ...deleteContact, operationId: 'again' }] }];
    const options = { gateway: createGateway(), schema, version: 'test', mediaFiles: h.services.mediaFiles, onUnexpected: () => undefined };
    expect(() => useRestFacade({ ...options, table: twice })).toThrow(/Two REST routes answer DELETE \/api\/v1\/contacts\/\{id\}/);
  });

  it('serves a new route, of any method, over an existing operation from one added entry', async () => {
    const gateway = createGateway();
    const yoga = createYoga({
      schema,
      logging: false,
      context: ({ request }) => ({ ...h.services, actor: requestState(request).actor, requestId: requestState(request).requestId }),
      plugins: [
        useRequestId(),
        gateway.plugin,
        useAuthentication(
          {
            keys: createApiKeyAuthenticator(h.services.prisma, { ttlMs: 0, changes: h.services.keyChanges }),
            sessions: createSessionAuthenticator(h.services.prisma),
          },
          { graphiql: false },
        ),
        useRestFacade({
          gateway,
          schema,
          version: 'test',
          mediaFiles: h.services.mediaFiles,
          onUnexpected: () => undefined,
          table: [
            ...FACADE_TABLE,
            {
              operation: 'ConversationClose',
              rest: [{ operationId: 'closeThread', method: 'PUT', path: '/threads/{id}/closed', errors: ['INVALID_TRANSITION'] }],
            },
          ],
        }),
      ],
    });
    const elsewhere = await h.workspace();
    const customer = await h.db.prisma.customer.create({ data: { company_id: elsewhere.workspace_id, name: 'Thread' } });
    const thread = await h.db.prisma.conversation.create({
      data: { company_id: elsewhere.workspace_id, customer_id: customer.id, provider: 'sandbox' },
    });
    const response = await yoga.fetch(`http://service.test/api/v1/threads/${thread.id}/closed`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${elsewhere.api_key}` },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(sorted(Object.keys(body))).toEqual(sorted(SPEC_FIELDS.conversation));
    expect(body).toMatchObject({ id: thread.id, status: 'closed', customer: { id: customer.id, name: 'Thread' } });
    const document = await (await yoga.fetch('http://service.test/api/v1/openapi.json')).json();
    expect(document.paths['/api/v1/threads/{id}/closed'].put.operationId).toBe('closeThread');
    expect(document.paths['/api/v1/threads/{id}/closed'].put.responses['409'].content['application/json'].schema.allOf[1]).toEqual({
      properties: { error: { properties: { code: { const: 'INVALID_TRANSITION' } } } },
    });
  });
});

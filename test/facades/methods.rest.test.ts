// The REST facade's handling of PATCH, PUT and DELETE next to GET and POST: which methods a path answers,
// how bodies are read, how path parameters and body keys combine, and that a route answers exactly what its
// operation answers through /graphql (and so through its MCP tool).
import { describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { openHarness } from '../support/harness.js';
import { getJson, postJson, sendJson } from '../support/restFixtures.js';
import { operation } from '../../facades/core/operations.js';
import { FACADE_TABLE } from '../../facades/operations/index.js';

const h = await openHarness();
const ws = await h.workspace('Rest methods');
const key = ws.api_key;

async function contact(name: string): Promise<string> {
  return (await postJson(h, '/api/v1/contacts', key, { name })).body.id;
}

const send = (method: string, path: string, body: string | undefined, type?: string) =>
  getJson(h, path, { method, key, ...(body === undefined ? {} : { body }), headers: type ? { 'content-type': type } : {} });

describe('methods of a path', () => {
  it('405 names every method the path answers, in the order GET, POST, PUT, PATCH, DELETE', async () => {
    const id = await contact('Ann');
    const cases: [string, string, string][] = [
      ['POST', `/api/v1/contacts/${id}`, 'GET, PATCH, DELETE'],
      ['GET', `/api/v1/contacts/${id}/tags/${id}`, 'PUT, DELETE'],
      ['GET', `/api/v1/conversations/${id}/close`, 'POST'],
      ['DELETE', `/api/v1/conversations/${id}/notes`, 'GET, POST'],
      ['PUT', `/api/v1/conversations/notes/${id}`, 'PATCH, DELETE'],
      ['GET', '/api/v1/contacts/import', 'POST'],
      ['PATCH', `/api/v1/customers/${id}`, 'GET'],
      ['HEAD', `/api/v1/contacts/${id}`, 'GET, PATCH, DELETE'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await h.fetch(path, { method, key });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow);
      if (method !== 'HEAD') expect((await response.json()).error.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('a literal segment wins over an id: /contacts/import, /contacts/channels/…, /conversations/notes/…', async () => {
    const imported = await postJson(h, '/api/v1/contacts/import', key, { contacts: [{ name: 'Literal' }] });
    expect(imported.body).toMatchObject({ created: 1, failed: 0 });
    const missingChannel = await getJson(h, '/api/v1/contacts/channels/01960000-0000-7000-8000-000000000000', { method: 'DELETE', key });
    expect(missingChannel.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Channel not found' });
  });
});

describe('bodies of PATCH and PUT', () => {
  it('are read as POST bodies are: 415 for another content type, 400 for JSON that is malformed or not an object', async () => {
    const id = await contact('Ben');
    const tagId = (await postJson(h, '/api/v1/tags', key, { name: 'bodies' })).body.id;
    for (const [method, path] of [
      ['PATCH', `/api/v1/contacts/${id}`],
      ['PUT', `/api/v1/contacts/${id}/tags/${tagId}`],
    ] as const) {
      const wrongType = await send(method, path, 'name=Benjamin', 'application/x-www-form-urlencoded');
      expect(wrongType.status).toBe(415);
      expect(wrongType.body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', request_id: wrongType.headers.get('x-request-id') });
      const malformed = await send(method, path, '{"name": ', 'application/json');
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.details).toEqual({ body: 'must be valid JSON' });
      const array = await send(method, path, '["Benjamin"]', 'application/merge-patch+json');
      expect(array.status).toBe(400);
      expect(array.body.error.details).toEqual({ body: 'must be a JSON object' });
    }
    expect((await getJson(h, `/api/v1/contacts/${id}`, { key })).body).toMatchObject({ name: 'Ben', tags: [] });
  });

  it('may be empty without a Content-Type: actions without arguments need none, and an empty update changes nothing', async () => {
    const id = await contact('Cleo');
    const tagId = (await postJson(h, '/api/v1/tags', key, { name: 'empty' })).body.id;
    const assigned = await send('PUT', `/api/v1/contacts/${id}/tags/${tagId}`, undefined);
    expect(assigned.status).toBe(200);
    expect(assigned.body.assigned).toBe(true);
    const before = (await getJson(h, `/api/v1/contacts/${id}`, { key })).body;
    const unchanged = await send('PATCH', `/api/v1/contacts/${id}`, '');
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toMatchObject({ name: 'Cleo', tags: ['empty'], created_at: before.created_at });
    // A POST whose field needs an argument still says which one is missing, not that the type is wrong.
    const tag = await send('POST', '/api/v1/tags', undefined);
    expect(tag.status).toBe(400);
    expect(tag.body.error.details).toEqual({ name: 'is required' });
  });

  it('carry null to the mutation, where it clears; an omitted key leaves the value', async () => {
    const created = await postJson(h, '/api/v1/contacts', key, { name: 'Dina', notes: 'Likes tea', metadata: { tier: 1 } });
    const path = `/api/v1/contacts/${created.body.id}`;
    const kept = await sendJson(h, 'PATCH', path, key, { name: 'Dina B.' });
    expect(kept.body).toMatchObject({ name: 'Dina B.', notes: 'Likes tea', metadata: { tier: 1 } });
    const cleared = await sendJson(h, 'PATCH', path, key, { notes: null, metadata: null });
    expect(cleared.body).toMatchObject({ name: 'Dina B.', notes: null, metadata: null });
  });
});

describe('DELETE', () => {
  it('reads no body: one sent anyway is not parsed and changes nothing', async () => {
    const id = await contact('Eli');
    const deleted = await send('DELETE', `/api/v1/contacts/${id}`, 'not json at all', 'text/plain');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, deleted: true, deleted_conversations: 0, deleted_messages: 0 });
  });
});

describe('path parameters next to the body and the query string', () => {
  it('are arguments of the field; a body key or query parameter naming one is 400 and nothing runs', async () => {
    const id = await contact('Fay');
    const otherId = await contact('Gil');
    const repeated = { id: 'is given by the path and must not be repeated' };
    const patched = await sendJson(h, 'PATCH', `/api/v1/contacts/${id}`, key, { id: otherId, name: 'Renamed' });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: repeated });
    const channel = await postJson(h, `/api/v1/contacts/${id}/channels`, key, {
      customer_id: otherId,
      type: 'email',
      value: 'fay@example.com',
    });
    expect(channel.status).toBe(400);
    expect(channel.body.error.details).toEqual({ customer_id: 'is given by the path and must not be repeated' });
    const read = await getJson(h, `/api/v1/contacts/${id}?id=${otherId}`, { key });
    expect(read.status).toBe(400);
    expect(read.body.error.details).toEqual(repeated);
    const deleted = await getJson(h, `/api/v1/contacts/${id}?id=${otherId}`, { method: 'DELETE', key });
    expect(deleted.status).toBe(400);
    for (const name of [id, otherId]) {
      const { body } = await getJson(h, `/api/v1/contacts/${name}`, { key });
      expect(body.name).toBe(name === id ? 'Fay' : 'Gil');
      expect((await getJson(h, `/api/v1/contacts/${name}/channels`, { key })).body.channels).toEqual([]);
    }
  });
});

describe('the same JSON as GraphQL and MCP', () => {
  it('a route answers its operation’s root field byte for byte as /graphql answers it, keys in the same order', async () => {
    const id = await contact('Hal');
    const routes = FACADE_TABLE.flatMap(({ operation: name, rest = [] }) =>
      rest.filter((route) => route.method === 'GET' && !route.deprecated).map((route) => ({ name, route })),
    );
    let compared = 0;
    for (const { name, route } of routes) {
      const path = route.path.replace('{id}', id).replace('{customer_id}', id);
      if (path.includes('{') || route.path.includes('templates') || route.path.startsWith('/public/')) continue;
      const variables = route.path.includes('{') ? (route.path.includes('{id}') ? { id } : { customer_id: id }) : {};
      const rest = await h.fetch(`/api/v1${path}`, { key });
      if (rest.status !== 200) continue;
      const { body } = await h.graphql(key, print(operation(name)), variables);
      expect(await rest.text(), route.operationId).toBe(JSON.stringify(Object.values(body.data!)[0]));
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(10);
  });
});

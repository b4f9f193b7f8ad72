// The smaller doors of issue 34 (point 5): malformed MCP session ids are JSON-RPC 400/404 answers with the message's
// id and the request id, never a 500 with a stack; bad params are -32602; a role change reaches a remembered key
// at once on another instance (the key-change notice), not after API_KEY_CACHE_SECONDS; a calendar feed's token is
// not written to the request log; a subscription asked for as application/json gets a 406 with the error object.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app/createApp.js';
import { createEdge } from '../../app/edge.js';
import { loadSettings } from '../../infra/config/settings.js';
import { createLogger } from '../../infra/observability/logger.js';
import { openHarness } from '../support/harness.js';
import { asPerson, invitePerson, ownerSession } from '../support/people.js';

const harness = await openHarness({ apiKeyCacheSeconds: 60 });
const acme = await harness.workspace('Acme');
let captured = '';
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    captured += chunk.toString();
    done();
  },
});
// Another instance of the service on the same database, remembering keys for a minute, logging to a buffer.
const logger = createLogger('info', sink);
const other = createApp(harness.services, {
  graphiql: false,
  logger,
  edge: createEdge({ ...loadSettings({}), API_KEY_CACHE_SECONDS: 60 }, { logger }),
  sessionStore: harness.sessionStore(),
});
const onOther = (path: string, init: RequestInit & { key?: string } = {}) => {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  return other.yoga.fetch(`http://service.test${path}`, { ...init, headers });
};

const mcpHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};
const mcp = (body: unknown, sessionId?: string, method = 'POST') =>
  harness.fetch('/mcp', {
    method,
    key: acme.api_key,
    headers: { ...mcpHeaders, ...(sessionId ? { 'mcp-session-id': sessionId } : {}) },
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });

describe('MCP protocol errors', () => {
  it.each(['not-a-uuid', "'; DROP TABLE mcp_sessions; --", '0'.repeat(300), '01950000-0000-7000-8000-000000000000'])(
    'answers the session id %s with a JSON-RPC 404 carrying the ids, on POST and DELETE',
    async (sessionId) => {
      const posted = await mcp({ jsonrpc: '2.0', id: 41, method: 'tools/list', params: {} }, sessionId);
      expect(posted.status).toBe(404);
      const body = await posted.json();
      expect(body).toEqual({
        jsonrpc: '2.0',
        id: 41,
        error: { code: -32001, message: 'Session not found', data: { request_id: posted.headers.get('x-request-id') } },
      });
      const deleted = await mcp(null, sessionId, 'DELETE');
      expect(deleted.status).toBe(404);
      expect((await deleted.json()).error.data.request_id).toBe(deleted.headers.get('x-request-id'));
    },
  );

  it('answers params of the wrong shape -32602 with the message id', async () => {
    const init = await mcp({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    for (const params of [{ name: 'contacts_list', arguments: 'all' }, { arguments: {} }, { name: 7 }]) {
      const answer = await mcp({ jsonrpc: '2.0', id: 9, method: 'tools/call', params }, sessionId);
      const body = await answer.json();
      expect(body.id).toBe(9);
      expect(body.error.code).toBe(-32602);
    }
  });
});

describe('role changes and remembered keys', () => {
  it('takes a demoted creator’s scope from their key on another instance at once', async () => {
    const owner = await ownerSession(harness, acme);
    const admin = await invitePerson(harness, owner, `admin-${Date.now()}@example.com`, 'admin');
    const made = await asPerson(harness, admin, 'mutation { apiKeyCreate(name: "ops", scopes: ["webhooks", "tags"]) { api_key } }');
    const key = made.body.data.apiKeyCreate.api_key as string;
    expect((await onOther('/api/v1/webhooks', { key })).status).toBe(200);
    await asPerson(harness, owner, 'mutation($id: ID!) { userRoleUpdate(id: $id, role: "member") { role } }', { id: admin.body.user.id });
    await expect.poll(async () => (await onOther('/api/v1/webhooks', { key })).status, { timeout: 3_000, interval: 100 }).toBe(403);
    await asPerson(harness, owner, 'mutation($id: ID!) { userRemove(id: $id) { status } }', { id: admin.body.user.id });
    await expect.poll(async () => (await onOther('/api/v1/tags', { key })).status, { timeout: 3_000, interval: 100 }).toBe(401);
  });
});

describe('request logs and content negotiation', () => {
  it('writes a calendar feed’s path to the log without its token', async () => {
    const token = 'cal_secret_token_0123456789abcdef';
    await onOther(`/calendar/${token}.ics`);
    expect(captured).not.toContain(token);
    expect(captured).toContain('"path":"/calendar/[token]"');
  });

  it('answers a subscription asked for as application/json 406 with the error object', async () => {
    const response = await harness.fetch('/graphql', {
      method: 'POST',
      key: acme.api_key,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: 'subscription { conversationChanged { id } }' }),
    });
    expect(response.status).toBe(406);
    const body = await response.json();
    expect(body.error).toMatchObject({ code: 'NOT_ACCEPTABLE', request_id: response.headers.get('x-request-id') });
    expect(body.error.message).toMatch(/text\/event-stream/);
  });
});

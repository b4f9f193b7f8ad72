// The same bad input gets the same error on every surface: for each case, one MCP tool call (the SDK's own Client
// over Streamable HTTP, its fetch calling the app), the REST route of the same table entry (path values, then the
// query string for GET and DELETE or the JSON body), and the entry's operation through /graphql with the same
// arguments as variables. REST's and MCP's error objects and GraphQL's first error (message, extensions.code and
// extensions.details) must be equal, and be the code the case provokes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openHarness, type Harness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';
import { operation } from '../../facades/core/operations.js';
import { readsBody } from '../../facades/core/table.js';
import { FACADE_TABLE } from '../../facades/operations/index.js';
import { REST_BASE_PATH } from '../../facades/rest/boundRoute.js';

type Failure = { code: string; message: string; details?: Record<string, unknown> };
type Case = {
  name: string;
  tool: string;
  args: () => Record<string, unknown>;
  code: string;
  details?: Record<string, unknown>;
  /** Run with a key that has only this scope. */
  scope?: string;
};

const MISSING_ID = '01960000-0000-7000-8000-000000000000';

/** `{a: {a: … {}}}`, `depth` objects deep. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < depth; level++) value = { a: value };
  return value;
}

let h: Harness;
let keys: Map<string, string>;
/** One MCP session per key, as a client keeps it: a key may hold only a few at a time. */
const clients = new Map<string, Client>();
let fixtures: { contactId: string; staleId: string; closedId: string; typeId: string; tagName: string; noteId: string };

async function mcpClient(key: string): Promise<Client> {
  const open = clients.get(key);
  if (open) return open;
  const client = new Client({ name: 'equivalence', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL('http://service.test/mcp'), {
    fetch: (url, init) => Promise.resolve(h.app.yoga.fetch(String(url), init ?? {})),
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.set(key, client);
  return client;
}

beforeAll(async () => {
  h = await openHarness({ rateLimitPerMinute: 10_000 });
  const workspace = await h.workspace();
  const prisma = h.db.prisma;
  const contact = await prisma.customer.create({ data: { company_id: workspace.workspace_id, name: 'Eve', wa_id: '15550107777' } });
  const stale = await seedConversation(prisma, workspace, contact.id, { lastMessageAt: new Date(Date.now() - 48 * 3600_000) });
  const closed = await seedConversation(prisma, workspace, contact.id, { status: 'closed' });
  const tag = await prisma.tag.create({ data: { company_id: workspace.workspace_id, name: 'taken' } });
  const type = await h.fetch('/api/v1/appointment-types', {
    method: 'POST',
    key: workspace.api_key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Visit', duration_minutes: 30, availability: [{ weekday: 'monday', start: '09:00', end: '17:00' }] }),
  });
  const note = await h.fetch(`/api/v1/conversations/${stale.id}/notes`, {
    method: 'POST',
    key: workspace.api_key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ body: 'first' }),
  });
  fixtures = {
    contactId: contact.id,
    staleId: stale.id,
    closedId: closed.id,
    typeId: ((await type.json()) as { id: string }).id,
    tagName: tag.name,
    noteId: ((await note.json()) as { id: string }).id,
  };
  keys = new Map([
    ['all', workspace.api_key],
    ['contacts:read', await h.key(workspace.workspace_id, ['contacts:read'])],
  ]);
});

afterAll(async () => {
  for (const client of clients.values()) await client.close();
});

const CASES: Case[] = [
  {
    name: 'a string given as a number',
    tool: 'contacts_create',
    args: () => ({ name: 5 }),
    code: 'VALIDATION_ERROR',
    details: { name: 'must be a string' },
  },
  {
    name: 'an integer given as text',
    tool: 'contacts_list',
    args: () => ({ limit: 'abc' }),
    code: 'VALIDATION_ERROR',
    details: { limit: 'must be an integer' },
  },
  {
    name: 'an integer given as a fraction',
    tool: 'contacts_list',
    args: () => ({ limit: 2.5 }),
    code: 'VALIDATION_ERROR',
    details: { limit: 'must be an integer' },
  },
  {
    name: 'an integer beyond 32 bits',
    tool: 'contacts_list',
    args: () => ({ limit: 1e10 }),
    code: 'VALIDATION_ERROR',
    details: { limit: 'must be an integer' },
  },
  {
    name: 'limit below its range',
    tool: 'contacts_list',
    args: () => ({ limit: 0 }),
    code: 'VALIDATION_ERROR',
    details: { limit: 'must be between 1 and 100' },
  },
  {
    name: 'limit above its range',
    tool: 'conversations_list',
    args: () => ({ limit: 101 }),
    code: 'VALIDATION_ERROR',
    details: { limit: 'must be between 1 and 100' },
  },
  {
    name: 'a required value missing',
    tool: 'tags_create',
    args: () => ({ color: '#000000' }),
    code: 'VALIDATION_ERROR',
    details: { name: 'is required' },
  },
  {
    name: 'a required value given as null',
    tool: 'conversation_notes_update',
    args: () => ({ id: fixtures.noteId, body: null }),
    code: 'VALIDATION_ERROR',
    details: { body: 'is required' },
  },
  {
    name: 'an id that is not a UUID',
    tool: 'contacts_get',
    args: () => ({ id: 'not-a-uuid' }),
    code: 'VALIDATION_ERROR',
    details: { id: 'must be a UUID' },
  },
  {
    name: 'an id given as a number',
    tool: 'messages_send',
    args: () => ({ conversation_id: 5, body: 'Hello' }),
    code: 'VALIDATION_ERROR',
    details: { conversation_id: 'must be a string' },
  },
  {
    name: 'an unknown enum value',
    tool: 'contact_channels_add',
    args: () => ({ customer_id: fixtures.contactId, type: 'fax', value: '1' }),
    code: 'VALIDATION_ERROR',
    details: { type: 'must be one of bsuid, email, parent_bsuid, phone, username, wa_id' },
  },
  { name: 'an unknown status filter', tool: 'conversations_list', args: () => ({ status: 'finished' }), code: 'VALIDATION_ERROR' },
  {
    name: 'a date-time that is not one',
    tool: 'appointments_book',
    args: () => ({ customer_id: fixtures.contactId, appointment_type_id: fixtures.typeId, start_at: 'tomorrow' }),
    code: 'VALIDATION_ERROR',
    details: { start_at: 'must be an ISO 8601 date-time between the years 1 and 9999' },
  },
  {
    name: 'date-times in a query',
    tool: 'analytics_summary',
    args: () => ({ from: 'x', to: 'y' }),
    code: 'VALIDATION_ERROR',
    details: {
      from: 'must be an ISO 8601 date-time between the years 1 and 9999',
      to: 'must be an ISO 8601 date-time between the years 1 and 9999',
    },
  },
  {
    name: 'an unknown field in an input object',
    tool: 'contacts_bulk_import',
    args: () => ({ contacts: [{ name: 'Ann', phone: '+15550100000' }] }),
    code: 'VALIDATION_ERROR',
    details: { 'contacts.0.phone': 'is not a known field' },
  },
  {
    name: 'a wrong type inside an input object',
    tool: 'contacts_bulk_import',
    args: () => ({ contacts: [{ name: 5 }] }),
    code: 'VALIDATION_ERROR',
    details: { 'contacts.0.name': 'must be a string' },
  },
  {
    name: 'a single value for a list',
    tool: 'webhooks_create',
    args: () => ({ url: 'https://hooks.example.com/x', events: 'message.received' }),
    code: 'VALIDATION_ERROR',
    details: { events: 'must be an array' },
  },
  {
    name: 'a value for an input object',
    tool: 'messages_send',
    args: () => ({ conversation_id: fixtures.staleId, template: 'reminder' }),
    code: 'VALIDATION_ERROR',
    details: { template: 'must be an object' },
  },
  {
    name: 'a missing field of an input object',
    tool: 'messages_send',
    args: () => ({ conversation_id: fixtures.staleId, template: { name: 'order_confirmation' } }),
    code: 'VALIDATION_ERROR',
    details: { 'template.language': 'is required' },
  },
  {
    name: 'a boolean given as text',
    tool: 'conversations_update',
    args: () => ({ id: fixtures.staleId, service_enabled: 'yes' }),
    code: 'VALIDATION_ERROR',
    details: { service_enabled: 'must be true or false' },
  },
  { name: 'a rule of the domain', tool: 'contacts_create', args: () => ({ notes: 'no identity' }), code: 'VALIDATION_ERROR' },
  {
    name: 'a cursor that is not an id',
    tool: 'contacts_list',
    args: () => ({ cursor: 'x' }),
    code: 'VALIDATION_ERROR',
    details: { cursor: 'must be a UUID' },
  },
  { name: 'a record that does not exist', tool: 'contacts_get', args: () => ({ id: MISSING_ID }), code: 'NOT_FOUND' },
  {
    name: 'a scope the key lacks',
    tool: 'contacts_create',
    args: () => ({ name: 'Nope' }),
    code: 'INSUFFICIENT_SCOPE',
    scope: 'contacts:read',
  },
  {
    name: 'the messaging window closed',
    tool: 'messages_send',
    args: () => ({ conversation_id: fixtures.staleId, body: 'Hello' }),
    code: 'MESSAGING_WINDOW_CLOSED',
  },
  {
    name: 'a closed conversation',
    tool: 'messages_send',
    args: () => ({ conversation_id: fixtures.closedId, body: 'Hello' }),
    code: 'CONVERSATION_CLOSED',
  },
  { name: 'a refused transition', tool: 'conversations_close', args: () => ({ id: fixtures.closedId }), code: 'INVALID_TRANSITION' },
  {
    name: 'a NUL character in a text field (PostgreSQL cannot store it)',
    tool: 'contacts_create',
    args: () => ({ name: 'Ada\u0000Lovelace' }),
    code: 'VALIDATION_ERROR',
    details: { name: 'must not contain NUL characters' },
  },
  {
    name: 'a NUL character in a search term',
    tool: 'contacts_list',
    args: () => ({ search: 'ada\u0000' }),
    code: 'VALIDATION_ERROR',
    details: { search: 'must not contain NUL characters' },
  },
  {
    name: 'a NUL character in a note body',
    tool: 'conversation_notes_create',
    args: () => ({ conversation_id: fixtures.staleId, body: '\u0000' }),
    code: 'VALIDATION_ERROR',
    details: { body: 'must not contain NUL characters' },
  },
  {
    name: 'a NUL character inside a JSON value',
    tool: 'contacts_create',
    args: () => ({ name: 'Ada', metadata: { note: ['ok', 'not\u0000ok'] } }),
    code: 'VALIDATION_ERROR',
    details: { metadata: 'must not contain NUL characters' },
  },
  {
    name: 'JSON nested 3,000 levels deep',
    tool: 'contacts_create',
    args: () => ({ name: 'Ada', metadata: nested(3000) }),
    code: 'VALIDATION_ERROR',
    details: { metadata: 'must be nested at most 20 levels deep' },
  },
  {
    name: 'a JSON value over 16 KB',
    tool: 'contacts_create',
    args: () => ({ name: 'Ada', metadata: { text: 'x'.repeat(17_000) } }),
    code: 'VALIDATION_ERROR',
    details: { metadata: 'must be at most 16384 bytes as JSON' },
  },
  {
    name: 'a date-time before the year 1',
    tool: 'appointments_list',
    args: () => ({ from: '-000001-01-01T00:00:00Z' }),
    code: 'VALIDATION_ERROR',
    details: { from: 'must be an ISO 8601 date-time between the years 1 and 9999' },
  },
  {
    name: 'a taken name',
    tool: 'tags_create',
    args: () => ({ name: fixtures.tagName }),
    code: 'CONFLICT',
    details: { name: 'already exists' },
  },
];

/** The REST request of the tool's table entry for these arguments: path values, then query string or body. */
function restRequest(tool: string, args: Record<string, unknown>): { url: string; init: RequestInit } {
  const route = FACADE_TABLE.find((entry) => entry.mcp?.name === tool)!.rest![0]!;
  const rest = { ...args };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (readsBody(route.method)) {
    return {
      url: `${REST_BASE_PATH}${path}`,
      init: { method: route.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(rest) },
    };
  }
  const query = new URLSearchParams(Object.entries(rest).map(([name, value]) => [name, String(value)]));
  return { url: `${REST_BASE_PATH}${path}${query.size > 0 ? `?${query}` : ''}`, init: { method: route.method } };
}

function operationOf(tool: string): string {
  return FACADE_TABLE.find((entry) => entry.mcp?.name === tool)!.operation;
}

describe('one bad input, one error, on REST, MCP and GraphQL', () => {
  it(`covers at least 20 bad inputs (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(CASES.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const key = keys.get(testCase.scope ?? 'all')!;
    const args = testCase.args();

    const { url, init } = restRequest(testCase.tool, args);
    const restAnswer = await h.fetch(url, { ...init, key });
    const rest = ((await restAnswer.json()) as { error: Failure & { request_id?: string } }).error;

    const called = (await (await mcpClient(key)).callTool({ name: testCase.tool, arguments: args })) as CallToolResult;
    expect(called.isError).toBe(true);
    // An error result carries the error object as text only: structuredContent would be checked against the tool's output schema.
    expect(called.structuredContent).toBeUndefined();
    const text = called.content[0]?.type === 'text' ? called.content[0].text : '';
    const mcp = (JSON.parse(text) as { error: Failure & { request_id?: string } }).error;

    const { body } = await h.graphql(key, print(operation(operationOf(testCase.tool))), args);
    const [first] = body.errors ?? [];
    const graphql: Failure = {
      code: first!.extensions.code!,
      message: first!.message,
      ...(first!.extensions['details'] ? { details: first!.extensions['details'] as Record<string, unknown> } : {}),
    };

    const { request_id: restRequestId, ...restError } = rest;
    const { request_id: mcpRequestId, ...mcpError } = mcp;
    expect(restRequestId).toBe(restAnswer.headers.get('x-request-id'));
    expect(mcpRequestId).toMatch(/^req_/);
    expect(restError.code).toBe(testCase.code);
    if (testCase.details) expect(restError.details).toEqual(testCase.details);
    expect(mcpError, 'MCP').toEqual(restError);
    expect(graphql, 'GraphQL').toEqual(restError);
  });
});

// Fuzzing as an attacker or a careless client would: requests generated from the served OpenAPI document (every
// operation, path, query and body parameter, with values of the documented shape or hostile ones: NUL bytes, lone
// surrogates, years outside 1–9999, huge numbers, 3,000-level JSON, wrong types, wrong content types) and GraphQL
// operations generated from the schema (every root field with hostile variables). No answer may be a 5xx; every
// REST answer must be what the document says, error bodies included; every GraphQL error carries a code. MCP
// session ids of any form are a JSON-RPC 400/404 with the message's id, never a 5xx; aliased and batched sign-in
// operations on /graphql are refused 4xx with no token.
// FUZZ_RUNS sets the number of generated requests (CI: 2,000 per surface with a fixed seed; `npm run fuzz`:
// 20,000 with a random one, printed to replay with FUZZ_SEED).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isEnumType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { openHarness } from '../support/harness.js';
import { documentChecker, type DocumentChecker, type OpenApi, type Operation, type Schema } from '../support/openapiDocument.js';
import { seedConversation } from '../support/conversations.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { PUBLIC_TEST_RECEIVER, resolveTestDns } from '../support/webhooks.js';
import { schema } from '../../schema/index.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 2000);
const SEED = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : process.env['FUZZ_RUNS'] ? Date.now() % 2 ** 31 : 20261125;

const h = await openHarness({ rateLimitPerMinute: 1_000_000, webhookTargets: createTargetGuard({ resolve: resolveTestDns }) });
let document: OpenApi;
let checker: DocumentChecker;
let key: string;
/** Real ids of the workspace, so that generated requests reach past "not found" into validation and writes. */
let ids: string[];
let workspaceId: string;

beforeAll(async () => {
  const workspace = await h.workspace();
  key = workspace.api_key;
  workspaceId = workspace.workspace_id;
  document = (await (await h.fetch('/api/v1/openapi.json')).json()) as OpenApi;
  checker = documentChecker(document);
  const post = async (path: string, body: unknown) => {
    const response = await h.fetch(path, {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as Record<string, any>;
  };
  const contact = await post('/api/v1/contacts', { name: 'Fuzz Target', phone_number: '+15550001111', email: 'fuzz@example.com' });
  const conversation = await seedConversation(h.db.prisma, workspace, contact['id'] as string, { messages: ['Hello'] });
  const note = await post(`/api/v1/conversations/${conversation.id}/notes`, { body: 'A note' });
  const tag = await post('/api/v1/tags', { name: 'fuzzed' });
  const webhook = await post('/api/v1/webhooks', { url: PUBLIC_TEST_RECEIVER, events: ['message.received'] });
  const message = await h.db.prisma.message.findFirstOrThrow({ where: { conversation_id: conversation.id } });
  const company = await h.db.prisma.workspace.findUniqueOrThrow({ where: { id: workspace.workspace_id } });
  ids = [
    contact['id'],
    conversation.id,
    note['id'] ?? note['note']?.['id'],
    tag['id'],
    webhook['id'],
    message.id,
    workspace.user_id,
    company.public_id,
  ].filter((id): id is string => typeof id === 'string');
});

// On a shared PostgreSQL, other files' delivery workers and campaign runners would pick up what this file made.
afterAll(async () => {
  await h.db.prisma.webhookSubscription.deleteMany({ where: { company_id: workspaceId } });
  await h.db.prisma.campaign.deleteMany({ where: { company_id: workspaceId } });
});

// Hostile values: each has given a 5xx somewhere before, or is the kind a careless client sends.
const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '',
  ' ',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2026-02-30T25:61:00Z',
  '1e309',
  '-1',
  'NaN',
  '99999999999999999999',
  '%00',
  '../../etc/passwd',
  'https://[::127.0.0.1]/',
  'https://169.254.169.254/latest/meta-data',
  '{"$gt":""}',
  'x'.repeat(70_000),
];

function deepJson(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < levels; level++) value = level % 2 ? [value] : { nested: value };
  return value;
}

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.constantFrom<unknown>(2 ** 53, -(2 ** 31) - 1, 1.5, null, true, [], {}),
  fc.constant(deepJson(3000)),
  fc.jsonValue({ maxDepth: 3 }),
);

function resolved(schemaOrRef: Schema): Schema {
  const ref = schemaOrRef['$ref'];
  if (typeof ref !== 'string') return schemaOrRef;
  return resolved(document.components.schemas[ref.split('/').at(-1)!]!);
}

/** A value of the documented shape, most of the time; a hostile one otherwise, at any depth. */
function valueOf(schemaOrRef: Schema, depth = 0): fc.Arbitrary<unknown> {
  const shape = resolved(schemaOrRef);
  const alternatives = (shape['anyOf'] ?? shape['oneOf']) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => valueOf(alternative, depth)));
  if (Array.isArray(shape['enum']))
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(shape['enum'] as unknown[])) }, { weight: 1, arbitrary: hostile });
  const types = ([] as unknown[]).concat(shape['type'] ?? 'string');
  const type = types.find((candidate) => candidate !== 'null') ?? 'null';
  const typed = ((): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'integer':
        return fc.integer({ min: Number(shape['minimum'] ?? -10), max: Number(shape['maximum'] ?? 1000) });
      case 'number':
        return fc.double({ noNaN: true, min: -1000, max: 1000 });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return depth > 3 ? fc.constant([]) : fc.array(valueOf((shape['items'] as Schema | undefined) ?? {}, depth + 1), { maxLength: 3 });
      case 'object': {
        const properties = Object.entries((shape['properties'] as Record<string, Schema> | undefined) ?? {});
        if (depth > 3 || properties.length === 0)
          return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
        return fc.record(Object.fromEntries(properties.map(([name, property]) => [name, valueOf(property, depth + 1)])), {
          requiredKeys: [],
        });
      }
      case 'null':
        return fc.constant(null);
      default:
        switch (shape['format']) {
          case 'uuid':
            return fc.oneof(fc.constantFrom(...ids), fc.uuid());
          case 'date-time':
            return fc
              .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
              .map((date) => date.toISOString());
          case 'email':
            return fc.emailAddress();
          case 'uri':
            return fc.constantFrom(PUBLIC_TEST_RECEIVER, 'https://example.com/x');
          default:
            return fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...ids));
        }
    }
  })();
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: hostile });
}

type GeneratedRequest = { operation: Operation; url: string; init: RequestInit };

function requestsOf(path: string, method: string, operation: Operation): fc.Arbitrary<GeneratedRequest> {
  const parameters = operation.parameters ?? [];
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  // An empty segment makes another path (an unknown route or a list), not this operation.
  const segment = fc.oneof(
    fc.constantFrom(...ids),
    fc.uuid(),
    fc.constantFrom(...HOSTILE_STRINGS.filter((value) => value.length > 0 && value.length < 100)),
  );
  return fc
    .record({
      pathValues: fc.tuple(...pathParameters.map(() => segment)),
      query: fc.tuple(...queryParameters.map((parameter) => fc.option(valueOf(parameter.schema), { nil: undefined }))),
      body: bodySchema ? fc.option(valueOf(bodySchema), { nil: undefined }) : fc.constant(undefined),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json',
        'text/plain',
        'multipart/form-data; boundary=x',
      ),
      raw: fc.option(fc.constantFrom('{', '{"a":', '\u0000', 'null', '[]', '"x"'), { nil: undefined, freq: 8 }),
    })
    .map(({ pathValues, query, body, contentType, raw }) => {
      let url = path;
      pathParameters.forEach((parameter, index) => (url = url.replace(`{${parameter.name}}`, encodedSegment(pathValues[index]!))));
      const search = new URLSearchParams();
      queryParameters.forEach((parameter, index) => {
        const value = query[index];
        if (value !== undefined) search.append(parameter.name, typeof value === 'string' ? value : JSON.stringify(value));
      });
      const withBody = method !== 'get' && method !== 'delete';
      const init: RequestInit = { method: method.toUpperCase() };
      if (withBody) {
        init.headers = { 'content-type': contentType };
        init.body = raw ?? JSON.stringify(body ?? {});
      }
      return { operation, url: search.size ? `${url}?${search}` : url, init };
    });
}

/** A lone surrogate cannot be percent-encoded as UTF-8: it is sent as the invalid bytes a raw client would send. */
function encodedSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').startsWith('application/json');
}

describe(`fuzzing (${RUNS} requests per surface, seed ${SEED})`, { timeout: 600_000 }, () => {
  it('gives no REST request a 5xx, and answers each one as the OpenAPI document says', async () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => requestsOf(path, method, operation)),
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.oneof(...operations), async ({ operation, url, init }) => {
        const response = await h.fetch(url, { ...init, key });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(
          response.status,
          `${init.method} ${url}: ${await response
            .clone()
            .text()
            .then((text) => text.slice(0, 300))}`,
        ).toBeLessThan(500);
        if (response.status === 429) return;
        if (isJson(response) || response.status >= 400) await checker.check(operation, response, { orDefault: true });
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // The generated requests reach both the handlers (successes) and the validation (refusals), not only routing.
    const count = (low: number, high: number) =>
      [...statuses].filter(([status]) => status >= low && status < high).reduce((sum, [, n]) => sum + n, 0);
    expect(count(200, 300), JSON.stringify([...statuses])).toBeGreaterThan(RUNS / 10);
    expect(statuses.get(400) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(RUNS / 10);
  });

  it('gives no GraphQL operation a 5xx, and every error a code', async () => {
    const fields = [schema.getQueryType()!, schema.getMutationType()!].flatMap((root) =>
      Object.values(root.getFields()).map((field) => ({ kind: root === schema.getQueryType() ? 'query' : 'mutation', field })),
    );
    const operationOf = ({ kind, field }: { kind: string; field: GraphQLField<unknown, unknown> }) => {
      const declared = field.args.map((argument) => `$${argument.name}: ${argument.type.toString()}`).join(', ');
      const passed = field.args.map((argument) => `${argument.name}: $${argument.name}`).join(', ');
      const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
      const query = `${kind}${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
      return fc
        .record(Object.fromEntries(field.args.map((argument) => [argument.name, variableOf(argument.type, 0)])), { requiredKeys: [] })
        .map((variables) => ({ query, variables }));
    };
    await fc.assert(
      fc.asyncProperty(fc.oneof(...fields.map(operationOf)), async ({ query, variables }) => {
        const response = await h.fetch('/graphql', {
          method: 'POST',
          key,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        });
        const text = await response.text();
        expect(response.status, `${query} ${JSON.stringify(variables).slice(0, 300)}: ${text.slice(0, 300)}`).toBeLessThan(500);
        const body = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[]; error?: { code: string } };
        for (const error of body.errors ?? []) expect(error.extensions?.code, text.slice(0, 300)).toMatch(/^[A-Z_]+$/);
        expect(JSON.stringify(body)).not.toContain('"INTERNAL"');
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

describe(`fuzzing the doors (${Math.ceil(RUNS / 10)} requests each, seed ${SEED})`, { timeout: 600_000 }, () => {
  it('answers any MCP session id with a JSON-RPC 4xx carrying the message id, never a 5xx', async () => {
    const sessionId = fc.oneof(
      fc.string({ minLength: 1, maxLength: 80 }).filter((text) => /^[\x21-\x7e]+$/.test(text)),
      fc.uuid(),
      fc.constantFrom("' OR 1=1 --", '00000000-0000-0000-0000-000000000000', 'x'.repeat(500), '%00', '../../etc/passwd'),
    );
    await fc.assert(
      fc.asyncProperty(sessionId, fc.constantFrom('POST', 'DELETE', 'GET'), fc.integer({ min: 1, max: 1e6 }), async (id, method, rpcId) => {
        const response = await h.fetch('/mcp', {
          method,
          key,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
          ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: rpcId, method: 'tools/list', params: {} }) } : {}),
        });
        const text = await response.text();
        expect([400, 404], `${method} ${id}: ${text.slice(0, 200)}`).toContain(response.status);
        const body = JSON.parse(text) as { error: { code: number; data?: { request_id?: string } }; id: unknown };
        expect(body.error.code).toBeLessThan(0);
        expect(body.error.data?.request_id).toBe(response.headers.get('x-request-id'));
        if (method === 'POST') expect(body.id).toBe(rpcId);
        expect(text).not.toMatch(/at file:|invalid input syntax/);
      }),
      { numRuns: Math.ceil(RUNS / 10), seed: SEED, endOnFailure: true },
    );
  });

  it('refuses aliased and batched sign-in operations on /graphql with a 4xx and no token', async () => {
    const field = fc.constantFrom(
      'signIn(email: "owner@example.com", password: "guess") { token }',
      'setUp(token: "t", workspace_name: "W", name: "N", email: "a@example.com", password: "0123456789") { token }',
      'invitationAccept(token: "t", name: "N", password: "0123456789") { token }',
      'signOut(token: "t")',
    );
    const operation = fc
      .array(field, { minLength: 1, maxLength: 20 })
      .map((fields) => `mutation { ${fields.map((text, index) => `a${index}: ${text}`).join(' ')} }`);
    await fc.assert(
      fc.asyncProperty(operation, fc.boolean(), async (query, batched) => {
        const response = await h.fetch('/graphql', {
          method: 'POST',
          key,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(batched ? [{ query }, { query }] : { query }),
        });
        const text = await response.text();
        expect(response.status, text.slice(0, 200)).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(text).not.toMatch(/"token"\s*:\s*"/);
      }),
      { numRuns: Math.ceil(RUNS / 10), seed: SEED, endOnFailure: true },
    );
  });
});

/** GraphQL variables of the declared type, or hostile ones (which the schema's own checks must refuse with 400). */
function variableOf(type: GraphQLInputType, depth: number): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return variableOf(type.ofType, depth);
  if (isListType(type)) return depth > 2 ? fc.constant([]) : fc.array(variableOf(type.ofType, depth + 1), { maxLength: 3 });
  const named = getNamedType(type);
  if (isEnumType(named)) return fc.constantFrom(...named.getValues().map((value) => value.name));
  if (isInputObjectType(named)) {
    if (depth > 2) return fc.constant({});
    const fields = Object.values(named.getFields());
    return fc.record(Object.fromEntries(fields.map((field) => [field.name, variableOf(field.type, depth + 1)])), { requiredKeys: [] });
  }
  const typed = ((): fc.Arbitrary<unknown> => {
    switch (named.name) {
      case 'ID':
        return fc.oneof(fc.constantFrom(...ids), fc.uuid());
      case 'Int':
        return fc.integer({ min: -5, max: 500 });
      case 'Float':
        return fc.double({ noNaN: true, min: -10, max: 10 });
      case 'Boolean':
        return fc.boolean();
      case 'DateTime':
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
      case 'JSON':
        return fc.jsonValue({ maxDepth: 3 });
      default:
        return fc.string({ maxLength: 30 });
    }
  })();
  return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 1, arbitrary: hostile });
}

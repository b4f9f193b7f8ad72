import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openHarness, type Harness } from '../support/harness.js';
import { GUIDE, seedWorkspace, type Seeded } from './fixtures.js';
import { REST_BASE_PATH, REST_ROUTES, type RestRoute } from '../../facades/rest/routes.js';

type Operation = { operationId: string; responses: Record<string, Described> };
type Described = { headers?: Record<string, { $ref?: string }>; content?: Record<string, unknown> };
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { headers: Record<string, HeaderObject> } };
type HeaderObject = { required?: boolean; schema: object };

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

let h: Harness;
let seed: Seeded;
let document: OpenApi;
let ajv: Ajv2020;
/** A conversation whose contact wrote within the last 24 hours, so free-form sends are allowed. */
let openConversationId: string;

beforeAll(async () => {
  h = await openHarness();
  seed = await seedWorkspace(h);
  const open = await h.db.prisma.conversation.create({
    data: {
      company_id: seed.workspace.workspace_id,
      customer_id: seed.fullContactId,
      integration_id: seed.workspace.integration_id,
      provider: 'sandbox',
      last_message_at: new Date(),
    },
  });
  openConversationId = open.id;
  document = await (await h.fetch('/api/v1/openapi.json')).json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi');
});

/** A JSON pointer into the served document, as a reference ajv can compile. */
function pointer(...parts: string[]): string {
  return `openapi#/${parts.map((part) => encodeURIComponent(part.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')}`;
}

/** Valid and invalid inputs for each route of the table: a route without them fails the coverage test. */
type Sample = { path?: Record<string, string>; query?: string; badQuery?: string; body?: () => unknown; badBody?: unknown; foreign?: Record<string, string> };
const samples = (): Record<string, Sample> => {
  const contact = { path: { id: seed.fullContactId }, foreign: { id: seed.foreignContactId } };
  return {
    listUsers: {},
    listConversations: { query: '?limit=2&status=open', badQuery: '?limit=abc' },
    listContacts: { query: '?limit=1', badQuery: '?cursor=x' },
    searchContacts: { query: '?q=ada', badQuery: '?q=' },
    getContact: contact,
    listCustomers: { query: '?limit=1', badQuery: '?limit=0' },
    searchCustomers: { query: '?q=ada', badQuery: '' },
    getCustomer: contact,
    listTags: {},
    createTag: { body: () => ({ name: `tag ${Math.random()}`, color: '#000000' }), badBody: { name: 5 } },
    listProviderTemplates: { path: { provider: 'sandbox' }, query: '?status=approved', badQuery: '?status=archived' },
    listTemplates: { query: '?status=pending', badQuery: '?status=archived' },
    sendMessage: { body: () => ({ conversation_id: openConversationId, body: 'Your order ships today.' }), badBody: { conversation_id: 'x' } },
  };
};

function urlOf(route: RestRoute, values: Record<string, string> = {}, query = ''): string {
  return `${REST_BASE_PATH}${route.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'x')}${query}`;
}

type Exchange = { route: RestRoute; url: string; init: RequestInit & { key?: string } };

function exchangesOf(route: RestRoute, sample: Sample, keys: { all: string; narrow: string }): Exchange[] {
  const url = urlOf(route, sample.path, sample.query);
  const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const ok = route.method === 'POST' ? json(sample.body?.()) : {};
  const exchanges: Exchange[] = [
    { route, url, init: { ...ok, key: keys.all } },
    { route, url, init: { ...ok } },
    { route, url, init: { ...ok, key: keys.narrow } },
    { route, url, init: { method: 'DELETE', key: keys.all } },
  ];
  if (route.guideKey) exchanges.push({ route, url, init: { key: keys.all, headers: { accept: GUIDE } } });
  if (sample.badQuery !== undefined) {
    exchanges.push({ route, url: urlOf(route, sample.path, sample.badQuery), init: { key: keys.all } });
  }
  if (sample.path) exchanges.push({ route, url: urlOf(route, { id: 'not-a-uuid' }), init: { key: keys.all } });
  if (sample.foreign) exchanges.push({ route, url: urlOf(route, sample.foreign, sample.query), init: { key: keys.all } });
  if (sample.badBody) exchanges.push({ route, url, init: { ...json(sample.badBody), key: keys.all } });
  if (route.method === 'POST') {
    exchanges.push({ route, url, init: { method: 'POST', key: keys.all, headers: { 'content-type': 'text/plain' }, body: 'x' } });
  }
  return exchanges;
}

/** Checks one live response against the operation's documented response; returns what it covered. */
async function checkAgainstDocument(operation: Operation, response: Response): Promise<string> {
  const documented = operation.responses[String(response.status)];
  expect(documented, `${operation.operationId} documents status ${response.status}`).toBeDefined();
  for (const [name, header] of Object.entries(documented!.headers ?? {})) {
    const object = header.$ref ? document.components.headers[header.$ref.split('/').at(-1)!]! : (header as HeaderObject);
    const value = response.headers.get(name);
    if (value === null) {
      expect(object.required, `${operation.operationId} ${response.status} sends header ${name}`).not.toBe(true);
      continue;
    }
    expect(ajv.validate(object.schema, value), `${name}: ${value}`).toBe(true);
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!;
  expect(Object.keys(documented!.content ?? {}), `${operation.operationId} ${response.status} documents ${mediaType}`).toContain(mediaType);
  const path = Object.entries(document.paths).find(([, item]) => Object.values(item).includes(operation))!;
  const method = Object.entries(path[1]).find(([, candidate]) => candidate === operation)![0];
  const validate = ajv.getSchema(pointer('paths', path[0], method, 'responses', String(response.status), 'content', mediaType, 'schema'))!;
  const body = await response.json();
  expect(validate(body), `${operation.operationId} ${response.status} ${JSON.stringify(validate.errors)}`).toBe(true);
  return `${operation.operationId} ${response.status} ${mediaType}`;
}

function documentedResponses(): string[] {
  return Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) =>
      Object.entries(operation.responses)
        .filter(([status]) => status !== 'default')
        .flatMap(([status, response]) => Object.keys(response.content ?? {}).map((type) => `${operation.operationId} ${status} ${type}`)),
    ),
  );
}

describe('the OpenAPI document at /api/v1/openapi.json', () => {
  it('is public, valid OpenAPI 3.1, and identical to the checked-in docs/openapi.json', async () => {
    const response = await h.fetch('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document).toEqual(JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')));
  });

  it('documents every route of the table under its operationId', () => {
    for (const route of REST_ROUTES) {
      expect(document.paths[`${REST_BASE_PATH}${route.path}`]?.[route.method.toLowerCase()]?.operationId).toBe(route.operationId);
    }
  });

  it('every route’s live responses, success and error, validate against it, and every documented response occurs', async () => {
    const keys = { all: seed.key, narrow: await h.key(seed.workspace.workspace_id, ['webhooks']) };
    const byOperationId = samples();
    const covered = new Set<string>();
    for (const route of REST_ROUTES) {
      const sample = byOperationId[route.operationId];
      expect(sample, `test/rest/openapi.test.ts has a sample for ${route.operationId}`).toBeDefined();
      const item = document.paths[`${REST_BASE_PATH}${route.path}`]!;
      for (const exchange of exchangesOf(route, sample!, keys)) {
        const response = await h.fetch(exchange.url, exchange.init);
        // A 405 answers for the path: it must fit what every operation of the path documents.
        const operations = response.status === 405 ? Object.values(item) : [item[route.method.toLowerCase()]!];
        for (const operation of operations) covered.add(await checkAgainstDocument(operation, response.clone()));
      }
    }
    for (const path of ['/health', '/api/v1/openapi.json']) {
      covered.add(await checkAgainstDocument(document.paths[path]!['get']!, await h.fetch(path)));
    }
    // The 503 of /health needs a database that does not answer, which this file does not stage.
    const uncovered = documentedResponses().filter((response) => !covered.has(response) && response !== 'health 503 application/json');
    expect(uncovered).toEqual([]);
  });
});

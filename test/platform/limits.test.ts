// The request limits: body size (413 PAYLOAD_TOO_LARGE), GraphQL depth and cost (VALIDATION_ERROR before any
// resolver runs), the response deadline (503 SERVICE_UNAVAILABLE) and the per-key MCP session cap.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app/createApp.js';
import { createEdge } from '../../app/edge.js';
import { createLogger } from '../../infra/observability/logger.js';
import { loadSettings } from '../../infra/config/settings.js';
import { withResponseDeadline } from '../../infra/transport/responseDeadline.js';
import { useWorkspace } from '../support/workspace.js';

const shop = useWorkspace();

const MAX_BODY_BYTES = loadSettings({}).MAX_BODY_BYTES;

function postGraphQL(body: BodyInit, headers: Record<string, string> = {}) {
  return shop.harness.fetch('/graphql', {
    method: 'POST',
    key: shop.key,
    headers: { 'content-type': 'application/json', ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  });
}

function paddedQuery(totalBytes: number): string {
  const base = JSON.stringify({ query: '{ health { status } }', variables: { pad: '' } });
  return base.replace('"pad":""', `"pad":"${'x'.repeat(totalBytes - base.length)}"`);
}

describe('request body size (MAX_BODY_BYTES, default 2 MiB)', () => {
  it('accepts a body of exactly the limit', async () => {
    const body = paddedQuery(MAX_BODY_BYTES);
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const response = await postGraphQL(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { health: { status: 'ok' } } });
  });

  it('refuses a larger body with 413 PAYLOAD_TOO_LARGE, by its Content-Length, before reading it', async () => {
    const body = paddedQuery(MAX_BODY_BYTES + 1);
    const response = await postGraphQL(body, { 'content-length': String(Buffer.byteLength(body)) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: `The request body is larger than ${MAX_BODY_BYTES} bytes`,
        details: { max_bytes: MAX_BODY_BYTES },
        request_id: response.headers.get('x-request-id'),
      },
    });
  });

  it('refuses a larger body sent without a Content-Length (chunked) as soon as it passes the limit', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await postGraphQL(endless);
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(sent).toBeLessThan(MAX_BODY_BYTES * 2);
  });

  it('hands a chunked body within the limit on to the application unchanged', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ query: '{ health { status } }' }));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const response = await postGraphQL(stream);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { health: { status: 'ok' } } });
  });
});

describe('GraphQL depth and cost limits', () => {
  it('refuses a document deeper than GRAPHQL_MAX_DEPTH with VALIDATION_ERROR, naming the limit', async () => {
    const edge = createEdge(loadSettings({ GRAPHQL_MAX_DEPTH: '2' }), { logger: createLogger('silent') });
    const app = createApp(shop.harness.services, {
      graphiql: false,
      logger: createLogger('silent'),
      edge,
      sessionStore: shop.harness.sessionStore(),
    });
    const ask = (query: string) =>
      app.yoga.fetch('http://service.test/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${shop.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
    expect(await (await ask('{ health { status } }')).json()).toEqual({ data: { health: { status: 'ok' } } });
    const refused = await ask('{ conversations { data { customer { name } } } }');
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].message).toBe('Query depth limit of 2 exceeded, found 4.');
    expect(body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('refuses a document costlier than GRAPHQL_MAX_COST (default 1000) with VALIDATION_ERROR', async () => {
    const fields = Array.from({ length: 150 }, (_, index) => `a${index}: conversations { data { id status } }`).join(' ');
    const response = await postGraphQL(JSON.stringify({ query: `{ ${fields} }` }));
    // The README's 4xx, for application/json clients too (GraphQL-over-HTTP would answer them 200).
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.data).toBeUndefined();
    expect(body.errors[0].message).toMatch(/^Query Cost limit of 1000 exceeded, found \d+\.$/);
    expect(body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('accepts the schema introspection GraphiQL sends, however deep', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const body = await (await postGraphQL(JSON.stringify({ query: getIntrospectionQuery() }))).json();
    expect(body.errors).toBeUndefined();
    expect(body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('response deadline (REQUEST_TIMEOUT_MS)', () => {
  it('answers 503 SERVICE_UNAVAILABLE with the error object when the application has not answered in time', async () => {
    const neverAnswers = () => new Promise<Response>(() => undefined);
    const response = await withResponseDeadline(neverAnswers, 50)(new Request('https://service.test/graphql'), {});
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The service did not answer within 50 ms; try again',
        request_id: response.headers.get('x-request-id'),
      },
    });
  });

  it('passes an answer given in time through untouched', async () => {
    const answers = () => new Response('{"ok":true}', { status: 201 });
    const response = await withResponseDeadline(answers, 1000)(new Request('https://service.test/'), {});
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('{"ok":true}');
  });
});

describe('MCP sessions per key (MCP_MAX_SESSIONS_PER_KEY, default 5)', () => {
  it('keeps at most the setting per key: a session beyond it replaces the least recently used one', async () => {
    expect(loadSettings({}).MCP_MAX_SESSIONS_PER_KEY).toBe(5);
    const edge = createEdge(loadSettings({ MCP_MAX_SESSIONS_PER_KEY: '2' }), { logger: createLogger('silent') });
    const app = createApp(shop.harness.services, {
      graphiql: false,
      logger: createLogger('silent'),
      edge,
      sessionStore: shop.harness.sessionStore(),
    });
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limits test', version: '1' } },
    });
    const open = () =>
      app.yoga.fetch('http://service.test/mcp', {
        method: 'POST',
        headers: { authorization: `Bearer ${shop.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: initialize,
      });
    for (let session = 0; session < 3; session += 1) {
      const response = await open();
      expect(response.status).toBe(200);
      await response.body?.cancel();
      expect(await app.mcpSessions.count()).toBe(Math.min(session + 1, 2));
    }
    await app.mcpSessions.closeAll();
  });
});

// Request logs and metrics as the pipeline writes them: one JSON line per request with request id,
// workspace id and key prefix and never a key, secret or body; Prometheus counters and latency by route
// (ids folded into :id, distinct routes capped). The webhook metrics are tested with a real worker in
// test/webhooks/metrics.test.ts.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app/createApp.js';
import { createLogger } from '../../infra/observability/logger.js';
import { metricsRegistry } from '../../infra/observability/metrics.js';
import { createRouteLabels } from '../../infra/observability/requestTelemetry.js';
import { openHarness } from '../support/harness.js';

const harness = await openHarness();
let captured = '';
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    captured += chunk.toString();
    done();
  },
});
// The service's own logger, written to a buffer instead of stdout.
const app = createApp(harness.services, { graphiql: false, logger: createLogger('info', sink), sessionStore: harness.sessionStore() });

function send(path: string, init: RequestInit & { key?: string }) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  return app.yoga.fetch(`http://service.test${path}`, { ...init, headers });
}

function lines(): Record<string, unknown>[] {
  return captured
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('request logs', () => {
  it('write one line per request with request id, workspace id, key prefix, route, status and duration', async () => {
    const { api_key, workspace_id } = await harness.workspace();
    const response = await send('/graphql', {
      method: 'POST',
      key: api_key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ users { email } }' }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    const line = lines().find((entry) => entry['request_id'] === requestId);
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      service: 'messaging-crm',
      msg: 'request',
      request_id: requestId,
      method: 'POST',
      path: '/graphql',
      route: '/graphql',
      status: 200,
      duration_ms: expect.any(Number),
      workspace_id,
      key_prefix: api_key.slice(0, 13),
    });
  });

  it('never contain the API key, a message body, a query string or a rejected key', async () => {
    const { api_key } = await harness.workspace();
    const messageBody = 'Hello Maria, your order 4711 ships tomorrow';
    const searchTerm = 'maria.private@example.com';
    await send('/graphql', {
      method: 'POST',
      key: api_key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation ($name: String!) { tagCreate(name: $name) { id } }', variables: { name: messageBody } }),
    });
    await send(`/api/v1/contacts/search?q=${encodeURIComponent(searchTerm)}`, { key: api_key });
    const wrongKey = 'mcrm_AAAAAAAAwrong-key-that-is-long-enough';
    await send('/graphql', { method: 'POST', key: wrongKey, body: '{}' });
    // A body that fails to parse is not echoed into the logs either.
    await send('/graphql', {
      method: 'POST',
      key: api_key,
      headers: { 'content-type': 'application/json' },
      body: `{"query": "${messageBody}"`,
    });

    expect(lines().filter((entry) => entry['msg'] === 'request').length).toBeGreaterThanOrEqual(4);
    for (const secret of [api_key, wrongKey, messageBody, searchTerm, encodeURIComponent(searchTerm)]) {
      expect(captured).not.toContain(secret);
    }
  });
});

describe('metrics', () => {
  it('count requests by method, route and status and observe their latency', async () => {
    await send('/health', { method: 'GET' });
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/health",status="200"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} [1-9]/);
  });

  it('fold ids in paths into :id and cap the number of distinct routes', () => {
    const routes = createRouteLabels(3);
    expect(routes.of('/api/v1/contacts/0192f5a4-7c1e-7b2a-9d3e-1a2b3c4d5e6f')).toBe('/api/v1/contacts/:id');
    expect(routes.of('/api/v1/contacts/0192f5a4-0000-7b2a-9d3e-1a2b3c4d5e6f')).toBe('/api/v1/contacts/:id');
    expect(routes.of('/api/v1/contacts/search')).toBe('/api/v1/contacts/search');
    expect(routes.of('/webhooks/whatsapp/123456789')).toBe('/webhooks/whatsapp/:id');
    expect(routes.of('/some/scanner/path')).toBe('other');
    expect(routes.of('/api/v1/contacts/search')).toBe('/api/v1/contacts/search');
  });
});

// The per-key rate limit as clients meet it through the app (yoga.fetch): 100 requests per minute per API
// key by default, one budget across GraphQL, REST (/api/…) and MCP (/mcp…), draft RateLimit headers on
// every authenticated response, and the 101st request answered 429 with Retry-After and the spec's error.
// A person signed in to the console counts per session, 600 a minute, apart from their keys.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app/createApp.js';
import { createEdge } from '../../app/edge.js';
import { createLogger } from '../../infra/observability/logger.js';
import { loadSettings } from '../../infra/config/settings.js';
import { openHarness } from '../support/harness.js';
import { asPerson, ownerSession } from '../support/people.js';
import { expectRateLimited } from '../support/restFixtures.js';

const harness = await openHarness();

const healthQuery = JSON.stringify({ query: '{ health { status } }' });

function call(key: string, surface: 'graphql' | 'rest' | 'mcp') {
  if (surface === 'graphql') {
    return harness.fetch('/graphql', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: healthQuery });
  }
  return harness.fetch(surface === 'rest' ? '/api/v1/users' : '/mcp', { key });
}

describe('rate limit per API key (default 100 per minute)', () => {
  it('shares one budget of 100 across GraphQL, REST and MCP; the 101st request gets 429 RATE_LIMITED', async () => {
    const { api_key } = await harness.workspace();
    const surfaces = ['graphql', 'rest', 'mcp'] as const;
    const remaining: string[] = [];
    for (let index = 0; index < 100; index++) {
      const response = await call(api_key, surfaces[index % 3]!);
      expect(response.status).not.toBe(429);
      expect(response.headers.get('ratelimit-policy')).toBe('"perkey";q=100;w=60');
      remaining.push(response.headers.get('ratelimit') ?? '');
      await response.body?.cancel();
    }
    expect(remaining[0]).toMatch(/^"perkey";r=99;t=(60|59)$/);
    expect(remaining[99]).toMatch(/^"perkey";r=0;t=\d+$/);

    const refused = await call(api_key, 'rest');
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60).toBe(true);
    expect(refused.headers.get('ratelimit')).toBe(`"perkey";r=0;t=${seconds}`);
    const body = await refused.json();
    expect(body).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: `Rate limit of 100 requests per 60 seconds exceeded for this API key; retry in ${seconds} seconds`,
        details: { retry_after_seconds: seconds, limit: 100, window_seconds: 60 },
        request_id: refused.headers.get('x-request-id'),
      },
    });
    // GraphQL is refused the same way, before execution.
    expect((await call(api_key, 'graphql')).status).toBe(429);
  });

  it('counts each key on its own', async () => {
    const { api_key, workspace_id } = await harness.workspace();
    for (let index = 0; index < 100; index++) await (await call(api_key, 'graphql')).body?.cancel();
    expect((await call(api_key, 'graphql')).status).toBe(429);
    const other = await harness.key(workspace_id, ['users']);
    const response = await call(other, 'graphql');
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toMatch(/^"perkey";r=99;/);
  });

  it('adds no rate-limit headers to unauthenticated requests and does not count them', async () => {
    const health = await harness.fetch('/health');
    expect(health.headers.get('ratelimit')).toBeNull();
    const unauthorized = await harness.fetch('/graphql', { method: 'POST', key: 'mcrm_not-a-real-key-at-all', body: healthQuery });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('ratelimit')).toBeNull();
  });
});

describe('RATE_LIMIT_PER_MINUTE', () => {
  it('sets the budget', async () => {
    const edge = createEdge(loadSettings({ RATE_LIMIT_PER_MINUTE: '3' }), { logger: createLogger('silent') });
    const app = createApp(harness.services, {
      graphiql: false,
      logger: createLogger('silent'),
      edge,
      sessionStore: harness.sessionStore(),
    });
    const { api_key } = await harness.workspace();
    const statuses = [];
    for (let index = 0; index < 4; index++) {
      const response = await app.yoga.fetch('http://service.test/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
        body: healthQuery,
      });
      statuses.push(response.status);
      if (index === 0) expect(response.headers.get('ratelimit-policy')).toBe('"perkey";q=3;w=60');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('rate limit per console session (default 600 per minute)', () => {
  it('gives a signed-in person a budget of 600 apart from their keys; the 601st request gets 429 naming the session', async () => {
    const workspace = await harness.workspace();
    const person = await ownerSession(harness, workspace);
    // The owner's key spends its whole budget; the session is not touched by it.
    for (let index = 0; index < 100; index++) await (await call(workspace.api_key, 'graphql')).body?.cancel();
    expect((await call(workspace.api_key, 'graphql')).status).toBe(429);

    const asConsole = () =>
      harness.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: person.cookie, 'x-csrf-token': person.csrf },
        body: healthQuery,
      });
    const first = await asConsole();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"persession";q=600;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"persession";r=599;t=(60|59)$/);
    for (let index = 1; index < 600; index++) {
      const response = await asConsole();
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    await expectRateLimited(await asConsole(), 600, 'this console session');
    // Another session of the same person has its own budget.
    const again = await ownerSession(harness, workspace);
    expect((await asPerson(harness, again, '{ health { status } }')).status).toBe(200);
  });
});

// GET /health: unauthenticated, the spec's Health object, and 503 when the database does not answer.
import { describe, expect, it } from 'vitest';
import { openHarness, openTestDatabase } from '../support/harness.js';
import { createApp } from '../../app/createApp.js';
import { createLogger } from '../../infra/observability/logger.js';

const harness = await openHarness();

describe('GET /health', () => {
  it('answers 200 {status: ok, service, version} without an API key, with a request id', async () => {
    const response = await harness.fetch('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', service: 'messaging-crm', version: '0.1.0' });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers 503 with status unavailable when the database does not answer', async () => {
    const db = await openTestDatabase();
    const { yoga } = createApp(
      { ...harness.services, prisma: db.prisma },
      { graphiql: false, logger: createLogger('silent'), sessionStore: harness.sessionStore() },
    );
    await db.close();
    const response = await yoga.fetch('http://service.test/health');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable', service: 'messaging-crm', version: '0.1.0' });
  });

  it('keeps a liveness probe at /livez that does not touch the database', async () => {
    expect((await harness.fetch('/livez')).status).toBe(200);
  });
});

describe('unknown routes', () => {
  it('answers 404 with the spec error object', async () => {
    const response = await harness.fetch('/nowhere');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'No route GET /nowhere' } });
  });

  it('masks unexpected errors: no stack trace, SQL or internal message reaches the client', async () => {
    const ws = await harness.workspace();
    const broken = createApp(
      {
        ...harness.services,
        prisma: new Proxy(harness.services.prisma, {
          get: (target, property) =>
            property === 'user'
              ? { findMany: () => Promise.reject(new Error('relation "users" SELECT secret')) }
              : Reflect.get(target, property),
        }),
      },
      { graphiql: false, logger: createLogger('silent'), sessionStore: harness.sessionStore() },
    );
    const response = await broken.yoga.fetch('http://service.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ws.api_key}` },
      body: JSON.stringify({ query: '{ users { id } }' }),
    });
    const text = await response.text();
    // The field fails, the answer has data (users: null): 200 with the masked error (infra/graphql/partialAnswers.ts).
    expect(response.status).toBe(200);
    expect(text).not.toMatch(/SELECT|secret|stack|at /);
    expect(JSON.parse(text).errors[0]).toMatchObject({ message: 'Unexpected server error', extensions: { code: 'INTERNAL' } });
  });
});

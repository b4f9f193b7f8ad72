// No cross-origin credentials (issue 34 point 2), over HTTP: nothing a cookie authenticates is shared with another
// origin (no Access-Control-Allow-* on /auth or on cookie requests, never Allow-Credentials, X-CSRF-Token not
// allowed cross-origin); a cookie request that a browser marks as cross-origin (Origin, Sec-Fetch-Site) is refused
// before it runs, so /auth/session never answers another origin its CSRF token; GraphQL over GET with a cookie
// runs only with the CSRF token. Key requests keep their CORS answer, without credentials.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { ORIGIN, ownerSession } from '../support/people.js';

const harness = await openHarness();
const acme = await harness.workspace('Acme');
const owner = await ownerSession(harness, acme);
const ATTACKER = 'http://service.test:8443';

const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith('access-control-allow'));

describe('cookie requests from another origin', () => {
  it.each([
    ['an Origin of another port', { origin: ATTACKER }],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('/auth/session refuses %s and answers no CSRF token or CORS header', async (_case, headers) => {
    const response = await harness.fetch('/auth/session', { headers: { cookie: owner.cookie, ...headers } });
    expect(response.status).toBe(403);
    expect(corsHeaders(response)).toEqual([]);
    const text = await response.text();
    expect(text).not.toContain(owner.csrf);
    expect(JSON.parse(text).error.code).toBe('FORBIDDEN');
  });

  it('answers the session to this origin and to clients that say nothing of where they come from', async () => {
    const sameOrigin: Record<string, string> = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };
    for (const headers of [sameOrigin, {}]) {
      const response = await harness.fetch('/auth/session', { headers: { cookie: owner.cookie, ...headers } });
      expect(response.status).toBe(200);
      expect((await response.json()).csrf_token).toBe(owner.csrf);
    }
  });

  it('refuses a cross-origin GraphQL write even with the right CSRF token, and runs nothing', async () => {
    const before = await harness.db.prisma.invitation.count({ where: { company_id: acme.workspace_id } });
    const response = await harness.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookie, 'x-csrf-token': owner.csrf, origin: ATTACKER },
      body: JSON.stringify({ query: 'mutation { userInvite(email: "mallory@example.com", role: "owner") { url } }' }),
    });
    expect(response.status).toBe(403);
    expect(corsHeaders(response)).toEqual([]);
    expect(await harness.db.prisma.invitation.count({ where: { company_id: acme.workspace_id } })).toBe(before);
  });

  it('runs GraphQL over GET with a cookie only with the CSRF token', async () => {
    const path = `/graphql?query=${encodeURIComponent('{ viewer { via } }')}`;
    const without = await harness.fetch(path, { headers: { cookie: owner.cookie, accept: 'application/json' } });
    expect(without.status).toBe(403);
    expect((await without.json()).error.code).toBe('FORBIDDEN');
    const withToken = await harness.fetch(path, {
      headers: { cookie: owner.cookie, accept: 'application/json', 'x-csrf-token': owner.csrf },
    });
    expect(await withToken.json()).toEqual({ data: { viewer: { via: 'session' } } });
  });

  it('refuses /auth writes another site marks as same-site, though they name no Origin', async () => {
    const response = await harness.fetch('/auth/sign-out', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookie, 'sec-fetch-site': 'same-site' },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect((await harness.fetch('/auth/session', { headers: { cookie: owner.cookie } })).status).toBe(200);
  });
});

describe('CORS answers', () => {
  it('grants nothing on /auth, preflight included', async () => {
    const preflight = await harness.fetch('/auth/sign-in', {
      method: 'OPTIONS',
      headers: { origin: ATTACKER, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(corsHeaders(preflight)).toEqual([]);
  });

  it('lets another origin send a key to /graphql, without credentials and without X-CSRF-Token', async () => {
    const preflight = await harness.fetch('/graphql', {
      method: 'OPTIONS',
      headers: {
        origin: ATTACKER,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, x-csrf-token',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ATTACKER);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(preflight.headers.get('access-control-allow-headers')).not.toContain('x-csrf-token');
    const withKey = await harness.fetch('/graphql', {
      method: 'POST',
      key: acme.api_key,
      headers: { 'content-type': 'application/json', origin: ATTACKER },
      body: JSON.stringify({ query: '{ viewer { via } }' }),
    });
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get('access-control-allow-origin')).toBe(ATTACKER);
    expect(withKey.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

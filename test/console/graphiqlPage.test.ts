// GraphiQL's page at GET /graphql, built once (scripts/build.mjs, dist/console/graphiql.html) and filled per
// answer: a fresh nonce that the Content-Security-Policy names and both inline elements carry, and the headers
// GraphiQL sends (the session's CSRF token for a signed-in person, nothing for anyone else), with no slot left.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { ownerSession } from '../support/people.js';

const harness = await openHarness({ graphiql: true });

async function graphiql(headers: Record<string, string> = {}) {
  const response = await harness.fetch('/graphql', { headers: { accept: 'text/html', ...headers } });
  expect(response.status).toBe(200);
  const html = await response.text();
  const nonce = /script-src 'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  return { response, html, nonce };
}

describe('GraphiQL page', () => {
  it('fills a fresh nonce for each answer into the policy, the style and the script, and leaves no slot', async () => {
    const first = await graphiql();
    const second = await graphiql();
    expect(first.nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(second.nonce).not.toBe(first.nonce);
    expect(first.html).toContain(`<style nonce="${first.nonce}">`);
    expect(first.html).toContain(`<script nonce="${first.nonce}">`);
    expect(first.html).not.toMatch(/__GRAPHIQL_/);
    expect(first.response.headers.get('cache-control')).toBe('no-store');
    expect(first.html).toContain('"additionalHeaders":{}');
  });

  it("gives a signed-in person's page their session's CSRF token, so GraphiQL works with the session cookie", async () => {
    const workspace = await harness.workspace();
    const owner = await ownerSession(harness, workspace);
    const page = await graphiql({ cookie: owner.cookie });
    expect(page.html).toContain(`"additionalHeaders":{"x-csrf-token":"${owner.csrf}"}`);
  });
});

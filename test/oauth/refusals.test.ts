// What the authorization server refuses, each door tried: a redirect_uri the client did not register (shown, never
// followed), a request without PKCE S256 or for another resource (sent back as an OAuth error), a code replayed or
// exchanged with the wrong verifier or redirect_uri, more scopes than the person's role allows, a token for another
// resource (the audience is checked at every request), an expired token, a removed person's token and a demoted
// person's scopes (at once, like keys), the endpoints' fields run with a key or a session instead of through their
// routes, a registration with a redirect URI that is neither https nor loopback, a metadata document on an internal
// address (the SSRF guard), registration past the per-address rate limit, and a session's GET stream kept to its
// grant (another grant's token finds no session; revoking the grant ends the stream).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { openHarness, startHarness, type Harness } from '../support/harness.js';
import { asPerson, invitePerson, ownerSession, type Browser } from '../support/people.js';
import { REDIRECT_URL } from '../support/oauthClient.js';
import type { CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';

let base = 'https://crm.example.test';
const h = await openHarness({ publicBaseUrl: () => base });
const workspace: CreatedWorkspace = await h.workspace();
const owner = await ownerSession(h, workspace);

const APPROVE =
  'mutation($request: OAuthAuthorizationRequest!, $scopes: [String!]!) { oauthApprove(request: $request, scopes: $scopes) { redirect_to } }';

function form(path: string, body: Record<string, string>, target: Harness = h) {
  return target.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
}

async function register(target: Harness = h, redirectUris = [REDIRECT_URL]) {
  return target.fetch('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Refusal test client', redirect_uris: redirectUris, token_endpoint_auth_method: 'none' }),
  });
}

const clientId: string = (await (await register()).json()).client_id;

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizationRequest(challenge: string, extra: Record<string, string> = {}) {
  return {
    response_type: 'code',
    client_id: extra['client_id'] ?? clientId,
    redirect_uri: REDIRECT_URL,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${base}/mcp`,
    state: 'st4te',
    ...extra,
  };
}

/** The person approves on the consent page (its GraphQL call), and the client gets the code. */
async function codeFor(person: Browser, scopes = ['conversations'], target = h, client = clientId) {
  const { verifier, challenge } = pkce();
  const approved = await asPerson(target, person, APPROVE, { request: authorizationRequest(challenge, { client_id: client }), scopes });
  expect(approved.body.errors ?? []).toEqual([]);
  const redirect = new URL(approved.body.data.oauthApprove.redirect_to);
  expect(redirect.searchParams.get('state')).toBe('st4te');
  return { code: redirect.searchParams.get('code')!, verifier };
}

async function tokensFor(person: Browser, scopes?: string[], target = h, client = clientId) {
  const { code, verifier } = await codeFor(person, scopes, target, client);
  const response = await form(
    '/oauth/token',
    { grant_type: 'authorization_code', client_id: client, code, code_verifier: verifier, redirect_uri: REDIRECT_URL },
    target,
  );
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token: string; scope: string };
}

/** An MCP initialize with the token: 200 when it opens the server. */
function mcpCall(token: string, target = h) {
  return target.fetch('/mcp', {
    method: 'POST',
    key: token,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

describe('the authorization endpoint', () => {
  it('shows an unregistered redirect_uri instead of redirecting to it', async () => {
    const query = new URLSearchParams(authorizationRequest(pkce().challenge, { redirect_uri: 'https://attacker.example/steal' }));
    const response = await h.fetch(`/oauth/authorize?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect((await response.json()).error.message).toMatch(/redirect_uri is not one this client registered/);
  });

  it('sends the person to the consent page with a valid request', async () => {
    const query = new URLSearchParams(authorizationRequest(pkce().challenge));
    const response = await h.fetch(`/oauth/authorize?${query}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/oauth/consent?${query}`);
  });

  it('sends a request without PKCE S256, or for another resource, back to the client as an OAuth error', async () => {
    const plain = new URLSearchParams(authorizationRequest(pkce().challenge, { code_challenge_method: 'plain' }));
    const back = new URL((await h.fetch(`/oauth/authorize?${plain}`)).headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT_URL);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('st4te');
    const other = new URLSearchParams(authorizationRequest(pkce().challenge, { resource: 'https://other.example/mcp' }));
    const target = new URL((await h.fetch(`/oauth/authorize?${other}`)).headers.get('location')!);
    expect(target.searchParams.get('error')).toBe('invalid_target');
  });
});

describe('the token endpoint', () => {
  it('refuses a wrong verifier, a wrong redirect_uri, and a replayed code (which revokes what the code gave)', async () => {
    const first = await codeFor(owner);
    const wrongVerifier = await form('/oauth/token', {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: first.code,
      code_verifier: pkce().verifier,
      redirect_uri: REDIRECT_URL,
    });
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: 'invalid_grant' });
    const wrongRedirect = await form('/oauth/token', {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: first.code,
      code_verifier: first.verifier,
      redirect_uri: 'http://127.0.0.1:9/other',
    });
    expect(await wrongRedirect.json()).toMatchObject({ error: 'invalid_grant' });

    const exchange = {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: first.code,
      code_verifier: first.verifier,
      redirect_uri: REDIRECT_URL,
    };
    const tokens = await (await form('/oauth/token', exchange)).json();
    const replay = await form('/oauth/token', exchange);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    const refreshed = await form('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token });
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an unknown grant type in OAuth’s error form', async () => {
    const response = await form('/oauth/token', { grant_type: 'client_credentials', client_id: clientId });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });
});

describe('tokens on /mcp', () => {
  it('refuses a token whose audience is not this MCP server', async () => {
    const tokens = await tokensFor(owner);
    base = 'https://renamed.example.test';
    try {
      expect((await mcpCall(tokens.access_token)).status).toBe(401);
    } finally {
      base = 'https://crm.example.test';
    }
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
  });

  it('follows the person: a member cannot grant more than their role, a demoted person’s token loses the scope, a removed one’s stops', async () => {
    const admin = await invitePerson(h, owner, `admin.${Date.now()}@example.com`, 'admin');
    const { challenge } = pkce();
    const member = await invitePerson(h, owner, `member.${Date.now()}@example.com`, 'member');
    const tooMuch = await asPerson(h, member, APPROVE, { request: authorizationRequest(challenge), scopes: ['webhooks'] });
    expect(tooMuch.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(tooMuch.body.errors[0].message).toMatch(/role \(member\) does not allow them: webhooks/);

    const tokens = await tokensFor(admin, ['conversations', 'webhooks']);
    const sessionId = (await mcpCall(tokens.access_token)).headers.get('mcp-session-id')!;
    const callTool = () =>
      h.fetch('/mcp', {
        method: 'POST',
        key: tokens.access_token,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'webhooks_list', arguments: {} } }),
      });
    const allowed = await (await callTool()).json();
    expect(allowed.result.isError).toBeFalsy();

    const adminId = admin.body['user'].id as string;
    await asPerson(h, owner, 'mutation($id: ID!) { userRoleUpdate(id: $id, role: "member") { id } }', { id: adminId });
    const demoted = await (await callTool()).json();
    expect(demoted.result.isError).toBe(true);
    expect(JSON.stringify(demoted.result.structuredContent ?? demoted.result.content)).toContain('INSUFFICIENT_SCOPE');

    await asPerson(h, owner, 'mutation($id: ID!) { userRemove(id: $id) { id } }', { id: adminId });
    expect((await callTool()).status).toBe(401);
  });
});

describe("a session's GET /mcp stream opened with a token", () => {
  it("is the grant's only: another grant's token gets 404, and revoking the grant ends the stream at once", async () => {
    const { access_token: token } = await tokensFor(owner);
    const sessionId = (await mcpCall(token)).headers.get('mcp-session-id')!;
    const stream = (key: string) =>
      h.fetch('/mcp', { key, headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } });

    const { access_token: otherGrant } = await tokensFor(owner);
    expect((await stream(otherGrant)).status).toBe(404);
    const held = await stream(token);
    expect(held.status).toBe(200);
    const reader = held.body!.getReader();
    await reader.read();
    const revoked = await form('/oauth/revoke', { token, client_id: clientId });
    expect(revoked.status).toBe(200);
    const revokedAt = Date.now();
    while (!(await reader.read()).done);
    // Heard through the revocation's notice, not at the next sweep (every 30 s).
    expect(Date.now() - revokedAt).toBeLessThan(10_000);
  });
});

describe('the other doors', () => {
  it('runs the endpoints’ fields only through their routes, and consent and connected apps only for a signed-in person', async () => {
    const viaKey = await h.graphql(workspace.api_key, 'mutation { oauthRevoke(token: "x") }');
    expect(viaKey.body.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const viaSession = await asPerson(
      h,
      owner,
      'mutation { oauthToken(grant_type: "refresh_token", client_id: "x", refresh_token: "y") { access_token } }',
    );
    expect(viaSession.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const consentByKey = await h.graphql(workspace.api_key, APPROVE, {
      request: authorizationRequest(pkce().challenge),
      scopes: ['conversations'],
    });
    expect(consentByKey.body.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const appsByKey = await h.graphql(workspace.api_key, '{ connectedApps { id } }');
    expect(appsByKey.body.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
  });

  it('refuses a registration whose redirect URI is plain http to another host', async () => {
    const response = await register(h, ['http://assistant.example/callback']);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });
});

describe('with production defaults, a one-second access token and six key-less requests a minute', () => {
  let strict: Harness;
  beforeAll(async () => {
    strict = await startHarness({ rateLimitPerMinute: 6, oauth: { accessTokenSeconds: 1 } });
  });
  afterAll(() => strict?.close());

  it('reads no metadata document on an internal address (the SSRF guard)', async () => {
    const query = new URLSearchParams({ ...authorizationRequest(pkce().challenge), client_id: 'https://127.0.0.1:8443/client.json' });
    const response = await strict.fetch(`/oauth/authorize?${query}`);
    expect(response.status).toBe(401);
    expect((await response.json()).error.message).toMatch(/metadata document could not be read \(refused/);
  });

  it('refuses an expired token with invalid_token', async () => {
    const other = await strict.workspace();
    const person = await ownerSession(strict, other);
    const client = (await (await register(strict)).json()).client_id;
    const tokens = await tokensFor(person, ['conversations'], strict, client);
    expect((await mcpCall(tokens.access_token, strict)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const response = await mcpCall(tokens.access_token, strict);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"$/);
  });

  it('limits registrations per client address', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt += 1) statuses.push((await register(strict)).status);
    expect(statuses).toContain(429);
  });
});

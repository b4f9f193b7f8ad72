// OAuth for MCP as hosted AI assistants do it, with the MCP SDK client's own OAuth support over real HTTP: a 401
// from /mcp names the protected resource metadata, the client discovers the authorization server, registers (by a
// Client ID Metadata Document served over HTTPS, and by Dynamic Client Registration), the person signs in and
// consents in Chromium on the console's page (seeing the app's name and where it goes back), the code is exchanged
// with PKCE, and the token lists tools and reads a conversation resource. Then: the refresh token rotates, a reused
// one revokes the family, revocation ends the token, Connected apps shows and disconnects the app, and REST and
// GraphQL refuse the token; Settings → Connected apps in Chromium disconnects an app and its token stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { openHarness } from '../support/harness.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { ownerSession, asPerson, PASSWORD, type Browser as PersonSession } from '../support/people.js';
import { seedConversation } from '../support/conversations.js';
import { LOCAL_RECEIVER_HOSTS, testCertificate } from '../support/webhookReceiver.js';
import { consentInChromium, MemoryOAuthProvider, serveClientDocument } from '../support/oauthClient.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import type { CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';

let origin = 'http://unset.invalid';
const h = await openHarness({
  publicBaseUrl: () => origin,
  webhookTargets: createTargetGuard({ allowedHosts: LOCAL_RECEIVER_HOSTS }),
  oauth: { extraCa: [(await testCertificate()).cert] },
});
let session: BrowserSession;
let workspace: CreatedWorkspace;
let owner: PersonSession;
let ownerEmail: string;
let conversationId: string;

beforeAll(async () => {
  session = await openBrowserOn(h);
  origin = session.origin;
  workspace = await h.workspace();
  owner = await ownerSession(h, workspace);
  ownerEmail = owner.body['user'].email;
  const customer = await h.db.prisma.customer.create({ data: { company_id: workspace.workspace_id, name: 'Ada Lovelace' } });
  conversationId = (await seedConversation(h.db.prisma, workspace, customer.id, { messages: ['Is my order on its way?'] })).id;
});
afterAll(() => session?.close());

/** Runs the SDK's whole flow: the 401, discovery, registration, consent in Chromium, the code exchange. */
async function connectByOAuth(provider: MemoryOAuthProvider): Promise<{ client: Client; shown: string }> {
  const url = new URL(`${origin}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: 'assistant', version: '1.0.0' }).connect(first)).rejects.toThrow(UnauthorizedError);
  expect(provider.authorizationUrl?.origin).toBe(origin);
  const { params, shown } = await consentInChromium(session.browser, provider.authorizationUrl!, { email: ownerEmail, password: PASSWORD });
  expect(params.get('iss')).toBe(origin);
  await first.finishAuth(params.get('code')!);
  const client = new Client({ name: 'assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, shown };
}

const tokenRequest = (body: Record<string, string>) =>
  h.fetch('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });

describe('an AI assistant connecting by OAuth', () => {
  it('answers 401 on /mcp with where the protected resource metadata is, and serves both metadata documents', async () => {
    const response = await h.fetch('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      new RegExp(`^Bearer resource_metadata="${origin}/\\.well-known/oauth-protected-resource/mcp", scope="conversations `),
    );
    expect((await response.json()).error.code).toBe('UNAUTHORIZED');
    const resource = await (await h.fetch('/.well-known/oauth-protected-resource/mcp')).json();
    expect(resource).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin], bearer_methods_supported: ['header'] });
    expect(resource.scopes_supported).toContain('conversations');
    expect(await (await h.fetch('/.well-known/oauth-protected-resource')).json()).toEqual(resource);
    const server = await (await h.fetch('/.well-known/oauth-authorization-server')).json();
    expect(server).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      revocation_endpoint: `${origin}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
    });
    expect(await (await h.fetch('/.well-known/openid-configuration')).json()).toEqual(server);
  });

  it('registers by its Client ID Metadata Document, gets consent in the console, lists tools and reads a conversation', async () => {
    const document = await serveClientDocument('Metadata Assistant');
    try {
      const provider = new MemoryOAuthProvider('Metadata Assistant', document.url);
      const { client, shown } = await connectByOAuth(provider);
      expect(provider.clientInformation()?.client_id).toBe(document.url);
      expect(shown).toContain('Metadata Assistant');
      expect(shown).toContain('127.0.0.1:9');
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(50);
      const read = await client.readResource({ uri: `crm://conversations/${conversationId}` });
      expect(JSON.stringify(read.contents)).toContain('Is my order on its way?');
      await client.close();
      // Read once for the consent page and the token exchange: remembered, not fetched per request.
      expect(document.fetches()).toBe(1);
    } finally {
      await document.close();
    }
  });

  it('registers by Dynamic Client Registration; the refresh token rotates, and a reused one revokes the family', async () => {
    const provider = new MemoryOAuthProvider('Registered Assistant');
    const { client } = await connectByOAuth(provider);
    const info = provider.clientInformation()!;
    expect(info.client_id).toMatch(/^mcpc_/);
    expect((await client.listTools()).tools.length).toBeGreaterThan(50);
    await client.close();

    const first = provider.tokens()!;
    const rotated = await tokenRequest({ grant_type: 'refresh_token', client_id: info.client_id, refresh_token: first.refresh_token! });
    expect(rotated.status).toBe(200);
    const second = await rotated.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.expires_in).toBe(3600);
    const mcpWith = (token: string) =>
      h.fetch('/mcp', {
        method: 'POST',
        key: token,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    expect((await mcpWith(second.access_token)).status).not.toBe(401);

    const reused = await tokenRequest({ grant_type: 'refresh_token', client_id: info.client_id, refresh_token: first.refresh_token! });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
    // The whole family is revoked: the newest tokens too.
    expect((await mcpWith(second.access_token)).status).toBe(401);
    const afterReuse = await tokenRequest({ grant_type: 'refresh_token', client_id: info.client_id, refresh_token: second.refresh_token });
    expect(await afterReuse.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('revocation ends the token; Connected apps lists the app with its person and disconnects it; REST and GraphQL refuse the token', async () => {
    const provider = new MemoryOAuthProvider('Revoked Assistant');
    const { client } = await connectByOAuth(provider);
    await client.close();
    const token = provider.tokens()!.access_token;

    const rest = await h.fetch('/api/v1/conversations', { key: token });
    expect(rest.status).toBe(401);
    expect((await rest.json()).error.message).toMatch(/only by the MCP server/);
    expect((await h.graphql(token, '{ viewer { via } }')).status).toBe(401);

    const apps = await asPerson(h, owner, '{ connectedApps { id client_name scopes user { email } last_used_at } }');
    const app = (apps.body.data.connectedApps as { id: string; client_name: string; user: { email: string } }[]).find(
      (one) => one.client_name === 'Revoked Assistant',
    );
    expect(app?.user.email).toBe(ownerEmail);

    const revoked = await h.fetch('/oauth/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: provider.tokens()!.refresh_token!,
        client_id: provider.clientInformation()!.client_id,
      }).toString(),
    });
    expect(revoked.status).toBe(200);
    const reconnect = new Client({ name: 'assistant', version: '1.0.0' });
    await expect(
      reconnect.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider })),
    ).rejects.toThrow();
    const listed = await asPerson(h, owner, '{ connectedApps { id } }');
    expect((listed.body.data.connectedApps as { id: string }[]).map((one) => one.id)).not.toContain(app?.id);
  });

  it('Settings → Connected apps shows the app with its person, and Disconnect ends its token at once', async () => {
    const provider = new MemoryOAuthProvider('Disconnected Assistant');
    const { client } = await connectByOAuth(provider);
    await client.close();
    const token = provider.tokens()!.access_token;
    const initialize = () =>
      h.fetch('/mcp', {
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
    expect((await initialize()).status).toBe(200);

    const context = await session.browser.newContext();
    try {
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await page.goto(`${origin}/settings/connected-apps`);
      await page.getByLabel('E-mail').fill(ownerEmail);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const row = page.getByRole('row').filter({ hasText: 'Disconnected Assistant' });
      await expect.poll(() => row.innerText()).toContain('conversations');
      await row.getByRole('button', { name: 'Disconnect' }).click();
      await expect.poll(() => row.count()).toBe(0);
    } finally {
      await context.close();
    }
    expect((await initialize()).status).toBe(401);
  });
});

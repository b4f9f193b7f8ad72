// The first run, as a new user meets it: `npm start` on an empty database prints a one-time setup link at every
// start until it is used; the link's page (its /auth/setup call) creates the workspace and its owner and signs
// in, answering the sandbox integration's app secret once (it signs a test message the callback accepts); the
// owner creates a key in the console's GraphQL and it works on REST. Real server processes over HTTPS.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { httpsFetch, startServer, tempDir, type ServerProcess } from '../support/server.js';
import { emptyDatabaseEnv } from '../support/freshDatabase.js';
import { hubSignature, inboundPayload } from '../support/whatsappPayloads.js';

const dataDir = tempDir('first-run');
const env = await emptyDatabaseEnv();
const caFile = join(dataDir, 'tls', 'self-signed-cert.pem');

async function setupUrlOf(server: ServerProcess): Promise<URL> {
  const line = await server.waitForLog((log) => typeof log['setup_url'] === 'string');
  return new URL(line['setup_url'] as string);
}

function post(server: ServerProcess, path: string, body: unknown, headers: Record<string, string> = {}) {
  return httpsFetch(server.port, path, {
    caFile,
    host: 'localhost',
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `https://localhost:${server.port}`, ...headers },
    body: JSON.stringify(body),
  });
}

describe('first run in the browser', { timeout: 180_000 }, () => {
  it('prints a setup link at every start until it is used; the link creates the owner, who makes a key that works on REST', async () => {
    const first = await startServer({ dataDir, env });
    const firstLink = await setupUrlOf(first);
    expect(firstLink.origin).toBe(`https://localhost:${first.port}`);
    expect(firstLink.pathname).toBe('/setup');
    expect(firstLink.hash.length).toBeGreaterThan(20);
    const session = await httpsFetch(first.port, '/auth/session', { caFile, host: 'localhost' });
    expect(session.status).toBe(401);
    expect(JSON.parse(session.body).error.details).toEqual({ setup_required: true });
    expect(await first.stop()).toBe(0);

    const second = await startServer({ dataDir, env });
    const secondLink = await setupUrlOf(second);
    expect(secondLink.hash).not.toBe(firstLink.hash);
    const weak = await post(second, '/auth/setup', {
      token: secondLink.hash.slice(1),
      workspace_name: 'Acme',
      name: 'Olga Owner',
      email: 'olga@acme.example',
      password: 'short',
    });
    expect(weak.status).toBe(400);
    expect(JSON.parse(weak.body).error.details).toEqual({ password: 'must be at least 10 characters' });

    const setUp = await post(second, '/auth/setup', {
      token: secondLink.hash.slice(1),
      workspace_name: 'Acme',
      name: 'Olga Owner',
      email: 'olga@acme.example',
      password: 'a long first password',
    });
    expect(setUp.status, setUp.body).toBe(201);
    const owner = JSON.parse(setUp.body);
    expect(owner).toMatchObject({ user: { name: 'Olga Owner', email: 'olga@acme.example', role: 'owner' }, workspace: { name: 'Acme' } });
    const cookie = String(setUp.headers['set-cookie']).split(';')[0]!;

    // The sandbox integration's app secret is answered this once, and signs a test message the callback accepts.
    const { integration_id: integrationId, app_secret: appSecret } = owner.new_integration as {
      integration_id: string;
      app_secret: string;
    };
    expect(appSecret).toMatch(/^[\w-]{32,}$/);
    const listed = await post(
      second,
      '/graphql',
      { query: '{ integrations { id phone_number_id } }' },
      { cookie, 'x-csrf-token': owner.csrf_token },
    );
    const [sandbox] = JSON.parse(listed.body).data.integrations as { id: string; phone_number_id: string }[];
    expect(sandbox!.id).toBe(integrationId);
    const inbound = JSON.stringify(inboundPayload(sandbox!.phone_number_id, { from: '15550001111', text: 'Hello from setup' }));
    const deliver = (secret: string) =>
      httpsFetch(second.port, '/webhooks/whatsapp', {
        caFile,
        host: 'localhost',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(inbound, secret) },
        body: inbound,
      });
    expect((await deliver('0'.repeat(64))).status).toBe(401);
    expect((await deliver(appSecret)).status).toBe(200);
    const later = await httpsFetch(second.port, '/auth/session', { caFile, host: 'localhost', headers: { cookie } });
    expect(JSON.parse(later.body)).not.toHaveProperty('new_integration');

    const created = await post(
      second,
      '/graphql',
      { query: 'mutation { apiKeyCreate(name: "First integration", scopes: ["customers", "conversations"]) { api_key } }' },
      { cookie, 'x-csrf-token': owner.csrf_token },
    );
    const apiKey = JSON.parse(created.body).data.apiKeyCreate.api_key as string;
    const contacts = await httpsFetch(second.port, '/api/v1/contacts', {
      caFile,
      host: 'localhost',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(contacts.status).toBe(200);

    const reused = await post(second, '/auth/setup', {
      token: firstLink.hash.slice(1),
      workspace_name: 'Second',
      name: 'Mallory',
      email: 'mallory@example.com',
      password: 'a long other password',
    });
    expect(reused.status).toBe(403);
    expect(await second.stop()).toBe(0);

    const third = await startServer({ dataDir, env });
    expect(third.logs().some((log) => 'setup_url' in log)).toBe(false);
    const signedIn = await post(third, '/auth/sign-in', { email: 'olga@acme.example', password: 'a long first password' });
    expect(signedIn.status).toBe(200);
    await third.stop();
  });
});

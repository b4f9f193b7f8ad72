// The README's first steps in Chromium against a real `npm start` process over HTTPS on an empty database: the
// setup link from the log opens the setup page, which creates the workspace and its owner and lands on
// Settings → API keys; the key generated there works on REST; GraphiQL opens offline, signed in by the cookie.
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { join } from 'node:path';
import { httpsFetch, startServer, tempDir } from '../support/server.js';
import { emptyDatabaseEnv } from '../support/freshDatabase.js';
import { launchChromium } from '../support/browser.js';

const dataDir = tempDir('first-run-browser');
const env = await emptyDatabaseEnv();
let browser: Browser | undefined;
afterAll(() => browser?.close());

describe('first run in the browser', { timeout: 180_000 }, () => {
  it('goes from the printed setup link to a working API key and GraphiQL, loading nothing from another host', async () => {
    const server = await startServer({ dataDir, env });
    const setupUrl = (await server.waitForLog((log) => typeof log['setup_url'] === 'string'))['setup_url'] as string;
    const origin = new URL(setupUrl).origin;
    browser = await launchChromium();
    // The service's own self-signed certificate, as a newcomer accepts it once in the browser.
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // Signed out, the console's first call (/auth/session) is answered 401, which the browser logs.
      if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !/^(data|blob):/.test(request.url())) problems.push(`request to ${request.url()}`);
    });

    await page.goto(setupUrl);
    await page.getByLabel('Workspace name').fill('Acme');
    await page.getByLabel('Your name').fill('Olga Owner');
    await page.getByLabel('Your e-mail').fill('olga@acme.example');
    await page.getByLabel('Password').fill('a long first password');
    await page.getByRole('button', { name: 'Create the workspace' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');

    await page.getByLabel('Name').fill('First integration');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const apiKey = await page.getByTestId('secret').innerText();
    const caFile = join(dataDir, 'tls', 'self-signed-cert.pem');
    const contacts = await httpsFetch(server.port, '/api/v1/contacts', {
      caFile,
      host: 'localhost',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(contacts.status).toBe(200);

    const introspected = page.waitForResponse(
      (response) => response.url() === `${origin}/graphql` && response.request().method() === 'POST',
    );
    const graphiql = await page.goto(`${origin}/graphql`);
    expect(graphiql?.headers()['content-security-policy']).toMatch(/script-src 'nonce-/);
    const schema = await introspected;
    expect(schema.status(), await schema.text()).toBe(200);
    expect(((await schema.json()) as { data: { __schema: unknown } }).data.__schema).toBeTruthy();
    await page.locator('.graphiql-container').first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
    expect(await server.stop()).toBe(0);
  });
});

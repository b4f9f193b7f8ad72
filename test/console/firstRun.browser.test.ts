// The README's first steps in Chromium against a real `npm start` process over HTTPS on an empty database: the
// setup link from the log opens the setup page, which creates the workspace and its owner and lands on
// Settings → API keys; the key generated there works on REST; `npm run cli` runs beside the server; the inbox's
// "Simulate a customer message" form brings a conversation in live, and a reply's ticks reach read; GraphiQL opens
// offline, signed in by the cookie.
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cliArguments, httpsFetch, startServer, tempDir } from '../support/server.js';
import { emptyDatabaseEnv } from '../support/freshDatabase.js';
import { launchChromium } from '../support/browser.js';

const dataDir = tempDir('first-run-browser');
const env = { ...(await emptyDatabaseEnv()), SANDBOX_STATUS_INTERVAL_MS: '300' };
const run = promisify(execFile);
let browser: Browser | undefined;
afterAll(() => browser?.close());

describe('first run in the browser', { timeout: 180_000 }, () => {
  it('goes from the printed setup link to a working API key, a CLI command beside the server, a simulated customer message arriving live and a reply read, and GraphiQL, loading nothing from another host', async () => {
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
    // The sandbox's app secret is shown once, before the console goes on.
    expect(await page.getByTestId('secret').innerText()).toMatch(/^[\w-]{32,}$/);
    await page.getByRole('button', { name: 'Continue to API keys' }).click();
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

    // `npm run cli` while the server runs (on the embedded database it works through the server).
    const { DATABASE_URL: _operators, ...inherited } = process.env;
    const cli = await run(process.execPath, cliArguments('db', 'migrate', '--json'), {
      env: { ...inherited, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    });
    expect(JSON.parse(cli.stdout)).toEqual({ applied: [] });

    // The inbox, then a customer message simulated from it: the conversation arrives live, and a reply reaches read.
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByText('No conversations here.').waitFor();
    await page.getByText('Simulate a customer message', { exact: true }).first().click();
    await page.getByLabel('Customer name').fill('Sam Sample');
    await page.getByLabel('Customer phone').fill('+15550001234');
    await page.getByLabel('Message', { exact: true }).fill('Hello, is anyone there?');
    await page.getByRole('button', { name: 'Send as the customer' }).click();
    const row = page.getByTestId('conversation-row').filter({ hasText: 'Sam Sample' });
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page.getByText('Hello, is anyone there?').first().waitFor();
    await page.getByLabel('Reply').fill('Yes, how can we help?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const reply = page.getByTestId('message').filter({ hasText: 'Yes, how can we help?' });
    await reply.locator('[data-status="read"]').waitFor({ timeout: 15_000 });

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

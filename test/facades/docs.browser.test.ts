import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { openHarness } from '../support/harness.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';

// The reference page served to a real browser over a real port (test/support/browser.ts).
let session: BrowserSession;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  session = await openBrowserOn(await openHarness());
  ({ origin, browser } = session);
});

afterAll(() => session?.close());

describe('the API reference at /docs', () => {
  it('renders every operation of the OpenAPI document in Chromium, loading nothing from another host', async () => {
    const document = await (await fetch(`${origin}/api/v1/openapi.json`)).json();
    const operations = Object.values(document.paths as Record<string, object>).flatMap((item) => Object.keys(item));
    const page = await browser.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });

    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    await page.waitForFunction((count) => document.querySelectorAll('.opblock').length === count, operations.length, {
      timeout: 20_000,
    });
    expect(await page.locator('.info .title').innerText()).toContain('Messaging CRM API');
    expect(await page.locator('.opblock-deprecated').count()).toBe(3);
    for (const method of ['put', 'patch', 'delete']) {
      const documented = operations.filter((operation) => operation === method).length;
      expect(await page.locator(`.opblock-${method}`).count(), method).toBe(documented);
    }
    const paths = await page.locator('.opblock-summary-path, .opblock-summary-path__deprecated').allInnerTexts();
    expect(paths.map((path) => path.replace(/\u200b/g, ''))).toEqual(
      expect.arrayContaining(['/api/v1/contacts/{id}', '/api/v1/customers']),
    );

    await page.locator('#operations-Contacts-getContact .opblock-summary').click();
    await page.waitForSelector('#operations-Contacts-getContact .responses-table');
    expect(await page.locator('#operations-Contacts-getContact .response-col_status').allInnerTexts()).toEqual(
      expect.arrayContaining(['200', '404', '405']),
    );
    // For a person to look at; the assertions above are the check.
    await page.screenshot({ path: join(tmpdir(), 'messaging-crm-docs.png') });

    expect(problems).toEqual([]);
    expect(requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    await page.close();
  });
});

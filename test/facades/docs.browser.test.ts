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
    const openApi = await (await fetch(`${origin}/api/v1/openapi.json`)).json();
    const operations = Object.values(openApi.paths as Record<string, object>).flatMap((item) => Object.keys(item));
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
    // Swagger UI renders a long list of operations virtually (only those near the viewport are in the page): scroll
    // through it and record each operation block as it appears.
    const seen = new Map<string, { className: string; path: string }>();
    for (let step = 0; step < 400; step++) {
      const visible = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.opblock')].map((block) => ({
          id: block.id,
          className: block.className,
          path: (block.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.textContent ?? '').replace(/\u200b/g, ''),
        })),
      );
      for (const block of visible) seen.set(block.id, block);
      const atEnd = await page.evaluate(() => {
        window.scrollBy(0, window.innerHeight * 0.8);
        return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      });
      if (atEnd && seen.size === operations.length) break;
      await page.waitForTimeout(50);
    }
    const blocks = [...seen.values()];
    expect(blocks).toHaveLength(operations.length);
    expect(await page.locator('.info .title').innerText()).toContain('Messaging CRM API');
    expect(blocks.filter((block) => block.className.includes('opblock-deprecated'))).toHaveLength(3);
    for (const method of ['put', 'patch', 'delete']) {
      const documented = operations.filter((operation) => operation === method).length;
      expect(blocks.filter((block) => block.className.split(' ').includes(`opblock-${method}`)).length, method).toBe(documented);
    }
    expect(blocks.map((block) => block.path)).toEqual(expect.arrayContaining(['/api/v1/contacts/{id}', '/api/v1/customers']));

    await page.evaluate(() => window.scrollTo(0, 0));
    for (let step = 0; step < 400 && (await page.locator('#operations-Contacts-getContact').count()) === 0; step++) {
      await page.evaluate(() => window.scrollBy(0, window.innerHeight * 0.8));
      await page.waitForTimeout(50);
    }
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
  }, 120_000);
});

// Every page of the console's router (the <Route path> entries of console/main.tsx, so a new page is covered by
// itself), signed in once as the owner in one Chromium, at a phone's (390 px) and a desktop's (1440 px) width: each
// shows its content with no serious or critical axe-core violation, no script error and no sideways scrolling, and
// the keyboard reaches its controls from the skip link. A contact's page shows its timeline with every kind of
// entry. With CONSOLE_SCREENSHOTS=1 (npm run screenshots) each page is saved as docs/console/<page>-<width>.png, and
// the contact's timeline as docs/console/contacts-timeline-1440.png. A session the service refuses for a while (the
// rate limit's 429) is said so, and the page opens once it answers again; a page's query refused so says so too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openHarness } from '../support/harness.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { ownerSession } from '../support/people.js';
import { signedInConsole, type ConsolePage } from '../support/consolePages.js';
import { seriousAccessibilityViolations } from '../support/accessibility.js';
import { seedContactStory, type ContactStory } from '../support/contactStory.js';
import { postJson } from '../support/restFixtures.js';
import { projectPath } from '../../infra/paths.js';

const SCREENSHOTS = process.env['CONSOLE_SCREENSHOTS'] === '1' ? projectPath('docs/console') : null;
const WIDTHS = [1440, 390] as const;
const UNKNOWN_ID = '0190aaaa-0000-7000-8000-000000000000';

const ROUTES = [...readFileSync(new URL('../../console/main.tsx', import.meta.url), 'utf8').matchAll(/<Route path="([^"]+)"/g)].map(
  (match) => match[1]!,
);

// One person opening every page twice spends about 200 requests in under a minute: within a console session's own
// budget (600 a minute, test/platform/rateLimit.test.ts), which this walk also proves ordinary use stays inside.
// The console's answer to a refused session is the last test here.
const harness = await openHarness();
let session: BrowserSession;
let opened: ConsolePage;
let story: ContactStory;
let ruleId: string;
let webhookId: string;

beforeAll(async () => {
  const workspace = await harness.workspace('Every page');
  const owner = await ownerSession(harness, workspace);
  story = await seedContactStory(harness.db.prisma, workspace.workspace_id, 'Ada Story');
  const rule = await postJson(harness, '/api/v1/automations', workspace.api_key, {
    name: 'Refunds to the team',
    trigger: { event: 'message.received' },
    conditions: { all: [{ field: 'message.text', operator: 'contains', value: 'refund' }] },
    actions: [{ type: 'add_tag', tag: 'refund' }],
  });
  expect(rule.status).toBe(201);
  ruleId = rule.body.id;
  const webhook = await harness.db.prisma.webhookSubscription.create({
    data: {
      company_id: workspace.workspace_id,
      url: 'https://hooks.example.com/crm',
      events: ['message.received'],
      secret: harness.services.secrets.seal('whsec_every_page'),
    },
  });
  webhookId = webhook.id;
  session = await openBrowserOn(harness);
  opened = await signedInConsole(session, owner.body.user.email, '/inbox');
});
afterAll(async () => {
  await opened?.context.close();
  await session?.close();
});

/** A route with its `:id` filled by a record of the seeded workspace (an unknown id for a page added since). */
function pathOf(route: string): string {
  const records: Record<string, string> = {
    '/inbox/:id': story.conversationId,
    '/contacts/:id': story.contactId,
    '/campaigns/:id': story.campaignId,
    '/automations/:id': ruleId,
    '/settings/webhooks/:id': webhookId,
  };
  return route.replace(':id', records[route] ?? UNKNOWN_ID);
}

/** docs/console/<name>-<width>.png: the path without its /settings prefix, a record's page named `<list>-record`. */
function screenshotName(route: string): string {
  return route.replace(/^\/(settings\/)?/, '').replace(/\/:id$/, '-record') || 'home';
}

async function shown(page: Page, path: string): Promise<void> {
  await page.goto(`${session.origin}${path}`);
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.loading'));
}

/** Tabbing from the skip link moves the focus through the page's controls, none of them hidden. */
async function keyboardStops(page: Page): Promise<string[]> {
  const stops: string[] = [];
  await page.locator('body').focus();
  for (let step = 0; step < 6; step++) {
    await page.keyboard.press('Tab');
    stops.push(
      await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement | null;
        const box = focused?.getBoundingClientRect();
        return focused && focused !== document.body && box && box.width > 0 && box.height > 0 ? focused.tagName : 'nothing visible';
      }),
    );
  }
  return stops;
}

describe('every page of the console', { timeout: 600_000 }, () => {
  it('is accessible and reachable by keyboard at 390 and 1440 px', async () => {
    const { page, problems } = opened;
    expect(ROUTES.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const route of ROUTES) {
      const path = pathOf(route);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
        await shown(page, path);
        for (const violation of await seriousAccessibilityViolations(page)) failures.push(`${route} at ${width} px: ${violation}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 0) failures.push(`${route} at ${width} px scrolls sideways by ${overflow} px`);
        if (SCREENSHOTS && route !== '/') await page.screenshot({ path: join(SCREENSHOTS, `${screenshotName(route)}-${width}.png`) });
        const stops = await keyboardStops(page);
        if (stops.includes('nothing visible')) failures.push(`${route} at ${width} px: Tab reached ${stops.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("shows a contact's whole story on its page, every kind newest first", async () => {
    const { page } = opened;
    await page.setViewportSize({ width: 1440, height: 900 });
    await shown(page, `/contacts/${story.contactId}`);
    const entries = page.getByRole('region', { name: 'Timeline' }).getByTestId('timeline-entry');
    await expect.poll(() => entries.count()).toBe(story.expected.length);
    expect(await entries.evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')))).toEqual(
      story.expected.map((entry) => entry.kind),
    );
    const texts = await entries.allInnerTexts();
    expect(texts[0]).toContain('Prefers mornings');
    expect(texts[1]).toMatch(/Tagged “vip /);
    expect(texts[2]).toMatch(/Fitting .* booked for .* · cancelled/);
    expect(texts[3]).toMatch(/Campaign “Spring offer .*” \(spring_offer\) · read/);
    expect(texts[4]).toContain('Conversation began on sandbox · closed');
    if (SCREENSHOTS)
      await page.getByRole('region', { name: 'Timeline' }).screenshot({ path: join(SCREENSHOTS, 'contacts-timeline-1440.png') });

    // Recording consent here adds it at the top of the timeline.
    await page.getByLabel('Record consent').selectOption('opted_out');
    await page.getByRole('button', { name: 'Record', exact: true }).click();
    await expect.poll(() => entries.first().getAttribute('data-kind')).toBe('consent');
    expect(await entries.first().innerText()).toContain('Marketing consent unknown → opted out · by console');
  });

  it('says why it waits when the session is refused, and opens the page when the service answers again', async () => {
    const { page } = opened;
    let refusals = 0;
    // The service's own 429 (test/platform/rateLimit.test.ts), once, with a short Retry-After.
    await page.route('**/auth/session', (route) =>
      refusals++ > 0
        ? route.continue()
        : route.fulfill({
            status: 429,
            headers: { 'retry-after': '1' },
            contentType: 'application/json',
            body: JSON.stringify({
              error: {
                code: 'RATE_LIMITED',
                message: 'Rate limit of 600 requests per 60 seconds exceeded for this console session; retry in 1 seconds',
              },
            }),
          }),
    );
    try {
      await page.goto(`${session.origin}/contacts`);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toMatch(/could not open your session: Rate limit of 600 requests .* tries again by itself in 1 s/);
      await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
      expect(refusals).toBe(2);
    } finally {
      await page.unroute('**/auth/session');
    }

    // A page's query refused the same way says so, not that the service could not be reached.
    await page.route('**/graphql?*operationName=Contacts*', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '7' },
        contentType: 'application/json',
        body: '{"error":{"code":"RATE_LIMITED"}}',
      }),
    );
    try {
      await page.reload();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').innerText()).toBe(
        'Too many requests from this session in the last minute; try again in 7 seconds.',
      );
    } finally {
      await page.unroute('**/graphql?*operationName=Contacts*');
    }
    expect(opened.problems).toEqual([]);
  });
});

// The Templates page in Chromium, as a person of the workspace uses it: a template written with forms (no JSON),
// its phone preview following each keystroke with the samples filled in; a rule broken (a body ending with a
// parameter) refused with the field named; a template submitted, approved by the sandbox's review and shown
// APPROVED; one the review rejects shown with why. Every control is labelled, at a phone's and a desktop's width.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { ownerSession, PASSWORD } from '../support/people.js';
import { startTemplateReviewer } from '../../workers/templates/reviewer.js';
import { createLogger } from '../../infra/observability/logger.js';

const world = await openMessagingWorld('sandbox');
const h = world.harness;
const reviewer = startTemplateReviewer(h.services, { pollMs: 20 }, createLogger('silent'));
afterAll(() => reviewer.stop());

let session: BrowserSession;
let workspace: MessagingWorkspace;
let ownerEmail: string;

beforeAll(async () => {
  session = await openBrowserOn(h);
  workspace = await world.workspace();
  await ownerSession(h, { workspace_id: workspace.workspaceId });
  ownerEmail = (await h.db.prisma.user.findFirstOrThrow({ where: { company_id: workspace.workspaceId, role: 'owner' } })).email;
});
afterAll(() => session?.close());

async function templatesPage(width = 1440): Promise<{ page: Page; problems: string[] }> {
  const context = await session.browser.newContext({ viewport: { width, height: 900 } });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${session.origin}/templates`);
  await page.getByLabel('E-mail').fill(ownerEmail);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Templates', exact: true }).waitFor();
  return { page, problems };
}

async function fillTemplate(page: Page, name: string, body: string, sample: string | null) {
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Body').fill(body);
  if (sample !== null) await page.getByLabel('Sample for {{1}}').fill(sample);
}

describe('the Templates page', { timeout: 90_000 }, () => {
  it('builds a template with forms and a live preview, refuses a broken rule by field, and shows the review’s outcome', async () => {
    const { page, problems } = await templatesPage();
    await fillTemplate(page, 'pickup_ready', 'Hi {{1}}', 'Ana');
    await page.getByLabel('Footer (optional)').fill('Thanks for shopping');
    await page.getByRole('button', { name: 'Add a button' }).click();
    await page.getByLabel('Button 1 label').fill('On my way');
    const preview = page.getByTestId('preview');
    await expect.poll(() => preview.innerText()).toContain('Hi Ana');
    expect(await preview.innerText()).toContain('On my way');

    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/components\.0\.text may not start or end with a parameter/);

    await page.getByLabel('Body').fill('Hi {{1}}, your order is ready.');
    await page.getByLabel('Sample for {{1}}').fill('Ana');
    await expect.poll(() => preview.innerText()).toContain('Hi Ana, your order is ready.');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByRole('status').filter({ hasText: 'pickup_ready was submitted for review.' }).waitFor();

    await fillTemplate(page, 'miracle_offer', 'Results guaranteed for everyone.', null);
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByRole('status').filter({ hasText: 'miracle_offer was submitted for review.' }).waitFor();

    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh statuses' }).click();
          await page.waitForTimeout(100);
          return page.getByTestId('template-row').filter({ hasText: 'miracle_offer' }).innerText();
        },
        { timeout: 10_000 },
      )
      .toMatch(/REJECTED\s+Rejected: PROMOTIONAL/);
    expect(await page.getByTestId('template-row').filter({ hasText: 'pickup_ready' }).innerText()).toMatch(/APPROVED/);
    expect(problems).toEqual([]);
  });

  it('labels every control, at a phone’s and a desktop’s width, without scrolling sideways', async () => {
    for (const width of [390, 1440]) {
      const { page } = await templatesPage(width);
      await page.getByRole('button', { name: 'Add a button' }).click();
      await page.getByLabel('Body').fill('Hi {{1}} there');
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('input, select, textarea, button')]
          .filter((element) => {
            const labels = (element as HTMLInputElement).labels;
            return !(labels && labels.length > 0) && !element.getAttribute('aria-label') && !(element.textContent ?? '').trim();
          })
          .map((element) => element.outerHTML.slice(0, 120)),
      );
      expect(unlabelled).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    }
  });
});

// The Automations page in Chromium, as an owner uses it: reached by keyboard from the list, a rule "refund → add tag
// refund + assign to me" built with forms (no JSON), a refused save shown beside the field the API names, the
// saved rule's dry run saying which recent events would match and what would be done, and then a customer's
// "refund" message producing the rule's first run, seen in the run log with each action's outcome and in the list
// with its counts and last result. axe finds no serious or critical violation at 1440 px and 390 px.
import { beforeAll, afterAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { openAutomationWorld } from '../support/automations.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { seriousAccessibilityViolations } from '../support/accessibility.js';
import { ownerSession, PASSWORD } from '../support/people.js';
import type { MessagingWorkspace } from '../support/messaging.js';

const { world, harness, startWorker, contact, say, runs } = await openAutomationWorld();
startWorker();

let session: BrowserSession;
let ws: MessagingWorkspace;
let owner: { email: string; name: string | null };

beforeAll(async () => {
  session = await openBrowserOn(harness);
  ws = await world.workspace();
  await ownerSession(harness, { workspace_id: ws.workspaceId });
  owner = await harness.db.prisma.user.findFirstOrThrow({ where: { company_id: ws.workspaceId, role: 'owner' } });
});
afterAll(() => session?.close());

async function signedIn(width: number, path: string): Promise<{ page: Page; problems: string[] }> {
  const context = await session.browser.newContext({ viewport: { width, height: 900 } });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${session.origin}${path}`);
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return { page, problems };
}

async function expectAccessible(page: Page, where: string) {
  expect(await seriousAccessibilityViolations(page), where).toEqual([]);
}

describe('the Automations page', { timeout: 120_000 }, () => {
  it('builds a rule with forms, tests it, and shows its first run', async () => {
    const customer = contact();
    await say(ws, customer, 'Hello there');
    await say(ws, customer, 'I would like a refund, please');

    const { page, problems } = await signedIn(1440, '/automations');
    await page.getByRole('heading', { name: 'Automations', exact: true }).waitFor();
    await page.getByText('No rules yet').waitFor();
    // Keyboard: the list's "New rule" link is reached with Tab and followed with Enter.
    for (let step = 0; step < 30; step++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'New rule') break;
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New rule' }).waitFor();

    await page.getByLabel('Name').fill('Refunds to me');
    expect(await page.getByLabel('Trigger').inputValue()).toBe('message.received');
    await page.getByRole('button', { name: 'Add a condition' }).press('Enter');
    await page.getByLabel('Condition 1 field').selectOption({ label: 'Message text' });
    await page.getByLabel('Condition 1 operator').selectOption({ label: 'contains the words' });
    await page.getByLabel('Condition 1 value').fill('refund');
    expect(await page.getByLabel('Action 1 type').inputValue()).toBe('add_tag');
    await page.getByRole('button', { name: 'Add an action' }).click();
    await page.getByLabel('Action 2 type').selectOption({ label: 'Assign to a person' });
    await page.getByLabel('Action 2 person').selectOption({ label: `${owner.name ?? owner.email} (you)` });

    // Saved without a tag: the API's refusal shows beside the tag's field, and nothing is created.
    await page.getByRole('button', { name: 'Create the rule' }).click();
    await page.getByRole('alert').filter({ hasText: 'The rule was not saved' }).waitFor();
    const tag = page.getByLabel('Action 1 tag');
    expect(await tag.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[id="actions.0.tag-error"]').innerText()).toBe('is required');
    expect(await harness.db.prisma.automationRule.count({ where: { company_id: ws.workspaceId } })).toBe(0);

    await tag.fill('refund');
    await page.getByRole('button', { name: 'Create the rule' }).click();
    await page.getByRole('heading', { name: 'Refunds to me' }).waitFor();
    const rule = await harness.db.prisma.automationRule.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    expect(rule).toMatchObject({
      enabled: true,
      trigger: { event: 'message.received' },
      conditions: { all: [{ field: 'message.text', operator: 'contains', value: 'refund' }] },
      actions: [
        { type: 'add_tag', tag: 'refund' },
        { type: 'assign', user_id: ws.userId },
      ],
    });

    await page.getByRole('button', { name: 'Test the rule' }).click();
    const dryRun = page.getByTestId('dry-run');
    await expect.poll(() => dryRun.innerText()).toContain('1 of 2 recent events would match.');
    expect(await dryRun.innerText()).toMatch(/message\.received[\s\S]*Add a tag: refund[\s\S]*Assign to a person: /);
    expect(await runs(rule.id)).toEqual([]);
    await expectAccessible(page, 'the editor at 1440 px');

    await say(ws, customer, 'Still waiting for my REFUND');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh the run log' }).click();
          await page.waitForTimeout(100);
          return page.getByTestId('run-row').allInnerTexts();
        },
        { timeout: 10_000 },
      )
      .toEqual([expect.stringMatching(/matched, 2 done[\s\S]*add_tag: done[\s\S]*assign: done/)]);

    await page.getByRole('link', { name: 'All rules' }).click();
    const row = page.getByTestId('rule-row');
    await expect.poll(() => row.innerText()).toMatch(/Refunds to me\s+A customer message is received\s+.*matched, 2 done\s+1\s+1/);
    expect(await page.getByLabel('Refunds to me enabled').isChecked()).toBe(true);
    await expectAccessible(page, 'the list at 1440 px');
    expect(problems).toEqual([]);
  });

  it('has no serious accessibility violation at a phone’s width, and does not scroll sideways', async () => {
    const { page, problems } = await signedIn(390, '/automations/new');
    await page.getByRole('heading', { name: 'New rule' }).waitFor();
    await page.getByRole('button', { name: 'Add a condition' }).click();
    await page.getByRole('button', { name: 'Add a group of conditions' }).click();
    await page.getByRole('button', { name: 'Add an action' }).click();
    await page.getByLabel('Action 2 type').selectOption({ label: 'Send a template' });
    await expectAccessible(page, 'the editor at 390 px');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.getByRole('link', { name: 'All rules' }).click();
    await page.getByRole('heading', { name: 'Automations', exact: true }).waitFor();
    await expectAccessible(page, 'the list at 390 px');
    expect(problems).toEqual([]);
  });
});

// The Campaigns page in Chromium, as an owner runs a campaign: an approved template picked and its parameters
// filled, a tag of 5 contacts chosen and the live count saying 5, started at once; the campaign's page then
// follows it to completed with no reload (the campaign worker sends on the sandbox, the message subscriptions
// bring each step), lists its recipients and downloads them as CSV. No serious or critical axe violation at a
// phone's and a desktop's width, and the form is reachable by keyboard. With CONSOLE_SCREENSHOTS=1 it saves
// docs/console/campaigns-list.png and docs/console/campaigns-campaign.png.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { openHarness } from '../support/harness.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { ownerSession, PASSWORD } from '../support/people.js';
import { seriousAccessibilityViolations } from '../support/accessibility.js';
import { campaignTestFile, taggedContacts } from '../support/campaigns.js';
import { startCampaignWorker } from '../../workers/campaigns/worker.js';
import { createLogger } from '../../infra/observability/logger.js';
import { projectPath } from '../../infra/paths.js';

const h = await openHarness();
const file = campaignTestFile(() => h);
const worker = startCampaignWorker(
  h.services,
  { defaultRatePerMinute: 600, pollMs: 100, leaseMs: 60_000, retryDelayMs: 1000, campaignsPerTick: 8, clock: () => new Date() },
  createLogger('silent'),
);
afterAll(() => worker.stop());

const SCREENSHOTS = process.env['CONSOLE_SCREENSHOTS'] === '1';

let session: BrowserSession;
let ownerEmail: string;
let workspaceId: string;

beforeAll(async () => {
  session = await openBrowserOn(h);
  const shop = await file.workspace();
  workspaceId = shop.workspace_id;
  await ownerSession(h, shop);
  ownerEmail = (await h.db.prisma.user.findFirstOrThrow({ where: { company_id: workspaceId, role: 'owner' } })).email;
});
afterAll(() => session?.close());

async function campaignsPage(width = 1440): Promise<{ page: Page; problems: string[] }> {
  const context = await session.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${session.origin}/campaigns`);
  await page.getByLabel('E-mail').fill(ownerEmail);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Campaigns', exact: true }).waitFor();
  return { page, problems };
}

async function fillCampaign(page: Page, name: string, tagName: string) {
  await page.getByLabel('Campaign name').fill(name);
  await page.getByLabel('Approved template').selectOption({ label: 'appointment_reminder (en_US, utility)' });
  for (const [index, value] of ['there', 'Friday', '10:00'].entries()) await page.getByLabel(`Parameter {{${index + 1}}}`).fill(value);
  await page.getByLabel(tagName, { exact: true }).check();
}

describe('the Campaigns page', { timeout: 120_000 }, () => {
  it('creates a campaign for a tag of 5, starts it and follows it to completed without a reload, then downloads its recipients', async () => {
    const { tag, contacts } = await taggedContacts(h, workspaceId, 5, 'spring customers');
    const { page, problems } = await campaignsPage();
    await fillCampaign(page, 'Spring reminder', tag.name);
    await expect.poll(() => page.getByTestId('audience-count').innerText()).toBe('5');
    expect(await page.getByTestId('campaign-preview').innerText()).toContain(
      'Hello there, this is a reminder of your appointment on Friday at 10:00.',
    );

    await page.getByRole('button', { name: 'Create and start' }).click();
    await page.getByRole('heading', { name: 'Spring reminder' }).waitFor();
    const loads: string[] = [];
    page.on('framenavigated', (frame) => loads.push(frame.url()));
    await expect.poll(() => page.getByTestId('campaign-status').innerText(), { timeout: 30_000 }).toBe('completed');
    await expect.poll(() => page.getByTestId('count-read').innerText(), { timeout: 30_000 }).toBe('5');
    expect(await page.getByTestId('count-total').innerText()).toBe('5');
    expect(loads).toEqual([]);
    await expect.poll(() => page.getByTestId('recipient-row').count()).toBe(5);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download recipients (CSV)' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^contact_id,contact_name,phone_number,wa_id,status/);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual(contacts.map((contact) => contact.id).sort());
    expect(lines.slice(1).every((line) => line.includes(',read,'))).toBe(true);
    if (SCREENSHOTS) await page.screenshot({ path: projectPath('docs/console/campaigns-campaign.png'), fullPage: true });

    await page.getByRole('link', { name: '← All campaigns' }).click();
    await expect
      .poll(() => page.getByTestId('campaign-row').filter({ hasText: 'Spring reminder' }).innerText())
      .toMatch(/completed\s+5 of 5 done/);
    if (SCREENSHOTS) await page.screenshot({ path: projectPath('docs/console/campaigns-list.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('has no serious accessibility violation at a phone’s and a desktop’s width, and its form is reachable by keyboard', async () => {
    const { tag } = await taggedContacts(h, workspaceId, 1, 'axe check');
    for (const width of [390, 1440]) {
      const { page } = await campaignsPage(width);
      await fillCampaign(page, `Check ${width}`, tag.name);
      await page.getByRole('button', { name: 'Add a condition' }).click();
      await expect.poll(() => page.getByTestId('audience-count').innerText()).toBe('1');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

      // From the page's start, Tab alone reaches the form's submit button.
      await page.locator('body').focus();
      let reached = false;
      for (let presses = 0; presses < 80 && !reached; presses += 1) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Create and start');
      }
      expect(reached).toBe(true);
    }
    const campaign = await h.db.prisma.campaign.findFirstOrThrow({ where: { company_id: workspaceId } });
    const { page } = await campaignsPage(390);
    await page.goto(`${session.origin}/campaigns/${campaign.id}`);
    await page.getByTestId('campaign-status').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

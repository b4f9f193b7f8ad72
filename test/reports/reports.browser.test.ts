// The Reports page in Chromium on a workspace with a known history (seed.ts): for the response week the overview
// cards show 10 opened, 4 closed and first responses of 5.5 and 9.1 minutes; the response-time chart's data table
// holds the day's median and p90; the team filter (Front: Leo alone) narrows the figures and the team table;
// moving the date range to the campaign week changes the figures; and the
// campaigns table's CSV download holds exactly its header and the campaign's row; the Costs section counts the
// week's priced messages (issue 36) by category, billable apart. In a workspace in Asia/Tokyo the page's days are
// Tokyo's days: the range starts at Tokyo's midnight and the series is labelled with Tokyo's dates.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { ownerSession } from '../support/people.js';
import { signedInConsole, type ConsolePage } from '../support/consolePages.js';
import { CAMPAIGN_WEEK, RESPONSE_WEEK, seedReports } from './seed.js';

const harness = await openHarness();
const { workspace } = await seedReports(harness, 'Reports in the browser');
// The provider's pricing, as its status webhooks report it (stored per message: test/analytics/messagesByCategory.test.ts).
const { count: priced } = await harness.db.prisma.message.updateMany({
  where: {
    company_id: workspace.workspace_id,
    direction: 'outbound',
    created_at: { gte: new Date(CAMPAIGN_WEEK.from), lt: new Date(CAMPAIGN_WEEK.to) },
  },
  data: { pricing: { billable: true, category: 'marketing', pricing_model: 'PMP', type: 'regular' } },
});
let session: BrowserSession;
let opened: ConsolePage;

beforeAll(async () => {
  const owner = await ownerSession(harness, workspace);
  session = await openBrowserOn(harness);
  opened = await signedInConsole(session, owner.body.user.email, '/reports');
});
afterAll(async () => {
  await opened?.context.close();
  await session?.close();
});

const day = (iso: string) => iso.slice(0, 10);

describe('the Reports page', () => {
  it('shows the seeded figures, follows the date range, and downloads a table as CSV', async () => {
    const { page, problems } = opened;
    await page.getByLabel('From').fill(day(RESPONSE_WEEK.from));
    await page.getByLabel('To (exclusive)').fill(day(RESPONSE_WEEK.to));
    const card = (label: string) =>
      page
        .locator('.cards .card')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('strong');
    await expect.poll(() => card('Conversations opened').innerText()).toBe('10');
    expect(await card('Conversations closed').innerText()).toBe('4');
    expect(await card('First response, median').innerText()).toBe('5.5 min');
    expect(await card('First response, p90').innerText()).toBe('9.1 min');

    // The data table behind the response-time chart: Monday holds every first response, Tuesday none.
    await page.getByText('Data table: First response time').click();
    const responseData = page.getByRole('table', { name: 'First response time data' });
    expect(await responseData.locator('tbody tr').first().locator('td').allInnerTexts()).toEqual([day(RESPONSE_WEEK.from), '5.5', '9.1']);
    expect(await responseData.locator('tbody tr').nth(1).locator('td').allInnerTexts()).toEqual(['2026-10-06', '—', '—']);

    // No business hours set: the workspace is open around the clock, so business time is calendar time.
    expect(await card('First response, median in business hours').innerText()).toBe('5.5 min');
    await page.getByRole('combobox', { name: 'Team' }).selectOption({ label: 'Front' });
    await expect.poll(() => card('Conversations opened').innerText()).toBe('5');
    const team = page.getByRole('region', { name: 'Team', exact: true });
    expect(await team.locator('tbody tr td:first-child').allInnerTexts()).toEqual(['Leo']);
    await page.getByRole('combobox', { name: 'Team' }).selectOption({ label: 'All teams' });
    await expect.poll(() => card('Conversations opened').innerText()).toBe('10');

    await page.getByLabel('From').fill(day(CAMPAIGN_WEEK.from));
    await page.getByLabel('To (exclusive)').fill(day(CAMPAIGN_WEEK.to));
    await expect.poll(() => card('Conversations opened').innerText()).toBe('4');
    const campaigns = page.getByRole('region', { name: 'Campaigns' });
    expect(await campaigns.locator('tbody td').allInnerTexts()).toEqual(['Autumn sale', 'completed', '4', '2', '2', '1', '1', '1', '2']);

    const costs = page.getByRole('region', { name: 'Costs' });
    expect(priced).toBeGreaterThan(0);
    await expect
      .poll(() => costs.getByText(/outbound messages with reported pricing/).innerText())
      .toMatch(new RegExp(`^${priced} of ${priced} `));
    const byCategory = costs.getByRole('region', { name: 'Messages by category' });
    expect(await byCategory.locator('tbody td').allInnerTexts()).toEqual(['marketing', String(priced), String(priced)]);

    const download = page.waitForEvent('download');
    await campaigns.getByRole('button', { name: 'Download CSV of Campaigns' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('campaigns.csv');
    expect(await readFile(await file.path(), 'utf8')).toBe(
      'Campaign,Status,Recipients,Sent,Delivered,Read,Replied within 24 h,Opted out within 24 h,Failed\r\nAutumn sale,completed,4,2,2,1,1,1,2\r\n',
    );
    expect(problems).toEqual([]);
  });

  it("cuts the days in the workspace's time zone", async () => {
    await harness.db.prisma.workspace.update({ where: { id: workspace.workspace_id }, data: { time_zone: 'Asia/Tokyo' } });
    const { page, problems } = opened;
    await page.reload();
    await page.getByLabel('From').fill(day(RESPONSE_WEEK.from));
    await page.getByLabel('To (exclusive)').fill(day(RESPONSE_WEEK.to));
    await expect.poll(() => page.getByText(/days in the workspace's time zone, Asia\/Tokyo/).count()).toBe(1);
    // Opened 10:00–14:00 UTC is Monday in Tokyo, 15:00–19:00 UTC Tuesday: answered after 1–5 and 6–10 minutes.
    await page.getByText('Data table: First response time').click();
    const responseData = page.getByRole('table', { name: 'First response time data' });
    await expect.poll(() => responseData.locator('tbody tr').first().locator('td').allInnerTexts()).toEqual(['2026-10-05', '3', '4.6']);
    expect(await responseData.locator('tbody tr').nth(1).locator('td').allInnerTexts()).toEqual(['2026-10-06', '8', '9.6']);
    expect(problems).toEqual([]);
  });
});

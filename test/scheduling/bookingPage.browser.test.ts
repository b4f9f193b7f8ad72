import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { useWorkspace } from '../support/workspace.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { getJson, sendJson } from '../support/restFixtures.js';

// The booking page's script in a real browser over a real port (test/support/browser.ts): the CSP lets it run, it lists the slots the API
// gives in the workspace's time zone, shows field errors, books, and handles a slot taken meanwhile.
const ZONE = 'Asia/Kolkata';
const EVERY_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekday) => ({
  weekday,
  start: '09:00',
  end: '12:00',
}));

const clinic = useWorkspace({ name: 'Browser clinic' });
let session: BrowserSession;
let origin: string;
let browser: Browser;
let publicId: string;

beforeAll(async () => {
  const { harness, key } = clinic;
  await sendJson(harness, 'PATCH', '/api/v1/scheduling/settings', key, { time_zone: ZONE });
  await sendJson(harness, 'POST', '/api/v1/appointment-types', key, { name: 'Eye test', duration_minutes: 60, availability: EVERY_DAY });
  publicId = (await getJson(harness, '/api/v1/scheduling/widget', { key })).body.public_id;
  session = await openBrowserOn(harness);
  ({ origin, browser } = session);
});

afterAll(() => session?.close());

type Visit = { page: Page; problems: string[]; elsewhere: string[]; answers: string[] };

/** A page at the booking URL that records script errors and CSP violations, requests to other hosts, and the
 * status of each API answer (the console reports refused requests as errors too: those are checked here). */
async function openBookingPage(): Promise<Visit> {
  const page = await browser.newPage();
  const visit: Visit = { page, problems: [], elsewhere: [], answers: [] };
  page.on('pageerror', (error) => visit.problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) visit.problems.push(message.text());
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(origin)) visit.elsewhere.push(request.url());
  });
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/api/')) visit.answers.push(`${response.request().method()} ${path.split('/').at(-1)} ${response.status()}`);
  });
  expect((await page.goto(`${origin}/book/${publicId}`))?.status()).toBe(200);
  return visit;
}

/** Picks the type, moves to next week (always bookable) and the slot at `time` on its first day. */
async function chooseSlot(page: Page, time: string): Promise<string> {
  await page.getByLabel('Eye test').check();
  await page.locator('#slots button').first().or(page.locator('#slots p')).first().waitFor();
  await page.locator('#next-week').click();
  const slot = page.locator('#slots .times').first().getByRole('button', { name: time, exact: true });
  await slot.waitFor();
  await slot.click();
  return (await slot.getAttribute('data-start'))!;
}

describe('the booking page in Chromium', () => {
  it('runs under its CSP: lists local slots, reports a bad phone, books, and offers other times when a slot was taken', async () => {
    const first = await openBookingPage();
    const second = await openBookingPage();
    const start = await chooseSlot(first.page, '09:00');
    expect(await chooseSlot(second.page, '09:00')).toBe(start);
    // 09:00 in Kolkata (UTC+05:30) is 03:30 UTC.
    expect(start).toMatch(/T03:30:00\.000Z$/);
    expect(await first.page.locator('#slots .times').first().getByRole('button').allInnerTexts()).toEqual(['09:00', '10:00', '11:00']);

    await first.page.getByLabel('Name').fill('Grace Hopper');
    await first.page.getByLabel(/^Phone/).fill('0912 345');
    await first.page.getByRole('button', { name: 'Book' }).click();
    await expect.poll(() => first.page.locator('.field-error[data-field="phone"]').innerText()).toContain('E.164');

    await first.page.getByLabel(/^Phone/).fill('+919812345678');
    await first.page.getByLabel(/^Email/).fill('grace@example.com');
    await first.page.getByRole('button', { name: 'Book' }).click();
    await first.page.locator('#confirmation').waitFor();
    expect(await first.page.locator('#confirmation-text').innerText()).toMatch(/^Eye test on .+ at 09:00–10:00 \(Asia\/Kolkata\)\.$/);
    const reference = (await first.page.locator('#confirmation-reference').innerText()).replace('Reference: ', '');
    const booked = await getJson(clinic.harness, `/api/v1/appointments/${reference}`, { key: clinic.key });
    expect(booked.body).toMatchObject({ start_at: start, status: 'scheduled' });

    await second.page.getByLabel('Name').fill('Late Comer');
    await second.page.getByLabel(/^Phone/).fill('+919812345679');
    await second.page.getByRole('button', { name: 'Book' }).click();
    await expect.poll(() => second.page.locator('#week-problem').innerText()).toContain('just been taken');
    await expect.poll(() => second.page.locator('#slots .times').first().getByRole('button').allInnerTexts()).toEqual(['10:00', '11:00']);
    expect(await second.page.locator('#details').isHidden()).toBe(true);

    for (const { problems, elsewhere } of [first, second]) {
      expect(problems).toEqual([]);
      expect(elsewhere).toEqual([]);
    }
    expect(first.answers).toEqual(['GET slots 200', 'GET slots 200', 'POST appointments 400', 'POST appointments 201']);
    expect(second.answers).toEqual(['GET slots 200', 'GET slots 200', 'POST appointments 409', 'GET slots 200']);
  });

  it('can be framed by another site', async () => {
    // A customer's site on another origin (another port of localhost), framing the page as the snippet does.
    const site = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe src="${origin}/book/${publicId}" title="booking"></iframe>`),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const page = await browser.newPage();
    await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
    const frame = page.frameLocator('iframe');
    await expect.poll(() => frame.locator('h1').innerText()).toBe('Book an appointment with Browser clinic');
    await page.close();
    await new Promise((resolve) => site.close(resolve));
  });
});

// The Scheduling page in Chromium, as an owner uses it: creates an appointment type with its weekly hours, books
// it for a contact at a free time the API offers, sees the appointment in that week with the contact's name,
// copies the widget code, issues and rotates the calendar feed link (the old link stops, the new one lists the
// appointment), cancels the appointment, and deactivates the type, which takes it out of booking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorkspace } from '../support/workspace.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { ownerSession } from '../support/people.js';
import { graphqlCalls } from '../support/results.js';
import { signedInConsole, type ConsolePage } from '../support/consolePages.js';

const clinic = useWorkspace({ name: 'Console clinic' });
let session: BrowserSession;
let opened: ConsolePage;

/** The Monday after today, as the date input writes it: always in the future and inside office hours. */
function nextMonday(): string {
  const today = new Date();
  const monday = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7 || 7));
  return monday.toISOString().slice(0, 10);
}

beforeAll(async () => {
  const { harness, key, workspace } = clinic;
  const owner = await ownerSession(harness, workspace);
  await graphqlCalls(harness).data(key, 'mutation { contactCreate(name: "Ada Lovelace", phone_number: "+14155550123") { id } }');
  session = await openBrowserOn(harness);
  opened = await signedInConsole(session, owner.body.user.email, '/scheduling');
});
afterAll(async () => {
  await opened?.context.close();
  await session?.close();
});

describe('the Scheduling page', () => {
  it('creates a type, books it for a contact, shows it in the week, copies the widget code and rotates the feed link', async () => {
    const { page, context, problems } = opened;
    await page.getByRole('heading', { level: 1, name: 'Scheduling' }).waitFor();

    const form = page.getByRole('form', { name: 'New appointment type' });
    await form.getByLabel('Name').fill('Consultation');
    await form.getByLabel('Length in minutes').fill('45');
    await form.getByRole('button', { name: 'Remove window 5' }).click();
    await form.getByRole('button', { name: 'Create the type' }).click();
    const row = page.getByTestId('appointment-type-row');
    await expect.poll(() => row.allInnerTexts()).toEqual([expect.stringContaining('Consultation\t45 min\t0 min\tMon 09:00–17:00')]);
    expect(await row.innerText()).not.toContain('Fri');

    const booking = page.getByRole('form', { name: 'Book an appointment' });
    await booking.getByLabel('Day').fill(nextMonday());
    await expect.poll(() => booking.getByLabel('Time').locator('option').first().textContent()).toBe('09:00');
    await booking.getByLabel('Time').selectOption({ label: '10:30' });
    await booking.getByLabel('Find a contact').fill('Ada');
    await expect.poll(() => booking.getByLabel('Contact').locator('option').allTextContents()).toEqual(['Ada Lovelace']);
    await booking.getByLabel('Notes (optional)').fill('First visit');
    await booking.getByRole('button', { name: 'Book' }).click();
    await booking.getByRole('status').waitFor();

    const monday = new Date(`${nextMonday()}T00:00:00Z`).toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
    await page.getByRole('heading', { name: `Week of ${monday}` }).waitFor();
    const appointment = page.getByTestId('appointment');
    await expect.poll(() => appointment.innerText()).toContain('10:30–11:15 Consultation with Ada Lovelace');
    expect(await appointment.innerText()).toContain('First visit');
    // The booked time is no longer offered once the form has fetched the day's free times again.
    await expect.poll(() => booking.getByLabel('Time').locator('option').allTextContents()).not.toContain('10:30');

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.origin });
    await page.getByRole('button', { name: 'Copy the widget code' }).click();
    await page.getByRole('button', { name: 'Copied the widget code' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await page.getByLabel('Widget code for your website').inputValue());
    const { widgetEmbed } = await graphqlCalls(clinic.harness).data(clinic.key, '{ widgetEmbed { public_id } }');
    expect(copied).toContain(widgetEmbed.public_id);

    await page.getByRole('button', { name: 'Issue a feed link' }).click();
    const first = await page.getByTestId('secret').innerText();
    await page.getByRole('button', { name: 'Rotate the feed link' }).click();
    await expect.poll(() => page.getByTestId('secret').innerText()).not.toBe(first);
    const second = await page.getByTestId('secret').innerText();
    expect((await clinic.harness.fetch(new URL(first).pathname)).status).toBe(404);
    const feed = await clinic.harness.fetch(new URL(second).pathname);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('Consultation');

    await appointment.getByRole('button', { name: 'Cancel 10:30' }).click();
    await expect.poll(() => appointment.innerText()).toContain('cancelled');
    await page.getByRole('button', { name: 'Deactivate Consultation' }).click();
    await page.getByText('Create an appointment type to book appointments.').waitFor();
    expect(problems).toEqual([]);
  });
});

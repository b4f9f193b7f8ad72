// Business hours and teams in the console, in Chromium: an owner sets Mon–Fri 09:00–17:00 in a time zone and a
// holiday, saves, and sees them after a reload; a window ending before it starts is refused beside its field; the
// owner creates a team, adds two people, one of them sets themselves away on the Account page and the team list
// shows it. The pages have no serious accessibility violations at 1440 and 390 px. Another door: a member sees no
// Business hours entry, and the API refuses a member's change of business hours (REST 403, GraphQL scope error).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorkspace } from '../support/workspace.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { asPerson, invitePerson, ownerSession, type Browser } from '../support/people.js';
import { sendJson } from '../support/restFixtures.js';
import { signedInConsole, type ConsolePage } from '../support/consolePages.js';
import { seriousAccessibilityViolations } from '../support/accessibility.js';

const office = useWorkspace({ name: 'Hours office' });
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
let session: BrowserSession;
let opened: ConsolePage;
let member: Browser;
let admin: Browser;

beforeAll(async () => {
  const { harness, workspace } = office;
  const owner = await ownerSession(harness, workspace);
  member = await invitePerson(harness, owner, `mia-${Date.now()}@example.com`, 'member');
  admin = await invitePerson(harness, owner, `ali-${Date.now()}@example.com`, 'admin');
  session = await openBrowserOn(harness);
  opened = await signedInConsole(session, owner.body.user.email, '/settings/business-hours');
});
afterAll(async () => {
  await opened?.context.close();
  await session?.close();
});

describe('the Business hours page', () => {
  it('saves weekly hours in a time zone and a holiday, and shows them after a reload', async () => {
    const { page, problems } = opened;
    await page.getByRole('heading', { level: 1, name: 'Business hours' }).waitFor();
    const form = page.getByRole('form', { name: 'Business hours' });
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    // A workspace that never set its hours is open around the clock: one 00:00–24:00 window a day.
    for (const weekday of WEEKDAYS) {
      await form.getByLabel(`${weekday} from`).fill('09:00');
      await form.getByLabel(`${weekday} until`).fill('17:00');
    }
    for (const weekday of ['Saturday', 'Sunday']) await form.getByRole('button', { name: `Remove a ${weekday} window` }).click();
    await form.getByRole('button', { name: 'Add a holiday' }).click();
    await form.getByLabel('Holiday 1 date').fill('2026-12-25');
    await form.getByLabel('Holiday 1 name (optional)').fill('Christmas');
    await form.getByRole('button', { name: 'Save the business hours' }).click();
    await form.getByText('Saved.').waitFor();

    await page.reload();
    await form.getByLabel('Time zone').waitFor();
    expect(await form.getByLabel('Time zone').inputValue()).toBe('Europe/Berlin');
    for (const weekday of WEEKDAYS) {
      expect(await form.getByLabel(`${weekday} from`).inputValue()).toBe('09:00');
      expect(await form.getByLabel(`${weekday} until`).inputValue()).toBe('17:00');
    }
    for (const weekday of ['saturday', 'sunday']) expect(await page.getByTestId(`hours-${weekday}`).innerText()).toContain('Closed.');
    expect(await form.getByLabel('Holiday 1 date').inputValue()).toBe('2026-12-25');
    expect(await form.getByLabel('Holiday 1 name (optional)').inputValue()).toBe('Christmas');
    const { body } = await sendJson(office.harness, 'GET', '/api/v1/business-hours', office.key);
    expect(await page.getByTestId('open-now').innerText()).toBe(body.open_now ? 'Open now.' : 'Closed now.');
    expect(problems).toEqual([]);
  });

  it('shows the API refusal of a window ending before it starts beside that field', async () => {
    const { page } = opened;
    const form = page.getByRole('form', { name: 'Business hours' });
    await form.getByLabel('Monday until').fill('08:00');
    await form.getByRole('button', { name: 'Save the business hours' }).click();
    const mondayUntil = form.locator('.field', { has: page.getByLabel('Monday until') });
    await expect.poll(() => mondayUntil.innerText()).toContain('must be after start');
    expect(await form.locator('.field', { has: page.getByLabel('Tuesday until') }).innerText()).not.toContain('must be');
  });

  it('has no serious accessibility violations at 1440 and 390 px', async () => {
    const { page } = opened;
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});

describe('teams on the Team page', () => {
  it('creates a team, adds two people, and shows a member who set themselves away', async () => {
    const { page, problems } = opened;
    await page.goto(`${session.origin}/settings/team`);
    const creating = page.getByRole('form', { name: 'New team' });
    await creating.getByLabel('Team name').fill('Support');
    await creating.getByLabel('Capacity per person').fill('3');
    await creating.getByRole('button', { name: 'Create the team' }).click();
    const team = page.getByRole('region', { name: 'Team Support' });
    await team.getByText('Up to 3 open conversations per person').waitFor();
    for (const person of [member, admin]) {
      const adding = team.getByRole('form', { name: 'Add to team Support' });
      await adding.getByLabel('Person to add to Support').selectOption({ label: person.body.user.name });
      await adding.getByRole('button', { name: 'Add to Support' }).click();
      await team.getByText(`${person.body.user.name} — online`).waitFor();
    }

    const mia = await signedInConsole(session, member.body.user.email, '/settings/account');
    await mia.page.getByRole('button', { name: 'Set away' }).click();
    await mia.page.getByText('You are away.').waitFor();
    await mia.context.close();

    await page.reload();
    await expect
      .poll(() => team.getByTestId('team-member').allInnerTexts())
      .toEqual(
        expect.arrayContaining([
          expect.stringContaining(`${member.body.user.name} — away`),
          expect.stringContaining(`${admin.body.user.name} — online`),
        ]),
      );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('another door', () => {
  it('a member sees no Business hours entry and the API refuses their change', async () => {
    const mia = await signedInConsole(session, member.body.user.email, '/inbox');
    await mia.page.getByRole('link', { name: 'Account' }).waitFor();
    expect(await mia.page.getByRole('link', { name: 'Business hours' }).count()).toBe(0);
    await mia.context.close();

    const memberKey = await office.harness.key(office.workspace.workspace_id, member.body.scopes);
    const refused = await sendJson(office.harness, 'PATCH', '/api/v1/business-hours', memberKey, { time_zone: 'UTC' });
    expect(refused.status).toBe(403);
    const viaSession = await asPerson(office.harness, member, 'mutation { businessHoursUpdate(time_zone: "UTC") { time_zone } }');
    expect(viaSession.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    const { body } = await sendJson(office.harness, 'GET', '/api/v1/business-hours', office.key);
    expect(body.time_zone).toBe('Europe/Berlin');
  });
});

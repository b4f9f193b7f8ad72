// Console pages in Chromium for tests that are about a page rather than about signing in: a browser profile of
// its own (cookies, a fixed locale and time zone so times read the same everywhere), the page's script errors
// collected, and a person signed in through the sign-in form on the way to `path`.
import type { BrowserContext, Page } from 'playwright-core';
import type { BrowserSession } from './browser.js';
import { PASSWORD } from './people.js';

export type ConsolePage = { page: Page; context: BrowserContext; problems: string[] };

export async function openConsolePage(session: BrowserSession, width = 1440): Promise<ConsolePage> {
  const context = await session.browser.newContext({
    viewport: { width, height: width > 800 ? 900 : 844 },
    locale: 'en-GB',
    timezoneId: 'UTC',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(message.text());
  });
  return { page, context, problems };
}

/** Signs `email` in on the sign-in form shown at `path` and waits for the console's shell. */
export async function signInAt(page: Page, origin: string, email: string, path: string): Promise<void> {
  await page.goto(`${origin}${path}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /Sign out/ }).waitFor();
}

/** The workspace owner's e-mail, with the tests' password set (test/support/people.ts). */
export async function signedInConsole(session: BrowserSession, email: string, path: string, width = 1440): Promise<ConsolePage> {
  const opened = await openConsolePage(session, width);
  await signInAt(opened.page, session.origin, email, path);
  return opened;
}

// The Knowledge page in Chromium, as a person of the workspace uses it: a Markdown file chosen in the browser becomes a
// document (a file the API cannot read is refused with why), a typed one is added, renamed and deleted, an FAQ is
// added and edited, a question typed into the search (reached by keyboard, sent with Enter) shows the agent's ranking
// with the FAQ first and marked as its answer; then customers ask on WhatsApp, the agent worker answers, and the page
// shows each reply with the FAQ or the sentence and document it used, and the FAQ among the most used. axe-core finds
// no serious or critical violation at a phone's and a desktop's width, and nothing scrolls sideways.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openAgentWorld } from '../support/agent.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { ownerSession, PASSWORD } from '../support/people.js';
import { seriousAccessibilityViolations } from '../support/accessibility.js';

const { harness, conversation, settledRuns } = await openAgentWorld();

const HOURS = 'Our customer service is open Monday to Saturday from 9:00 to 18:00 and closed on Sundays.';
const SHIPPING =
  'We ship to Spain, Portugal, France and Germany, and delivery takes 2 to 4 working days. ' +
  'Shipping is free for orders over 50 euros; below that it costs 4.90 euros. ' +
  HOURS;
const FAQ_QUESTION = 'How much does shipping cost?';
const FAQ_ANSWER = 'Shipping costs 4.90 euros, and nothing from 50 euros up.';

let session: BrowserSession;
let chat: Awaited<ReturnType<typeof conversation>>;
let ownerEmail: string;

beforeAll(async () => {
  session = await openBrowserOn(harness);
  chat = await conversation();
  await ownerSession(harness, { workspace_id: chat.ws.workspaceId });
  ownerEmail = (await harness.db.prisma.user.findFirstOrThrow({ where: { company_id: chat.ws.workspaceId, role: 'owner' } })).email;
});
afterAll(() => session?.close());

async function knowledgePage(width = 1440): Promise<{ page: Page; problems: string[] }> {
  const context = await session.browser.newContext({ viewport: { width, height: 900 } });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${session.origin}/knowledge`);
  await page.getByLabel('E-mail').fill(ownerEmail);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Knowledge', exact: true }).waitFor();
  return { page, problems };
}

const rowTexts = async (rows: Locator) => (await rows.allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());

/** Presses Tab until the element is focused, as a keyboard user reaches it; fails if it never is. */
async function tabTo(page: Page, label: string) {
  for (let presses = 0; presses < 40; presses += 1) {
    await page.keyboard.press('Tab');
    if (await page.getByLabel(label).evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${label} is not reachable with Tab`);
}

describe('the Knowledge page', { timeout: 120_000 }, () => {
  it('adds a document from a file and an FAQ, ranks the FAQ first, and shows what each agent reply used', async () => {
    const { page, problems } = await knowledgePage();
    await page.getByText('No documents yet').waitFor();
    await page.getByText('The agent has not replied yet').waitFor();

    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/content type/i);

    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'shipping.md', mimeType: 'text/markdown', buffer: Buffer.from(`# Shipping\n\n${SHIPPING}\n`) });
    await page.getByLabel('Title of the file').fill('Shipping and returns');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: '“Shipping and returns” was added (language en).' }).waitFor();
    expect(await page.getByTestId('document-row').innerText()).toMatch(/Shipping and returns\s+en\s+shipping\.md/);

    await page.getByLabel('Question', { exact: true }).fill(FAQ_QUESTION);
    await page.getByLabel('Answer', { exact: true }).fill('Shipping costs 4.90 euros.');
    await page.getByRole('button', { name: 'Add the FAQ' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `The FAQ “${FAQ_QUESTION}” was added (language en).` })
      .waitFor();
    await page.getByRole('button', { name: `Edit ${FAQ_QUESTION}` }).click();
    await page.getByLabel('Answer of the FAQ').fill(FAQ_ANSWER);
    await page.getByRole('button', { name: 'Save the FAQ' }).click();
    await expect.poll(() => page.getByTestId('faq-row').innerText()).toContain(FAQ_ANSWER);

    await page.getByLabel('Title', { exact: true }).fill('Gift card');
    await page.getByLabel('Text', { exact: true }).fill('Gift cards are sold in every store.');
    await page.getByRole('button', { name: 'Add the document' }).click();
    await page.getByRole('status').filter({ hasText: '“Gift card” was added (language en).' }).waitFor();
    await page.getByRole('button', { name: 'Edit Gift card' }).click();
    await page.getByLabel('Title of the document').fill('Gift cards');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => rowTexts(page.getByTestId('document-row')))
      .toEqual([expect.stringMatching(/^Gift cards en typed text /), expect.stringMatching(/^Shipping and returns en shipping\.md /)]);
    await page.getByRole('button', { name: 'Edit Gift cards' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete “Gift cards” for good' }).click();
    await expect.poll(() => page.getByTestId('document-row').count()).toBe(1);

    await page.getByRole('heading', { name: 'Knowledge', exact: true }).click();
    await tabTo(page, 'Customer question');
    await page.keyboard.type('How much is the shipping cost to Spain?');
    await page.keyboard.press('Enter');
    const ranked = page.getByTestId('ranked');
    await expect.poll(() => ranked.first().innerText()).toMatch(/^FAQ\s+Shipping costs 4\.90 euros, and nothing from 50 euros up\./);
    expect(await ranked.first().innerText()).toMatch(/score \d\.\d\d · the agent answers with this/);
    expect(await ranked.nth(1).innerText()).toMatch(/^Sentence .* from “Shipping and returns” score \d\.\d\d/);

    await chat.say('How much is the shipping cost to Spain?');
    await settledRuns(chat.conversationId, 1);
    await chat.say('Are you open on Sunday?');
    await settledRuns(chat.conversationId, 2);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const replies = page.getByTestId('reply-row');
    await expect.poll(() => replies.count()).toBe(2);
    // Newest first: the reply, then what it was drawn from (whitespace between cells read as one space).
    expect(await rowTexts(replies)).toEqual([
      expect.stringContaining(`Sentence “${HOURS}” of the document “Shipping and returns”, score 0.`),
      expect.stringContaining(`${FAQ_ANSWER} FAQ “${FAQ_QUESTION}” score 0.`),
    ]);
    expect((await rowTexts(replies))[0]).toContain(`${HOURS} Source: Shipping and returns`);
    expect(await rowTexts(page.getByTestId('usage-row'))).toEqual([
      expect.stringMatching(/^Shipping and returns Document 1 /),
      expect.stringMatching(/^How much does shipping cost\? FAQ 1 /),
    ]);
    expect(problems).toEqual([]);
  });

  it('has no serious or critical accessibility violation at a phone’s and a desktop’s width, and does not scroll sideways', async () => {
    for (const width of [390, 1440]) {
      const { page } = await knowledgePage(width);
      await page.getByTestId('document-row').first().waitFor();
      await page.getByTestId('reply-row').first().waitFor();
      await page.getByLabel('Customer question').fill('Are you open on Sunday?');
      await page.getByLabel('Customer question').press('Enter');
      await page.getByTestId('ranked').first().waitFor();
      expect(await seriousAccessibilityViolations(page), `at ${width} px`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `at ${width} px`).toBeLessThanOrEqual(0);
    }
  });
});

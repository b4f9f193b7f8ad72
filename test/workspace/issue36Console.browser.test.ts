// The console's WhatsApp operations in Chromium (issue 36), as an owner uses them: an integration's limits shown
// with where they came from, throughput and tier changed by hand and then read from the provider (the Graph API
// fake); Settings → Consent keywords edited, after which an inbound "parar" opts its contact out. Each page has no serious
// accessibility violation. Another door: a member's session and a key with the customers scope alone may not change the keywords.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { seriousAccessibilityViolations } from '../support/accessibility.js';
import { asPerson, invitePerson, ownerSession, PASSWORD, type Browser } from '../support/people.js';
import { inboundPayload } from '../support/whatsappPayloads.js';

const world = await openMessagingWorld('whatsapp');
const h = world.harness;
const graph = world.graph!;
const prisma = h.db.prisma;

let session: BrowserSession;
let ws: MessagingWorkspace;
let owner: Browser;
let ownerEmail: string;

beforeAll(async () => {
  session = await openBrowserOn(h);
  ws = await world.workspace();
  owner = await ownerSession(h, { workspace_id: ws.workspaceId });
  ownerEmail = (await prisma.user.findFirstOrThrow({ where: { company_id: ws.workspaceId, role: 'owner' } })).email;
});
afterAll(() => session?.close());

async function signedIn(path: string, heading: string): Promise<{ page: Page; problems: string[] }> {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${session.origin}${path}`);
  await page.getByLabel('E-mail').fill(ownerEmail);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
  return { page, problems };
}

function newNumber(): string {
  return `1555${String(Date.now()).slice(-7)}`;
}

describe("the console's WhatsApp operations", { timeout: 120_000 }, () => {
  it("shows a number's limits with their source, changes throughput and tier by hand, then reads them from the provider", async () => {
    const { page, problems } = await signedIn('/settings/integrations', 'Integrations');
    // The workspace also has its sandbox number: this test works on the WhatsApp one.
    const limits = page.getByRole('article').filter({ hasText: '(whatsapp,' }).getByRole('region', { name: 'Limits' });
    await expect.poll(() => limits.getByTestId('throughput').innerText()).toMatch(/80 messages per second — the default/);
    expect(await limits.getByTestId('tier').innerText()).toMatch(/not known/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await limits.getByLabel('Throughput (messages per second)').fill('25');
    await limits.getByLabel('Messaging-limit tier').selectOption('TIER_10K');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    await expect.poll(() => limits.getByTestId('throughput').innerText()).toMatch(/25 messages per second — set by hand/);
    expect(await limits.getByTestId('tier').innerText()).toMatch(/10,000 recipients per 24 hours — set by hand/);
    expect(await prisma.integration.findUniqueOrThrow({ where: { id: ws.integrationId } })).toMatchObject({
      throughput_per_second: 25,
      messaging_limit_tier: 'TIER_10K',
      messaging_limit_tier_source: 'manual',
    });

    graph.numberFields.set(ws.phoneNumberId, {
      whatsapp_business_manager_messaging_limit: 'TIER_2K',
      quality_rating: 'YELLOW',
      throughput: { level: 'STANDARD' },
    });
    await limits.getByRole('button', { name: 'Read from the provider' }).click();
    await expect.poll(() => limits.getByTestId('tier').innerText()).toMatch(/2,000 recipients per 24 hours — told by the provider/);
    expect(await limits.getByTestId('throughput').innerText()).toMatch(/80 messages per second — told by the provider/);
    expect(await limits.getByTestId('quality').innerText()).toMatch(/medium \(yellow\)/);
    expect(problems).toEqual([]);
  });

  it('edits the consent keywords, after which an inbound "parar" opts its contact out and is answered', async () => {
    const { page, problems } = await signedIn('/settings/consent', 'Consent');
    const keywords = page.getByLabel('Opt-out keywords');
    await expect.poll(() => keywords.inputValue()).toBe('STOP, UNSUBSCRIBE, PARAR, BAJA');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await keywords.fill('PARAR, alto');
    await page.getByLabel('Opt-out confirmation').fill('Listo: no more promotions.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    const from = newNumber();
    expect((await world.webhook(inboundPayload(ws.phoneNumberId, { from, text: ' parar ' }), ws.appSecret)).status).toBe(200);
    const contact = await prisma.customer.findFirstOrThrow({ where: { company_id: ws.workspaceId, wa_id: from } });
    expect(contact).toMatchObject({ marketing_consent_status: 'opted_out', marketing_consent_source: 'keyword' });
    await graph.settle();
    expect(
      graph.sends.some(
        (sent) => sent.body['to'] === from && (sent.body['text'] as { body?: string } | undefined)?.body === 'Listo: no more promotions.',
      ),
    ).toBe(true);
    expect(problems).toEqual([]);
  });

  it("refuses the keywords to a member's session and to a key with the customers scope alone (403)", async () => {
    const member = await invitePerson(h, owner, `member-${randomBytes(4).toString('hex')}@example.com`, 'member');
    const bySession = await asPerson(h, member, 'mutation { consentSettingsUpdate(opt_out_keywords: ["NO"]) { opt_out_keywords } }');
    expect(bySession.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    const memberKey = await h.key(ws.workspaceId, ['customers']);
    const byKey = await h.fetch('/api/v1/consent-settings', {
      method: 'PATCH',
      key: memberKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ opt_out_keywords: ['NO'] }),
    });
    expect(byKey.status).toBe(403);
    const settings = await h.fetch('/api/v1/consent-settings', { key: ws.apiKey });
    expect(((await settings.json()) as { opt_out_keywords: string[] }).opt_out_keywords).toEqual(['PARAR', 'ALTO']);
  });
});

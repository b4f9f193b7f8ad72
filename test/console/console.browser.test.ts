// The console in Chromium, as the people of a workspace use it: signing in (a generic error, then the lock-out),
// the inbox updating live when the provider delivers a signed message, a reply whose ticks move to read, a
// template sent with its parameters once the 24-hour window is closed, a failing webhook receiver seen in the
// delivery log and then redelivered, a member who cannot manage keys, and a cross-site form that cannot act
// with the cookie. Each page is checked at a phone's and a desktop's width.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { projectPath } from '../../infra/paths.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { inboundPayload } from '../support/whatsappPayloads.js';
import { invitePerson, ownerSession, PASSWORD } from '../support/people.js';
import { seedConversation } from '../support/conversations.js';
import { startReceiver, LOCAL_RECEIVER_HOSTS } from '../support/webhookReceiver.js';
import { takeTurnsWithOtherWorkerFiles, testDeliveryOptions } from '../support/webhooks.js';
import { AGENT_WORKER_LOCK, FAST_AGENT_OPTIONS } from '../support/agent.js';
import { startAgentWorker } from '../../workers/agent/worker.js';
import { agentOperations } from '../../app/backgroundWork.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { startDeliveryWorker } from '../../workers/webhooks/worker.js';
import { createLogger } from '../../infra/observability/logger.js';

// This file runs a webhook delivery worker and an AI agent worker, each in one test.
takeTurnsWithOtherWorkerFiles();
takeTurnsWithOtherWorkerFiles(AGENT_WORKER_LOCK);
const world = await openMessagingWorld('sandbox', { webhookTargets: createTargetGuard({ allowedHosts: LOCAL_RECEIVER_HOSTS }) });
const h = world.harness;
// Screenshots of moments go to docs/console with CONSOLE_SCREENSHOTS=1 (to refresh the README's), else to a temporary
// folder; each page as it opens is test/console/everyPage.browser.test.ts's.
const SCREENSHOTS = process.env['CONSOLE_SCREENSHOTS'] === '1' ? projectPath('docs/console') : join(tmpdir(), 'messaging-crm-console');
mkdirSync(SCREENSHOTS, { recursive: true });

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

/** A browser profile of its own (cookies), with the page's errors collected: every test expects none. */
async function newPage(width = 1440): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
  const context = await session.browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 } });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(message.text());
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(session.origin) && !/^(data|blob):/.test(request.url())) problems.push(`request to ${request.url()}`);
  });
  return { page, context, problems };
}

async function signIn(page: Page, email: string, password = PASSWORD, path = '/inbox') {
  await page.goto(`${session.origin}${path}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  // Each attempt's answer is awaited, so what the page shows next is that answer's.
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/auth/sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await answered;
}

async function signedIn(width = 1440, path = '/inbox') {
  const opened = await newPage(width);
  await signIn(opened.page, ownerEmail, PASSWORD, path);
  await opened.page.getByRole('button', { name: /Sign out/ }).waitFor();
  return opened;
}

function digits(): string {
  return `1555${Math.floor(Math.random() * 1e7)
    .toString()
    .padStart(7, '0')}`;
}

describe('the console in a browser', { timeout: 90_000 }, () => {
  it('signs people in with one generic error for a wrong e-mail or password, and locks an account out after five failures', async () => {
    const owner = await ownerSession(h, { workspace_id: workspace.workspaceId });
    await invitePerson(h, owner, `locked-${Date.now()}@example.com`, 'member');
    const locked = (
      await h.db.prisma.user.findFirstOrThrow({ where: { company_id: workspace.workspaceId, email: { startsWith: 'locked-' } } })
    ).email;
    const { page, problems } = await newPage();

    await signIn(page, 'nobody@example.com', 'whatever password');
    const unknown = await page.getByRole('alert').innerText();
    await signIn(page, locked, 'a wrong password');
    expect(await page.getByRole('alert').innerText()).toBe(unknown);
    for (let attempt = 2; attempt <= 5; attempt++) await signIn(page, locked, 'a wrong password');
    await signIn(page, locked, PASSWORD);
    expect(await page.getByRole('alert').innerText()).toMatch(/Too many failed sign-ins/);
    expect(await page.getByRole('button', { name: /Sign out/ }).count()).toBe(0);

    await signIn(page, ownerEmail, PASSWORD);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/inbox');
    const cookie = (await page.context().cookies()).find((candidate) => candidate.name === 'mcrm_session');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });
    expect(problems).toEqual([]);
  });

  it('shows a message the provider delivers without a reload, and a reply’s ticks move to read, over one live stream', async () => {
    const { page, problems } = await newPage(1440);
    // The live streams the page opens (graphql-sse asks for text/event-stream alone; urql's queries accept it among others):
    // the inbox and the open conversation share one.
    const streams: string[] = [];
    page.on('request', (request) => {
      if (request.headers()['accept'] === 'text/event-stream') streams.push(JSON.parse(request.postData() ?? '{}').operationName);
    });
    await signIn(page, ownerEmail, PASSWORD, '/inbox');
    const from = digits();
    const name = `Ana Live ${from.slice(-4)}`;
    const delivered = await world.webhook(
      inboundPayload(workspace.phoneNumberId, { from, name, text: 'Has my order shipped?' }),
      workspace.appSecret,
    );
    expect(delivered.status).toBe(200);

    const row = page.getByTestId('conversation-row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.getByLabel('1 unread').count()).toBe(1);
    await row.click();
    await page.getByTestId('message').filter({ hasText: 'Has my order shipped?' }).waitFor();
    await expect.poll(() => row.getByLabel('1 unread').count()).toBe(0);
    expect(await page.getByText(/The 24-hour window closes in 23 h/).count()).toBe(1);

    await page.getByLabel(/^Reply/).fill('Yes, it left this morning.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const reply = page.getByTestId('message').filter({ hasText: 'Yes, it left this morning.' });
    await reply.waitFor();
    await reply.locator('[data-status="read"]').waitFor({ timeout: 20_000 });

    await world.webhook(inboundPayload(workspace.phoneNumberId, { from, name, text: 'Thanks!' }), workspace.appSecret);
    await page.getByTestId('message').filter({ hasText: 'Thanks!' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'conversation-1440.png') });
    expect(streams).toEqual(['InboxConversationsLive']);
    expect(problems).toEqual([]);
  });

  it('shows a received photo inline (read with the session cookie), a shared location and a contact card', async () => {
    const { page, problems } = await signedIn();
    const from = digits();
    const name = `Rui Media ${from.slice(-4)}`;
    const photo = { id: 'sandbox-media-photo', mime_type: 'image/jpeg', caption: 'The damaged box' };
    for (const message of [
      { type: 'image', image: photo },
      { type: 'location', location: { latitude: 38.7223, longitude: -9.1393, name: 'Home', address: 'Rua Augusta 1' } },
      { type: 'contacts', contacts: [{ name: { formatted_name: 'Marta Reis' }, phones: [{ phone: '+351 912 000 111' }] }] },
    ]) {
      expect((await world.webhook(inboundPayload(workspace.phoneNumberId, { from, name, message }), workspace.appSecret)).status).toBe(200);
    }
    await page.getByTestId('conversation-row').filter({ hasText: name }).click();
    const image = page.getByRole('img', { name: 'The damaged box' });
    await image.waitFor();
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(160);
    expect(await page.getByRole('link', { name: /image \(image\/jpeg\)/ }).getAttribute('href')).toMatch(
      /^\/api\/v1\/messages\/[0-9a-f-]+\/media$/,
    );
    await page.getByText('📍 Home, Rua Augusta 1 (38.7223, -9.1393)').waitFor();
    await page.getByText(/👤 Marta Reis — \+351 912 000 111/).waitFor();
    expect(problems).toEqual([]);
  });

  it('offers the approved templates with a form for their parameters once the 24-hour window is closed', async () => {
    const customer = await h.db.prisma.customer.create({
      data: { company_id: workspace.workspaceId, name: 'Bruno Closed', phone_number: `+${digits()}` },
    });
    const conversation = await seedConversation(
      h.db.prisma,
      { workspace_id: workspace.workspaceId, integration_id: workspace.integrationId },
      customer.id,
      {
        lastMessageAt: new Date(Date.now() - 2 * 24 * 3600 * 1000),
      },
    );
    const { page, problems } = await signedIn(390, `/inbox/${conversation.id}`);

    await page.getByText(/The 24-hour window is closed/).waitFor();
    expect(await page.getByLabel(/^Reply/).count()).toBe(0);
    await page.getByLabel('Template').selectOption({ label: 'order_confirmation (en_US)' });
    await page.getByLabel('Header {{1}}').fill('#1042');
    await page.getByLabel('{{1}}', { exact: true }).fill('Bruno');
    await page.getByLabel('{{2}}', { exact: true }).fill('Friday');
    await page.screenshot({ path: join(SCREENSHOTS, 'template-390.png') });
    await page.getByRole('button', { name: 'Send template' }).click();

    const sent = page.getByTestId('message').filter({ hasText: 'Template order_confirmation (en_US)' });
    await sent.waitFor();
    const stored = await h.db.prisma.message.findFirstOrThrow({ where: { conversation_id: conversation.id, direction: 'outbound' } });
    expect(stored.body).toContain('Hi Bruno, thank you for your order! It will ship on Friday.');
    expect(problems).toEqual([]);
  });

  it('finds a contact, edits its fields, tags it, records its marketing consent, and shows its channels and conversations', async () => {
    const phone = `+${digits()}`;
    const created = await h.graphql<{ contactCreate: { id: string } }>(
      workspace.apiKey,
      'mutation ($phone: String!) { contactCreate(name: "Carla Contact", phone_number: $phone, email: "carla@example.com") { id } }',
      { phone },
    );
    const contactId = created.body.data!.contactCreate.id;
    await seedConversation(h.db.prisma, { workspace_id: workspace.workspaceId, integration_id: workspace.integrationId }, contactId, {
      messages: ['Do you ship to Porto?'],
    });
    const { page, problems } = await signedIn(1440, '/contacts');

    await page.getByLabel('Search').fill('Carla');
    await page.getByTestId('contact-row').filter({ hasText: 'Carla Contact' }).click();
    await page.getByRole('heading', { name: 'Carla Contact' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Carla Costa');
    await page.getByLabel('Notes').fill('Prefers e-mail before noon.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Carla Costa' }).waitFor();
    await page.getByLabel('Add a tag').fill('vip');
    await page.getByRole('button', { name: 'Tag', exact: true }).click();
    await page.getByRole('button', { name: 'Remove tag vip' }).waitFor();
    const consent = page.getByRole('region', { name: 'Marketing consent' });
    expect(await consent.innerText()).toContain('Unknown');
    await page.getByLabel('Record consent').selectOption('opted_out');
    await page.getByRole('button', { name: 'Record' }).click();
    await consent.getByText(/Opted out · by console/).waitFor();
    expect(await page.getByRole('region', { name: 'Channels' }).innerText()).toContain(phone);
    await page
      .getByRole('region', { name: 'Conversations' })
      .getByRole('link', { name: /Do you ship to Porto\?/ })
      .click();
    await page.getByTestId('message').filter({ hasText: 'Do you ship to Porto?' }).waitFor();

    const stored = await h.db.prisma.customer.findUniqueOrThrow({
      where: { id: contactId },
      include: { tags: { include: { tag: true } } },
    });
    expect(stored).toMatchObject({
      name: 'Carla Costa',
      notes: 'Prefers e-mail before noon.',
      marketing_consent_status: 'opted_out',
      marketing_consent_source: 'console',
    });
    expect(stored.tags.map((assignment) => assignment.tag.name)).toEqual(['vip']);
    expect(problems).toEqual([]);
  });

  // Every page's labels, width and axe findings: test/console/everyPage.browser.test.ts.
  it('reaches API keys from the inbox by keyboard', async () => {
    const { page } = await signedIn();
    await page.goto(`${session.origin}/inbox`);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    for (let step = 0; step < 10; step++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'API keys') break;
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
  });

  it('invites a person from Settings → Team with a one-time link, and changes their role', async () => {
    const { page, problems } = await signedIn(1440, '/settings/team');
    const email = `invited-${Date.now()}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const link = new URL(await page.getByTestId('secret').innerText());
    expect(link.pathname).toBe('/invite');
    await page.getByText(`${email} as admin`).waitFor();

    const { page: invited } = await newPage(390);
    await invited.goto(`${session.origin}/invite${link.hash}`);
    await invited.getByLabel('Your name').fill('Ines Invited');
    await invited.getByLabel('Password').fill(PASSWORD);
    await invited.getByRole('button', { name: 'Join' }).click();
    await invited.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(await invited.getByRole('link', { name: 'API keys', exact: true }).count()).toBe(1);

    await page.reload();
    await page.getByLabel(`Role of ${email}`).selectOption('member');
    await expect.poll(async () => (await h.db.prisma.user.findFirstOrThrow({ where: { email } })).role).toBe('member');
    expect(problems).toEqual([]);
  });

  it('sets the AI agent up in Settings, switches it on for a conversation, and shows its answer with the run beside it', async () => {
    await h.graphql(
      workspace.apiKey,
      'mutation { knowledgeDocumentCreate(title: "Opening hours", content: "Our opening hours: Monday to Friday, 9:00 to 18:00.") { id } }',
    );
    const worker = startAgentWorker(h.services, agentOperations(h.services), FAST_AGENT_OPTIONS, createLogger('silent'));
    onTestFinished(() => worker.stop());
    const { page, problems } = await signedIn(1440, '/settings/agent');
    await page.getByLabel('Greeting (said once, before the first answer)').fill('Hello, this is the shop assistant.');
    await page.getByLabel('Hand-off keywords (comma-separated)').fill('human, agent please');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const settings = await h.graphql<{ agentSettings: { kind: string; greeting: string; handoff_keywords: string[] } }>(
      workspace.apiKey,
      '{ agentSettings { kind greeting handoff_keywords } }',
    );
    expect(settings.body.data?.agentSettings).toEqual({
      kind: 'knowledge',
      greeting: 'Hello, this is the shop assistant.',
      handoff_keywords: ['human', 'agent please'],
    });

    const from = digits();
    await world.webhook(inboundPayload(workspace.phoneNumberId, { from, name: 'Dora Agent', text: 'Hi there' }), workspace.appSecret);
    await page.goto(`${session.origin}/inbox`);
    await page.getByTestId('conversation-row').filter({ hasText: 'Dora Agent' }).click();
    const agentSwitch = page.getByRole('switch', { name: 'AI agent answers' });
    await agentSwitch.click();
    await expect.poll(() => agentSwitch.isChecked()).toBe(true);
    await expect
      .poll(() => h.db.prisma.conversation.count({ where: { company_id: workspace.workspaceId, service_enabled: true } }))
      .toBe(1);
    await world.webhook(
      inboundPayload(workspace.phoneNumberId, { from, name: 'Dora Agent', text: 'What are your opening hours?' }),
      workspace.appSecret,
    );

    const answer = page.getByTestId('message').filter({ hasText: 'Monday to Friday, 9:00 to 18:00' });
    await answer.waitFor({ timeout: 20_000 });
    expect(await answer.innerText()).toContain('AI agent');
    await answer.getByTestId('agent-run').locator('summary').click();
    expect(await answer.getByTestId('agent-run').innerText()).toContain('Opening hours');
    await page.screenshot({ path: join(SCREENSHOTS, 'agent-reply-1440.png') });
    expect(problems).toEqual([]);
  });

  it('creates a webhook endpoint with its secret shown once, shows a failing delivery with its attempt, and redelivers it', async () => {
    let answer = 500;
    const receiver = await startReceiver({ answer: () => answer });
    onTestFinished(() => receiver.close());
    const worker = startDeliveryWorker(h.services, await testDeliveryOptions({ retryDelaysMs: [] }), createLogger('silent'));
    onTestFinished(() => worker.stop());
    const { page, problems } = await signedIn(1440, '/settings/webhooks');

    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByTestId('secret').innerText();
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets.push(secret);
    await page.getByTestId('webhook-row').filter({ hasText: receiver.url }).click();

    await page.getByRole('button', { name: 'Send test event' }).click();
    const delivery = page.getByTestId('delivery');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh log' }).click();
          return delivery.first().getAttribute('data-status');
        },
        { timeout: 20_000 },
      )
      .toBe('failed');
    expect(await delivery.first().innerText()).toMatch(/HTTP 500[\s\S]*#1 .*: 500 in \d+ ms/);
    await page.screenshot({ path: join(SCREENSHOTS, 'webhook-deliveries-1440.png') });

    answer = 200;
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh log' }).click();
          return delivery.first().getAttribute('data-status');
        },
        { timeout: 20_000 },
      )
      .toBe('succeeded');
    expect(receiver.accepted()).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('creates an API key shown once that works on REST, and lists it with its creator', async () => {
    const { page, problems } = await signedIn(1440, '/settings/api-keys');
    await page.getByLabel('Name').fill('Order system');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const key = await page.getByTestId('secret').innerText();
    const contacts = await h.fetch('/api/v1/contacts', { key });
    expect(contacts.status).toBe(200);
    await page.getByRole('row').filter({ hasText: 'Order system' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'api-key-created-1440.png') });
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Order system' }).waitFor();
    expect(await page.getByTestId('secret').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('gives a member the inbox and contacts but not the keys: no link, and the page and its mutation are refused', async () => {
    const owner = await ownerSession(h, { workspace_id: workspace.workspaceId });
    const email = `member-${Date.now()}@example.com`;
    await invitePerson(h, owner, email, 'member');
    const { page } = await newPage(390);
    await signIn(page, email);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(await page.getByRole('link', { name: 'API keys', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Contacts', exact: true }).count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'member-inbox-390.png') });

    await page.goto(`${session.origin}/settings/api-keys`);
    await page.getByRole('alert').filter({ hasText: 'Only owners and admins manage API keys; your role is member.' }).waitFor();
    const refused = await page.evaluate(async () => {
      const current = (await (await fetch('/auth/session')).json()) as { csrf_token: string };
      const response = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': current.csrf_token },
        body: JSON.stringify({ query: 'mutation { apiKeyCreate(name: "sneaky", scopes: ["contacts:read"]) { api_key } }' }),
      });
      return (await response.json()) as { errors?: { message: string; extensions: { code: string } }[] };
    });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'Your role (member) does not allow this: it needs the keys permission',
      extensions: { code: 'INSUFFICIENT_SCOPE' },
    });
  });

  it('refuses a cross-site form posting to /graphql and /auth with the signed-in person’s cookie', async () => {
    const before = await h.db.prisma.apiKey.count({ where: { company_id: workspace.workspaceId } });
    const attacker = createServer((request, response) => {
      response.setHeader('content-type', 'text/html');
      if (request.url !== '/form') return response.end('<!doctype html><title>Another site</title>');
      response.end(`<!doctype html><form id="graphql" method="post" action="${session.origin}/graphql" enctype="text/plain">
        <input name='{"query":"mutation { apiKeyCreate(name: \\"stolen\\", scopes: [\\"contacts:read\\"]) { api_key } }","x":"' value='"}'></form>
        <script>document.getElementById('graphql').submit()</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => attacker.close(() => resolve())));
    const { page } = await signedIn();

    // Another port of the same host: the same site, so the Lax cookie goes along and only the CSRF check stands.
    const attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
    await page.goto(attackerOrigin);
    const signOut = await page.evaluate(
      async (origin) =>
        (await fetch(`${origin}/auth/sign-out`, { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{}' })).type,
      session.origin,
    );
    expect(signOut).toBe('opaque');
    await page.goto(`${attackerOrigin}/form`);
    await page.waitForURL(`${session.origin}/graphql`);
    expect(await page.locator('body').innerText()).toMatch(/"code":"FORBIDDEN"/);
    expect(await h.db.prisma.apiKey.count({ where: { company_id: workspace.workspaceId } })).toBe(before);
    await page.goto(`${session.origin}/inbox`);
    await page.getByRole('button', { name: /Sign out/ }).waitFor();
  });
});

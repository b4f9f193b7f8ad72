// The campaign runner, ticked by hand on a clock the test moves (no waiting on wall time), with every provider
// call counted: pause and cancel take effect between sends and resume never resends; a runner that dies in
// the provider call leaves a recipient that is never sent again; two runners on one database send each
// recipient exactly once; the send rate holds; recipients follow their messages' delivery reports; the
// audience is fixed when the campaign starts; a scheduled campaign starts when due; a template withdrawn at
// the provider pauses the campaign. Lifecycle changes go through GraphQL, as clients make them.
import { describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { openHarness, openTestDatabase } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';
import { operation } from '../../facades/core/operations.js';
import { campaignTestFile, manualClock, REMINDER, runToEnd, taggedContacts, testRunner, uniquePhone } from '../support/campaigns.js';
import { startCampaignWorker } from '../../workers/campaigns/worker.js';
import { createLogger } from '../../infra/observability/logger.js';
import { campaignOptionsFrom } from '../../workers/campaigns/options.js';
import { loadSettings } from '../../infra/config/settings.js';
import { applyStatusUpdate } from '../../resolvers/messaging/messageStatus.js';
import { integrationContext } from '../../resolvers/workspace/integrations.js';

const h = await openHarness({ rateLimitPerMinute: 10_000 });
const file = campaignTestFile(() => h);
const { data: rawData, error: rawError } = graphqlCalls(h);
const shop = await file.workspace();
const key = shop.api_key;
const prisma = h.db.prisma;

type Campaign = { id: string; status: string; progress: Record<string, number>; error_code: string | null; error_message: string | null };

async function run<T = Campaign>(name: string, variables: Record<string, unknown> = {}): Promise<T> {
  return Object.values(await rawData(key, print(operation(name)), variables))[0] as T;
}

/** A running campaign to `count` new tagged contacts. */
async function started(count: number, extra: Record<string, unknown> = {}) {
  const { tag, contacts } = await taggedContacts(h, shop.workspace_id, count);
  const campaign = await run('CampaignCreate', { name: 'Runner test', template: REMINDER, audience_tag_id: tag.id, ...extra });
  await run('CampaignStart', { id: campaign.id });
  return { campaign, contacts, tag };
}

const recipientsOf = (campaignId: string) =>
  prisma.campaignRecipient.findMany({ where: { campaign_id: campaignId }, orderBy: { contact_id: 'asc' } });
const statusOf = async (campaignId: string) => (await prisma.campaign.findUniqueOrThrow({ where: { id: campaignId } })).status;
const duplicates = (values: string[]) => values.filter((value, index) => values.indexOf(value) !== index);

describe('pause, resume and cancel', () => {
  it('pause takes effect before the next send, even within a batch; resume sends the rest and nobody twice', async () => {
    const { campaign, contacts } = await started(6, { send_rate_per_minute: 300 });
    const runner = testRunner(h.services);
    // A batch may hold 5 sends (300 a minute, one-second polls); the owner pauses while the first is under way.
    runner.sends.beforeSend(async () => {
      if (runner.sends.sends.length === 1) await run('CampaignPause', { id: campaign.id });
    });
    expect((await runner.tick()).sent).toBe(1);
    expect(await statusOf(campaign.id)).toBe('paused');
    for (let tick = 0; tick < 3; tick += 1) {
      runner.clock.advance(60_000);
      await runner.tick();
    }
    expect(runner.sends.sends).toHaveLength(1);

    expect(await run('CampaignResume', { id: campaign.id })).toMatchObject({ status: 'running', progress: { total: 6, pending: 5 } });
    expect(await runToEnd(h, runner, campaign.id)).toBe('completed');
    expect(runner.sends.sends).toHaveLength(6);
    expect(duplicates(runner.sends.recipients())).toEqual([]);
    expect(runner.sends.recipients().sort()).toEqual(contacts.map((contact) => contact.wa_id).sort());
  });

  it('cancel stops sending and marks the recipients not yet sent as cancelled', async () => {
    const { campaign } = await started(5, { send_rate_per_minute: 120 });
    const runner = testRunner(h.services);
    expect((await runner.tick()).sent).toBe(2);
    const cancelled = await run('CampaignCancel', { id: campaign.id });
    expect(cancelled).toMatchObject({ status: 'cancelled', progress: { total: 5, cancelled: 3, pending: 0 } });
    runner.clock.advance(60_000);
    await runner.tick();
    expect(runner.sends.sends).toHaveLength(2);
    const recipients = await recipientsOf(campaign.id);
    expect(recipients.filter((recipient) => recipient.status === 'cancelled')).toHaveLength(3);
    expect(recipients.filter((recipient) => recipient.message_id)).toHaveLength(2);
  });
});

describe('never twice', () => {
  it('a runner that dies inside the provider call leaves its recipient failed as SEND_OUTCOME_UNKNOWN, never sent again', async () => {
    const { campaign, contacts } = await started(3);
    const dying = testRunner(h.services);
    dying.sends.hang();
    void dying.tick();
    await expect.poll(async () => (await recipientsOf(campaign.id)).filter((recipient) => recipient.status === 'sending').length).toBe(1);
    const stuck = (await recipientsOf(campaign.id)).find((recipient) => recipient.status === 'sending')!;
    expect(await prisma.message.findUniqueOrThrow({ where: { id: stuck.message_id! } })).toMatchObject({
      status: 'pending',
      provider_message_id: null,
    });

    // A new runner, once the dead one's lease has run out (60 s by this runner's clock).
    const restarted = testRunner(h.services, { clock: manualClock(new Date(Date.now() + 61_000)) });
    expect(await runToEnd(h, restarted, campaign.id)).toBe('completed');
    expect(dying.sends.sends).toHaveLength(1);
    expect(restarted.sends.recipients()).not.toContain(dying.sends.recipients()[0]);
    expect([...dying.sends.recipients(), ...restarted.sends.recipients()].sort()).toEqual(contacts.map((contact) => contact.wa_id).sort());

    const settled = await prisma.campaignRecipient.findUniqueOrThrow({
      where: { campaign_id_contact_id: { campaign_id: campaign.id, contact_id: stuck.contact_id } },
    });
    expect(settled).toMatchObject({ status: 'failed', error_code: 'SEND_OUTCOME_UNKNOWN', failed_at: expect.any(Date) });
    expect(await prisma.message.findUniqueOrThrow({ where: { id: stuck.message_id! } })).toMatchObject({
      status: 'failed',
      error_code: 'SEND_OUTCOME_UNKNOWN',
    });
  });

  it('a recipient whose message got an outcome before its runner died takes that outcome instead', async () => {
    const { campaign } = await started(1);
    const dying = testRunner(h.services);
    dying.sends.hang();
    void dying.tick();
    await expect.poll(async () => (await recipientsOf(campaign.id))[0]?.status).toBe('sending');
    const [stuck] = await recipientsOf(campaign.id);
    // What the dead runner's provider call achieved, recorded without the recipient (as a crash between the two would leave it).
    await prisma.message.update({
      where: { id: stuck!.message_id! },
      data: { status: 'sent', provider_message_id: `wamid.${Date.now()}` },
    });

    const restarted = testRunner(h.services, { clock: manualClock(new Date(Date.now() + 61_000)) });
    expect(await runToEnd(h, restarted, campaign.id)).toBe('completed');
    expect(restarted.sends.sends).toHaveLength(0);
    expect((await recipientsOf(campaign.id))[0]).toMatchObject({ status: 'sent', error_code: null, sent_at: expect.any(Date) });
  });

  it('two runners on one database send each recipient exactly once, also when one takes over the other’s lease mid-batch', async () => {
    // On PostgreSQL the second runner has its own connection pool, as another instance would.
    const second = process.env['TEST_DATABASE_URL'] ? await openTestDatabase() : h.db;
    const { campaign, contacts } = await started(40, { send_rate_per_minute: 1000 });
    const lease = 1000;
    const one = testRunner(h.services, { leaseMs: lease });
    // Its clock is ahead by more than a lease: it takes the first runner for dead and its lease as run out.
    const other = testRunner(
      { ...h.services, prisma: second.prisma },
      { leaseMs: lease, clock: manualClock(new Date(Date.now() + 2 * lease)) },
    );
    one.sends.beforeSend(async () => {
      if (one.sends.sends.length === 2) await other.tick();
    });
    await one.tick();
    expect(one.sends.sends).toHaveLength(2);
    expect(other.sends.sends.length).toBeGreaterThan(0);
    // Then both tick side by side until the campaign is done.
    for (let round = 0; round < 50 && (await statusOf(campaign.id)) === 'running'; round += 1) {
      await Promise.all([one.tick(), other.tick()]);
      one.clock.advance(lease);
      other.clock.advance(lease);
    }
    if (second !== h.db) await second.close();
    expect(await statusOf(campaign.id)).toBe('completed');
    const all = [...one.sends.recipients(), ...other.sends.recipients()];
    expect(duplicates(all)).toEqual([]);
    expect(all.sort()).toEqual(contacts.map((contact) => contact.wa_id).sort());
    expect(await prisma.message.count({ where: { campaign_recipient: { campaign_id: campaign.id } } })).toBe(40);
  });
});

describe('send rate', () => {
  it('sends at most send_rate_per_minute: a batch per poll interval, the next when the rate allows it', async () => {
    const slow = await started(10, { send_rate_per_minute: 6 });
    const runner = testRunner(h.services);
    const sentAt: number[] = [];
    for (let second = 0; second < 35; second += 1) {
      const { sent } = await runner.tick();
      for (let index = 0; index < sent; index += 1) sentAt.push(second);
      runner.clock.advance(1000);
    }
    // 6 a minute: one every 10 seconds.
    expect(sentAt).toEqual([0, 10, 20, 30]);
    expect((await recipientsOf(slow.campaign.id)).filter((recipient) => recipient.status === 'pending')).toHaveLength(6);
    await run('CampaignCancel', { id: slow.campaign.id });

    const fast = await started(30, { send_rate_per_minute: 120 });
    const quick = testRunner(h.services);
    for (let quarter = 0; quarter < 20; quarter += 1) {
      await quick.tick();
      quick.clock.advance(250);
    }
    // 120 a minute with one-second polls: two per second, ticks every quarter second notwithstanding.
    expect(quick.sends.sends).toHaveLength(10);
    await run('CampaignCancel', { id: fast.campaign.id });
  });

  it('uses the service default when the campaign sets no rate', async () => {
    const { campaign } = await started(4);
    const runner = testRunner(h.services, { defaultRatePerMinute: 60 });
    await runner.tick();
    runner.clock.advance(500);
    await runner.tick();
    expect(runner.sends.sends).toHaveLength(1);
    runner.clock.advance(500);
    await runner.tick();
    expect(runner.sends.sends).toHaveLength(2);
    await run('CampaignCancel', { id: campaign.id });
  });
});

describe('recipients follow their messages', () => {
  it('delivery reports move recipients to delivered and read, never back; a refused send marks its recipient failed with the error', async () => {
    const { tag, contacts } = await taggedContacts(h, shop.workspace_id, 2);
    // The sandbox cannot deliver to wa_ids starting with 999.
    const unreachable = await prisma.customer.create({ data: { company_id: shop.workspace_id, name: 'Unreachable', wa_id: '9990001234' } });
    await prisma.customerTag.create({ data: { customer_id: unreachable.id, tag_id: tag.id } });
    const campaign = await run('CampaignCreate', { name: 'Feed', template: REMINDER, audience_tag_id: tag.id });
    await run('CampaignStart', { id: campaign.id });
    const runner = testRunner(h.services);
    expect(await runToEnd(h, runner, campaign.id)).toBe('completed');

    await expect
      .poll(async () => (await run('CampaignGet', { id: campaign.id })).progress, { timeout: 5000 })
      .toMatchObject({ read: 2, failed: 1 });
    const recipients = await recipientsOf(campaign.id);
    const failed = recipients.find((recipient) => recipient.contact_id === unreachable.id)!;
    expect(failed).toMatchObject({
      status: 'failed',
      error_code: '131026',
      error_message: 'Message undeliverable',
      failed_at: expect.any(Date),
      sent_at: null,
    });
    for (const recipient of recipients.filter((one) => one.contact_id !== unreachable.id)) {
      expect(recipient).toMatchObject({
        status: 'read',
        sent_at: expect.any(Date),
        delivered_at: expect.any(Date),
        read_at: expect.any(Date),
      });
      expect(contacts.map((contact) => contact.id)).toContain(recipient.contact_id);
    }

    // A late "delivered" report does not move a read recipient back.
    const read = recipients.find((recipient) => recipient.status === 'read')!;
    const message = await prisma.message.findUniqueOrThrow({ where: { id: read.message_id! } });
    const ctx = integrationContext(
      h.services,
      { id: shop.integration_id, workspaceId: shop.workspace_id, provider: 'sandbox' },
      'req_test',
    );
    expect(
      await applyStatusUpdate(ctx, { providerMessageId: message.provider_message_id!, status: 'delivered', reference: null, error: null }),
    ).toEqual({ applied: false });
    expect(
      (
        await prisma.campaignRecipient.findUniqueOrThrow({
          where: { campaign_id_contact_id: { campaign_id: campaign.id, contact_id: read.contact_id } },
        })
      ).status,
    ).toBe('read');
  });
});

describe('the audience', () => {
  it('is fixed when the campaign starts: contacts tagged later are not sent to, untagged ones still are; contacts without an address are skipped', async () => {
    const { campaign, contacts, tag } = await started(2);
    const noAddress = await prisma.customer.create({
      data: { company_id: shop.workspace_id, name: 'Email only', email: `e${Date.now()}@example.com` },
    });
    const late = await prisma.customer.create({ data: { company_id: shop.workspace_id, name: 'Late', phone_number: uniquePhone() } });
    await rawData(key, 'mutation($c: ID!, $t: ID!) { tagAssign(customer_id: $c, tag_id: $t) { assigned } }', { c: late.id, t: tag.id });
    await rawData(key, 'mutation($c: ID!, $t: ID!) { tagUnassign(customer_id: $c, tag_id: $t) { assigned } }', {
      c: contacts[0]!.id,
      t: tag.id,
    });
    const runner = testRunner(h.services);
    expect(await runToEnd(h, runner, campaign.id)).toBe('completed');
    expect(runner.sends.recipients().sort()).toEqual(contacts.map((contact) => contact.wa_id).sort());
    expect((await recipientsOf(campaign.id)).map((recipient) => recipient.contact_id)).not.toContain(late.id);

    const listed = await run('CampaignCreate', { name: 'List', template: REMINDER, audience_contact_ids: [noAddress.id, late.id] });
    expect(await run('CampaignStart', { id: listed.id })).toMatchObject({ progress: { total: 2, pending: 1, skipped: 1 } });
    const skipped = (await recipientsOf(listed.id)).find((recipient) => recipient.contact_id === noAddress.id);
    expect(skipped).toMatchObject({ status: 'skipped', error_code: 'NO_MESSAGING_ADDRESS', message_id: null });
    expect(await runToEnd(h, runner, listed.id)).toBe('completed');
    expect(runner.sends.recipients()).toContain(late.phone_number!.slice(1));
  });

  it('a scheduled campaign starts when due, with the audience of that moment', async () => {
    const { tag, contacts } = await taggedContacts(h, shop.workspace_id, 1);
    const campaign = await run('CampaignCreate', { name: 'Later', template: REMINDER, audience_tag_id: tag.id });
    await run('CampaignSchedule', { id: campaign.id, scheduled_at: new Date(Date.now() + 3600_000).toISOString() });
    const { contacts: more } = await taggedContacts(h, shop.workspace_id, 1);
    await prisma.customerTag.create({ data: { customer_id: more[0]!.id, tag_id: tag.id } });
    const runner = testRunner(h.services);
    expect((await runner.tick()).campaigns).toBe(0);
    expect(await statusOf(campaign.id)).toBe('scheduled');
    runner.clock.advance(3600_000);
    expect(await runToEnd(h, runner, campaign.id)).toBe('completed');
    expect(runner.sends.recipients().sort()).toEqual([contacts[0]!.wa_id, more[0]!.wa_id].sort());
    expect(await run('CampaignGet', { id: campaign.id })).toMatchObject({ started_at: expect.any(String), progress: { total: 2 } });
  });
});

describe('a campaign that can no longer be sent', () => {
  it('is paused by the runner with the reason when its template is withdrawn, and resumes once it is sendable again', async () => {
    const { campaign } = await started(2);
    await prisma.campaign.update({ where: { id: campaign.id }, data: { template_name: 'seasonal_newsletter', template_parameters: [] } });
    const runner = testRunner(h.services);
    await runner.tick();
    expect(runner.sends.sends).toHaveLength(0);
    const paused = await run('CampaignGet', { id: campaign.id });
    expect(paused).toMatchObject({
      status: 'paused',
      error_code: 'TEMPLATE_NOT_APPROVED',
      error_message: expect.stringContaining('PAUSED'),
    });
    const refused = await rawError(key, print(operation('CampaignResume')), { id: campaign.id });
    expect(refused).toMatchObject({ status: 422, code: 'TEMPLATE_NOT_APPROVED' });

    await prisma.campaign.update({
      where: { id: campaign.id },
      data: { template_name: REMINDER.name, template_parameters: REMINDER.parameters },
    });
    expect(await run('CampaignResume', { id: campaign.id })).toMatchObject({ status: 'running', error_code: null, error_message: null });
    expect(await runToEnd(h, runner, campaign.id)).toBe('completed');
    expect(runner.sends.sends).toHaveLength(2);
  });
});

describe('the campaign worker', () => {
  it('runs the runner on its own every poll interval and stops cleanly', async () => {
    const { campaign } = await started(2);
    const worker = startCampaignWorker(
      h.services,
      { defaultRatePerMinute: 600, pollMs: 20, leaseMs: 60_000, retryDelayMs: 30_000, campaignsPerTick: 8, clock: () => new Date() },
      createLogger('silent'),
    );
    try {
      await expect.poll(() => statusOf(campaign.id), { timeout: 10_000 }).toBe('completed');
    } finally {
      await worker.stop();
    }
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).lease_token).toBeNull();
  });

  it('takes its rate, poll interval and lease from the settings, and refuses a lease shorter than the provider time-out', () => {
    expect(campaignOptionsFrom(loadSettings({}))).toMatchObject({ defaultRatePerMinute: 60, pollMs: 1000, leaseMs: 60_000 });
    expect(campaignOptionsFrom(loadSettings({ CAMPAIGN_SEND_RATE_PER_MINUTE: '300', CAMPAIGN_POLL_MS: '500' }))).toMatchObject({
      defaultRatePerMinute: 300,
      pollMs: 500,
    });
    expect(() => loadSettings({ CAMPAIGN_LEASE_MS: '10000' })).toThrow(/CAMPAIGN_LEASE_MS: must be longer than WHATSAPP_TIMEOUT_MS/);
    expect(() => loadSettings({ CAMPAIGN_SEND_RATE_PER_MINUTE: '1001' })).toThrow(/CAMPAIGN_SEND_RATE_PER_MINUTE/);
  });
});

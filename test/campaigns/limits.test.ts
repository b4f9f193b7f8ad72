// Campaigns within their number's limits: the number's throughput paces a campaign across two runner instances on one
// clock the test moves (its rate measured from the recorded send times); the pair rate keeps two campaigns from writing to one recipient within
// 6 s; the messaging-limit tier makes a campaign wait, saying so, until the rolling 24 hours let it go on by itself;
// the limits are set by the number's owner, checked, and never by an API key; the number's window of recipients is kept
// by the claims themselves, each recipient once, each leaving it 24 hours after its last send.
import { describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { openHarness, openTestDatabase } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';
import { operation } from '../../facades/core/operations.js';
import { campaignTestFile, manualClock, REMINDER, runToEnd, taggedContacts, testRunner } from '../support/campaigns.js';
import { asPerson, ownerSession } from '../support/people.js';
import type { CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';

const h = await openHarness({ rateLimitPerMinute: 10_000 });
const file = campaignTestFile(() => h);
const { data: rawData } = graphqlCalls(h);
const prisma = h.db.prisma;

type Campaign = { id: string; status: string; waiting_reason: string | null; next_send_at: string | null };

async function run<T = Campaign>(shop: CreatedWorkspace, name: string, variables: Record<string, unknown> = {}): Promise<T> {
  return Object.values(await rawData(shop.api_key, print(operation(name)), variables))[0] as T;
}

const SET_LIMITS = `mutation ($id: ID!, $tps: Int, $tier: String) {
  integrationUpdateLimits(id: $id, throughput_per_second: $tps, messaging_limit_tier: $tier) { id throughput_per_second messaging_limit_tier }
}`;

/** Sets the number's limits as its owner does in the console. */
async function setLimits(shop: CreatedWorkspace, limits: { tps?: number; tier?: string }) {
  const owner = await ownerSession(h, shop);
  const answer = await asPerson(h, owner, SET_LIMITS, { id: shop.integration_id, ...limits });
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data.integrationUpdateLimits;
}

async function startedCampaign(shop: CreatedWorkspace, tagId: string, extra: Record<string, unknown> = {}) {
  const campaign = await run(shop, 'CampaignCreate', { name: 'Limits', template: REMINDER, audience_tag_id: tagId, ...extra });
  return run(shop, 'CampaignStart', { id: campaign.id });
}

const claimsOf = async (campaignId: string) =>
  (await prisma.campaignRecipient.findMany({ where: { campaign_id: campaignId }, orderBy: { claimed_at: 'asc' } })).map((recipient) => ({
    contact: recipient.contact_id,
    at: recipient.claimed_at!.getTime(),
  }));

describe("the number's limits as its owner sets them", () => {
  it('default to 80 messages per second and an unknown tier; out-of-range values are refused naming the field; a key may not set them', async () => {
    const shop = await file.workspace();
    const owner = await ownerSession(h, shop);
    const listed = await asPerson(h, owner, '{ integrations { id throughput_per_second messaging_limit_tier } }');
    expect(listed.body.data.integrations).toEqual([{ id: shop.integration_id, throughput_per_second: 80, messaging_limit_tier: null }]);

    const zero = await asPerson(h, owner, SET_LIMITS, { id: shop.integration_id, tps: 0 });
    expect(zero.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { throughput_per_second: 'must be 1 to 1000' },
    });
    const tier = await asPerson(h, owner, SET_LIMITS, { id: shop.integration_id, tier: 'TIER_3' });
    expect(tier.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { messaging_limit_tier: expect.any(String) },
    });

    const byKey = await h.graphql(shop.api_key, SET_LIMITS, { id: shop.integration_id, tps: 5 });
    expect(byKey.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(await setLimits(shop, { tps: 5, tier: 'TIER_1K' })).toMatchObject({ throughput_per_second: 5, messaging_limit_tier: 'TIER_1K' });
  });
});

describe('throughput', () => {
  it("paces a campaign at its number's 5 messages per second, below the campaign's own rate, across two runner instances", async () => {
    const shop = await file.workspace();
    await setLimits(shop, { tps: 5 });
    const { tag } = await taggedContacts(h, shop.workspace_id, 30);
    // On PostgreSQL the second instance has its own connection pool, as another process would; both read one clock,
    // which the test moves a poll interval (50 ms) at a time, each instance polling in turn.
    const second = process.env['TEST_DATABASE_URL'] ? await openTestDatabase() : h.db;
    const clock = manualClock(new Date(Date.now() + 5_000));
    const instances = [
      testRunner(h.services, { clock, pollMs: 50 }),
      testRunner({ ...h.services, prisma: second.prisma }, { clock, pollMs: 50 }),
    ];
    const campaign = await startedCampaign(shop, tag.id, { send_rate_per_minute: 1000 });
    const statusOf = async () => (await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status;
    for (let poll = 0; poll < 200 && (await statusOf()) === 'running'; poll += 1) {
      await instances[poll % 2]!.tick();
      clock.advance(50);
    }
    if (second !== h.db) await second.close();
    expect((await run(shop, 'CampaignGet', { id: campaign.id })).status).toBe('completed');
    // The rate, from the send times the runners recorded (each recipient's claim).
    const claims = await claimsOf(campaign.id);
    expect(claims).toHaveLength(30);
    const perSecond = (claims.length - 1) / ((claims.at(-1)!.at - claims[0]!.at) / 1000);
    expect(perSecond).toBeGreaterThan(4.5);
    expect(perSecond).toBeLessThan(5.5);
    expect(instances[0]!.sends.sends.length + instances[1]!.sends.sends.length).toBe(30);
    expect(instances[0]!.sends.sends.length).toBeGreaterThan(0);
    expect(instances[1]!.sends.sends.length).toBeGreaterThan(0);
  }, 120_000);
});

describe('the pair rate', () => {
  it('keeps two campaigns of one number from writing to one recipient within 6 seconds: the second waits with pair_rate', async () => {
    const shop = await file.workspace();
    const { tag, contacts } = await taggedContacts(h, shop.workspace_id, 3);
    const first = await startedCampaign(shop, tag.id, { send_rate_per_minute: 600 });
    const second = await startedCampaign(shop, tag.id, { send_rate_per_minute: 600 });
    const runner = testRunner(h.services);
    await runner.tick();
    expect(runner.sends.sends).toHaveLength(3);
    const waiting = await Promise.all([first, second].map((campaign) => run(shop, 'CampaignGet', { id: campaign.id })));
    const held = waiting.filter((campaign) => campaign.status === 'running');
    expect(held.length).toBeGreaterThan(0);
    for (const campaign of held) {
      expect(campaign).toMatchObject({ waiting_reason: 'pair_rate' });
      expect(new Date(campaign.next_send_at!).getTime() - runner.clock.now().getTime()).toBeGreaterThan(5_000);
    }
    expect(await runToEnd(h, runner, first.id)).toBe('completed');
    expect(await runToEnd(h, runner, second.id)).toBe('completed');
    expect(runner.sends.sends).toHaveLength(6);
    const claims = [...(await claimsOf(first.id)), ...(await claimsOf(second.id))];
    for (const contact of contacts) {
      const [one, other] = claims.filter((claim) => claim.contact === contact.id).map((claim) => claim.at);
      expect(Math.abs(other! - one!)).toBeGreaterThanOrEqual(6_000);
    }
    expect((await run(shop, 'CampaignGet', { id: second.id })).waiting_reason).toBeNull();
  });
});

describe('the messaging-limit tier', () => {
  it('holds a campaign once the tier’s unique recipients in 24 h are reached, says so on GraphQL and REST, and resumes when the window allows', async () => {
    const shop = await file.workspace();
    await setLimits(shop, { tier: 'TIER_250' });
    // The runner's clock starts after the campaign does, as a runner's first look at it would.
    const clock = manualClock(new Date(Date.now() + 5_000));
    const start = clock.now().getTime();
    // 249 unique recipients of an earlier campaign through the number, written to 23 hours ago.
    const earlier = await prisma.campaign.create({
      data: {
        company_id: shop.workspace_id,
        name: 'Yesterday',
        template_name: REMINDER.name,
        template_language: REMINDER.language,
        template_parameters: REMINDER.parameters,
        integration_id: shop.integration_id,
        status: 'completed',
      },
    });
    const past = await prisma.customer.createManyAndReturn({
      data: Array.from({ length: 249 }, (_, index) => ({ company_id: shop.workspace_id, name: `Earlier ${index}` })),
      select: { id: true },
    });
    await prisma.campaignRecipient.createMany({
      data: past.map((customer) => ({
        campaign_id: earlier.id,
        contact_id: customer.id,
        company_id: shop.workspace_id,
        status: 'sent',
        claimed_at: new Date(start - 23 * 3600_000),
      })),
    });
    // And the number's window as those claims left it (recordWindowRecipient).
    await prisma.numberWindowRecipient.createMany({
      data: past.map((customer) => ({
        integration_id: shop.integration_id,
        contact_id: customer.id,
        last_sent_at: new Date(start - 23 * 3600_000),
      })),
    });
    await prisma.integration.update({ where: { id: shop.integration_id }, data: { window_recipient_count: past.length } });

    const { tag } = await taggedContacts(h, shop.workspace_id, 3);
    const campaign = await startedCampaign(shop, tag.id, { send_rate_per_minute: 600 });
    const runner = testRunner(h.services, { clock });
    expect((await runner.tick()).sent).toBe(1);
    const frees = new Date(start + 3600_000).toISOString();
    expect(await run(shop, 'CampaignGet', { id: campaign.id })).toMatchObject({
      status: 'running',
      waiting_reason: 'messaging_limit_tier',
      next_send_at: frees,
    });
    const rest = await h.fetch(`/api/v1/campaigns/${campaign.id}`, { headers: { authorization: `Bearer ${shop.api_key}` } });
    expect(await rest.json()).toMatchObject({ waiting_reason: 'messaging_limit_tier', next_send_at: frees });

    // Nothing more goes out within the window, however often the runner looks.
    for (let minute = 0; minute < 59; minute += 1) {
      clock.advance(60_000);
      await runner.tick();
    }
    expect(runner.sends.sends).toHaveLength(1);

    clock.advance(60_000);
    expect(await runToEnd(h, runner, campaign.id)).toBe('completed');
    expect(runner.sends.sends).toHaveLength(3);
    expect(await run(shop, 'CampaignGet', { id: campaign.id })).toMatchObject({ waiting_reason: null });
  });
});

describe("the number's window of recipients", () => {
  it('counts each recipient once across campaigns, and lets a recipient go once 24 hours have passed its last send', async () => {
    const shop = await file.workspace();
    const clock = manualClock(new Date(Date.now() + 5_000));
    const runner = testRunner(h.services, { clock });
    const window = async () => ({
      count: (await prisma.integration.findUniqueOrThrow({ where: { id: shop.integration_id } })).window_recipient_count,
      rows: await prisma.numberWindowRecipient.count({ where: { integration_id: shop.integration_id } }),
    });
    const { tag, contacts } = await taggedContacts(h, shop.workspace_id, 3);
    const first = await startedCampaign(shop, tag.id, { send_rate_per_minute: 600 });
    expect(await runToEnd(h, runner, first.id)).toBe('completed');
    expect(await window()).toEqual({ count: 3, rows: 3 });

    // Twelve hours on, two of them and a new contact: one more unique recipient.
    clock.advance(12 * 3600_000);
    const newcomer = await taggedContacts(h, shop.workspace_id, 1);
    await prisma.customerTag.createMany({
      data: contacts.slice(0, 2).map((contact) => ({ customer_id: contact.id, tag_id: newcomer.tag.id })),
    });
    const second = await startedCampaign(shop, newcomer.tag.id, { send_rate_per_minute: 600 });
    expect(await runToEnd(h, runner, second.id)).toBe('completed');
    expect(await window()).toEqual({ count: 4, rows: 4 });

    // Past 24 hours from the first campaign, the third contact (sent to only then) has left the window at the next
    // claim; the two sent to again twelve hours ago, and the newcomer, remain.
    clock.advance(12 * 3600_000 + 60_000);
    const { tag: later } = await taggedContacts(h, shop.workspace_id, 1);
    const third = await startedCampaign(shop, later.id, { send_rate_per_minute: 600 });
    expect(await runToEnd(h, runner, third.id)).toBe('completed');
    expect(await window()).toEqual({ count: 4, rows: 4 });
    const kept = await prisma.numberWindowRecipient.findMany({
      where: { integration_id: shop.integration_id },
      select: { contact_id: true },
    });
    expect(kept.map((row) => row.contact_id)).not.toContain(contacts[2]!.id);
    expect(kept.map((row) => row.contact_id)).toContain(newcomer.contacts[0]!.id);
  });
});

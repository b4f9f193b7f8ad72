// A number's messaging-limit tier, throughput and quality rating as the provider tells them (issue 36): the Graph
// API's phone number fields read on request; Meta's phone_number_quality_update webhook (reference payloads, both
// the older current_limit form and max_daily_conversations_per_business, which reaches every number of the
// business account; FLAGGED; THROUGHPUT_UPGRADE), signed through POST /webhooks/whatsapp; a value set by hand is
// kept until the provider tells again, each with its source and time; a forged, unsigned or malformed webhook changes nothing; members
// and API keys may neither set the limits nor read them again.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openMessagingWorld } from '../support/messaging.js';
import { asPerson, invitePerson, ownerSession, type Browser } from '../support/people.js';
import { createIntegration } from '../../resolvers/workspace/integrations.js';

const world = await openMessagingWorld('whatsapp');
const { harness } = world;
const graph = world.graph!;

const STANDING = `id throughput_per_second throughput_source throughput_updated_at messaging_limit_tier messaging_limit_tier_source
  messaging_limit_tier_updated_at quality_rating quality_rating_updated_at`;
const SET_LIMITS = `mutation ($id: ID!, $tps: Int, $tier: String) {
  integrationUpdateLimits(id: $id, throughput_per_second: $tps, messaging_limit_tier: $tier) { ${STANDING} }
}`;
const REFRESH = `mutation ($id: ID!) { integrationRefreshStanding(id: $id) { ${STANDING} } }`;

type Standing = Record<string, any>;

async function shop() {
  const ws = await world.workspace();
  const owner = await ownerSession(harness, { workspace_id: ws.workspaceId });
  const row = await harness.db.prisma.integration.findUniqueOrThrow({ where: { id: ws.integrationId } });
  return { ws, owner, businessAccountId: row.business_account_id };
}

async function standingOf(owner: Browser): Promise<Standing[]> {
  const listed = await asPerson(harness, owner, `{ integrations { ${STANDING} } }`);
  expect(listed.body.errors).toBeUndefined();
  return listed.body.data.integrations;
}

/** Meta's phone_number_quality_update, as its reference shows it. */
function qualityUpdate(businessAccountId: string, value: Record<string, string>) {
  return {
    entry: [{ id: businessAccountId, time: Math.floor(Date.now() / 1000), changes: [{ value, field: 'phone_number_quality_update' }] }],
    object: 'whatsapp_business_account',
  };
}

async function tell(businessAccountId: string, value: Record<string, string>) {
  const response = await graph.accountWebhook(businessAccountId, qualityUpdate(businessAccountId, value));
  expect(response.status).toBe(200);
}

describe("a number's standing from the provider", () => {
  it("reads the Graph API's phone number fields on request, replacing values set by hand, with source and time", async () => {
    const { ws, owner } = await shop();
    const set = await asPerson(harness, owner, SET_LIMITS, { id: ws.integrationId, tps: 20, tier: 'TIER_1K' });
    expect(set.body.data.integrationUpdateLimits).toMatchObject({
      throughput_per_second: 20,
      throughput_source: 'manual',
      messaging_limit_tier: 'TIER_1K',
      messaging_limit_tier_source: 'manual',
      quality_rating: null,
    });

    graph.numberFields.set(ws.phoneNumberId, {
      whatsapp_business_manager_messaging_limit: 'TIER_10K',
      messaging_limit_tier: 'TIER_1K',
      quality_rating: 'YELLOW',
      throughput: { level: 'HIGH' },
    });
    const before = Date.now();
    const refreshed = await asPerson(harness, owner, REFRESH, { id: ws.integrationId });
    expect(refreshed.body.errors).toBeUndefined();
    const standing = refreshed.body.data.integrationRefreshStanding;
    expect(standing).toMatchObject({
      throughput_per_second: 1000,
      throughput_source: 'provider',
      messaging_limit_tier: 'TIER_10K',
      messaging_limit_tier_source: 'provider',
      quality_rating: 'YELLOW',
    });
    expect(Date.parse(standing.messaging_limit_tier_updated_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(standing.quality_rating_updated_at)).toBeGreaterThanOrEqual(before - 1000);

    // A person may set it again; it stays until the provider tells again.
    const lowered = await asPerson(harness, owner, SET_LIMITS, { id: ws.integrationId, tier: 'TIER_250' });
    expect(lowered.body.data.integrationUpdateLimits).toMatchObject({
      messaging_limit_tier: 'TIER_250',
      messaging_limit_tier_source: 'manual',
    });
  });

  it("takes the webhook's tier, its portfolio-wide form for every number of the account, FLAGGED and THROUGHPUT_UPGRADE", async () => {
    const { ws, owner, businessAccountId } = await shop();
    const second = await createIntegration(harness.services, {
      workspaceId: ws.workspaceId,
      provider: 'whatsapp',
      phone_number_id: String(Date.now()).slice(-12) + '7',
      business_account_id: businessAccountId,
      display_phone_number: '+15550783881',
      access_token: `EAAG${randomBytes(24).toString('base64url')}`,
      app_secret: ws.appSecret,
    });
    await harness.db.prisma.integration.update({ where: { id: ws.integrationId }, data: { display_phone_number: '+15550100001' } });
    await asPerson(harness, owner, SET_LIMITS, { id: second.integration_id, tier: 'TIER_250' });
    const byId = async () => new Map((await standingOf(owner)).map((row) => [row.id, row]));

    // The older form names one number by its display digits.
    await tell(businessAccountId, {
      display_phone_number: '15550783881',
      event: 'UPGRADE',
      old_limit: 'TIER_250',
      current_limit: 'TIER_10K',
    });
    let rows = await byId();
    expect(rows.get(second.integration_id)).toMatchObject({ messaging_limit_tier: 'TIER_10K', messaging_limit_tier_source: 'provider' });
    expect(rows.get(ws.integrationId)).toMatchObject({ messaging_limit_tier: null, messaging_limit_tier_source: null });

    // Meta's current form is the portfolio's limit: every number of the account.
    await tell(businessAccountId, {
      display_phone_number: '15550783881',
      event: 'DOWNGRADE',
      max_daily_conversations_per_business: 'TIER_2K',
    });
    rows = await byId();
    expect(rows.get(second.integration_id)).toMatchObject({ messaging_limit_tier: 'TIER_2K', messaging_limit_tier_source: 'provider' });
    expect(rows.get(ws.integrationId)).toMatchObject({ messaging_limit_tier: 'TIER_2K', messaging_limit_tier_source: 'provider' });

    await tell(businessAccountId, { display_phone_number: '15550783881', event: 'FLAGGED', current_limit: 'TIER_2K' });
    expect((await byId()).get(second.integration_id)).toMatchObject({ quality_rating: 'RED', messaging_limit_tier: 'TIER_2K' });
    expect((await byId()).get(ws.integrationId)).toMatchObject({ quality_rating: null });

    // Meta's reference example: higher throughput, its current_limit speaking of throughput rather than the tier.
    await tell(businessAccountId, { display_phone_number: '15550783881', event: 'THROUGHPUT_UPGRADE', current_limit: 'TIER_UNLIMITED' });
    rows = await byId();
    expect(rows.get(second.integration_id)).toMatchObject({
      throughput_per_second: 1000,
      throughput_source: 'provider',
      messaging_limit_tier: 'TIER_2K',
    });
    expect(rows.get(ws.integrationId)).toMatchObject({ throughput_per_second: 80, throughput_source: null });
  });

  it('changes nothing for a forged, unsigned or malformed webhook', async () => {
    const { ws, owner, businessAccountId } = await shop();
    const payload = qualityUpdate(businessAccountId, { event: 'DOWNGRADE', max_daily_conversations_per_business: 'TIER_50' });
    expect((await world.webhook(payload, 'not-the-app-secret')).status).toBe(401);
    expect((await world.webhook(payload, ws.appSecret, { signature: null })).status).toBe(401);
    const malformed = qualityUpdate(businessAccountId, { current_limit: 'TIER_50' });
    expect((await world.webhook(malformed, ws.appSecret)).status).toBe(200);
    expect((await standingOf(owner))[0]).toMatchObject({ messaging_limit_tier: null, quality_rating: null });
  });

  it('refuses members and API keys: only owners and admins set the limits or read them again', async () => {
    const { ws, owner } = await shop();
    const member = await invitePerson(harness, owner, `member-${randomBytes(4).toString('hex')}@example.com`, 'member');
    for (const [query, variables] of [
      [SET_LIMITS, { id: ws.integrationId, tier: 'TIER_100K' }],
      [REFRESH, { id: ws.integrationId }],
    ] as const) {
      const byMember = await asPerson(harness, member, query, variables);
      expect(byMember.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
      const byKey = await harness.graphql(ws.apiKey, query, variables);
      expect(byKey.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_SCOPE');
    }
    expect((await standingOf(owner))[0]).toMatchObject({ messaging_limit_tier: null, messaging_limit_tier_source: null });
  });
});

// A campaign's audience by tags and fields: the count of an audience before any campaign (REST GET, GraphQL, MCP
// through the SDK's client: one answer), with the contacts without an address and those opted out of marketing
// apart; tags combined by any and all; metadata and consent conditions with = and !=; a campaign created with
// such an audience picks exactly the counted contacts when it starts, and an edit replaces one kind of audience by
// another; each bad input is a 400 naming its field; the campaigns scope is required.
import { describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { openHarness } from '../support/harness.js';
import { campaignTestFile, REMINDER, uniquePhone } from '../support/campaigns.js';
import { expectError, getJson, operationResult, postJson, sendJson } from '../support/restFixtures.js';
import { openMcpClient } from '../support/mcpClient.js';

const h = await openHarness({ rateLimitPerMinute: 10_000 });
const file = campaignTestFile(() => h);

const shop = await file.workspace();
const key = shop.api_key;
const prisma = h.db.prisma;

const tag = (name: string) => prisma.tag.create({ data: { company_id: shop.workspace_id, name } });
const [vip, lisbon] = await Promise.all([tag('vip'), tag('lisbon')]);

/** A contact of the shop with these tags, metadata and consent; without a phone when `address` is false. */
async function contact(name: string, tags: { id: string }[], extra: { metadata?: object; consent?: string; address?: boolean } = {}) {
  const phone = uniquePhone();
  const created = await prisma.customer.create({
    data: {
      company_id: shop.workspace_id,
      name,
      ...(extra.address === false ? {} : { phone_number: phone, wa_id: phone.slice(1) }),
      metadata: extra.metadata ?? {},
      marketing_consent_status: extra.consent ?? 'unknown',
    },
  });
  await prisma.customerTag.createMany({ data: tags.map((t) => ({ customer_id: created.id, tag_id: t.id })) });
  return created;
}

const ana = await contact('Ana', [vip, lisbon], { metadata: { plan: 'gold', city: 'Lisbon' } });
const bruno = await contact('Bruno', [vip], { metadata: { plan: 'gold' }, consent: 'opted_out' });
const carla = await contact('Carla', [vip, lisbon], { metadata: { plan: 'silver' }, consent: 'opted_in' });
const duarte = await contact('Duarte', [lisbon], { metadata: { plan: 'gold' }, address: false });
await contact('Eva', [], { metadata: { plan: 'gold' } });

const query = (params: Record<string, string | string[]>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const one of [value].flat()) search.append(name, one);
  return `/api/v1/campaigns/audience-count?${search}`;
};

describe('counting an audience by tags and fields', () => {
  it('counts tags by any and all, metadata and consent conditions, with the skipped ones apart', async () => {
    const any = await getJson(h, query({ audience_tag_ids: [vip.id, lisbon.id] }), { key });
    expect(any.status).toBe(200);
    expect(any.body).toEqual({ total: 4, no_address: 1, opted_out: 1, sendable: 3, sendable_marketing: 2 });

    const all = await getJson(h, query({ audience_tag_ids: [vip.id, lisbon.id], audience_tag_match: 'all' }), { key });
    expect(all.body).toMatchObject({ total: 2, sendable_marketing: 2 });

    const goldVip = await getJson(h, query({ audience_tag_ids: vip.id, audience_conditions: 'metadata.plan=gold' }), { key });
    expect(goldVip.body).toMatchObject({ total: 2, opted_out: 1, sendable: 2, sendable_marketing: 1 });

    // Conditions alone reach every contact of the workspace that meets them; != includes those without the key.
    const goldAnywhere = await getJson(h, query({ audience_conditions: ['metadata.plan=gold', 'marketing_consent!=opted_out'] }), {
      key,
    });
    expect(goldAnywhere.body).toMatchObject({ total: 3, no_address: 1 });
    const notLisbon = await getJson(h, query({ audience_tag_ids: vip.id, audience_conditions: 'metadata.city!=Lisbon' }), { key });
    expect(notLisbon.body).toMatchObject({ total: 2 });
    const optedIn = await getJson(h, query({ audience_conditions: 'marketing_consent=opted_in' }), { key });
    expect(optedIn.body).toMatchObject({ total: 1 });
  });

  it('answers the same through GraphQL and through the MCP tool', async () => {
    const variables = { audience_tag_ids: [vip.id], audience_conditions: ['metadata.plan=gold'] };
    const graphql = await operationResult(h, key, 'CampaignAudienceCount', variables);
    const mcp = await openMcpClient(h, key);
    const result = await mcp.call('campaigns_audience_summary', variables);
    await mcp.close();
    expect(result.isError).toBe(false);
    expect(result.structured).toEqual(graphql);
    expect(graphql).toEqual({ total: 2, no_address: 0, opted_out: 1, sendable: 2, sendable_marketing: 1 });
  });

  it('refuses a bad audience with 400 naming the field, and a key without the campaigns scope with 403', async () => {
    expectError(await getJson(h, query({}), { key }), 400, { code: 'VALIDATION_ERROR', details: { audience_tag_ids: expect.any(String) } });
    expectError(await getJson(h, query({ audience_conditions: 'plan=gold' }), { key }), 400, {
      details: { 'audience_conditions.0': expect.stringContaining('marketing_consent or metadata.<key>') },
    });
    expectError(await getJson(h, query({ audience_conditions: ['metadata.plan=gold', 'marketing_consent=maybe'] }), { key }), 400, {
      details: { 'audience_conditions.1': expect.stringContaining('opted_in, opted_out, unknown') },
    });
    expectError(await getJson(h, query({ audience_tag_ids: vip.id, audience_tag_match: 'most' }), { key }), 400, {
      details: { audience_tag_match: 'must be one of any, all' },
    });
    const foreignTag = uuidv7();
    expectError(await getJson(h, query({ audience_tag_ids: foreignTag }), { key }), 400, {
      details: { audience_tag_ids: expect.stringContaining(foreignTag) },
    });
    const tagsOnly = await h.key(shop.workspace_id, ['tags']);
    expectError(await getJson(h, query({ audience_tag_ids: vip.id }), { key: tagsOnly }), 403, { code: 'INSUFFICIENT_SCOPE' });
  });
});

describe('a campaign to an audience by tags and fields', () => {
  it('keeps the audience as given and, when it starts, takes exactly the contacts counted', async () => {
    const created = await postJson(h, '/api/v1/campaigns', key, {
      name: 'Gold VIPs',
      template: REMINDER,
      audience_tag_ids: [vip.id, lisbon.id],
      audience_conditions: ['metadata.plan=gold'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      audience_tag_id: null,
      audience_contact_ids: [],
      audience_tag_ids: [vip.id, lisbon.id],
      audience_tag_match: 'any',
      audience_conditions: ['metadata.plan=gold'],
    });
    const started = await postJson(h, `/api/v1/campaigns/${created.body.id}/start`, key, undefined);
    expect(started.body).toMatchObject({ status: 'running', progress: { total: 3, pending: 2, skipped: 1 } });
    const recipients = await prisma.campaignRecipient.findMany({ where: { campaign_id: created.body.id } });
    expect(recipients.map((r) => r.contact_id).sort()).toEqual([ana.id, bruno.id, duarte.id].sort());
    await postJson(h, `/api/v1/campaigns/${created.body.id}/cancel`, key, undefined);
  });

  it('an edit replaces one kind of audience by another, changes one field of tags and fields, and never leaves none', async () => {
    const created = await postJson(h, '/api/v1/campaigns', key, { name: 'Edits', template: REMINDER, audience_tag_id: vip.id });
    const id = created.body.id as string;
    const toSegment = await sendJson(h, 'PATCH', `/api/v1/campaigns/${id}`, key, {
      audience_tag_ids: [lisbon.id],
      audience_tag_match: 'all',
    });
    expect(toSegment.body).toMatchObject({ audience_tag_id: null, audience_tag_ids: [lisbon.id], audience_tag_match: 'all' });
    const withCondition = await sendJson(h, 'PATCH', `/api/v1/campaigns/${id}`, key, { audience_conditions: ['metadata.plan=silver'] });
    expect(withCondition.body).toMatchObject({ audience_tag_ids: [lisbon.id], audience_conditions: ['metadata.plan=silver'] });
    const toContacts = await sendJson(h, 'PATCH', `/api/v1/campaigns/${id}`, key, { audience_contact_ids: [carla.id] });
    expect(toContacts.body).toMatchObject({ audience_contact_ids: [carla.id], audience_tag_ids: [], audience_conditions: [] });
    expectError(await sendJson(h, 'PATCH', `/api/v1/campaigns/${id}`, key, { audience_contact_ids: null }), 400, {
      details: { audience_tag_id: expect.any(String) },
    });
    expectError(
      await sendJson(h, 'PATCH', `/api/v1/campaigns/${id}`, key, { audience_tag_id: vip.id, audience_conditions: ['metadata.plan=gold'] }),
      400,
      { details: { audience_tag_id: expect.stringContaining('give one audience') } },
    );
  });
});

// Campaigns through GraphQL, with the named operations the REST routes and MCP tools run: a campaign to a
// tag, started and run to completion by a runner ticked by hand, read back as progress, recipients and CSV;
// the lifecycle's allowed and refused moves (409 INVALID_TRANSITION), validation (400 naming each field, 422
// for a template that is not approved), workspace isolation (404) and the campaigns scope (403).
import { describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';
import { operation } from '../../facades/core/operations.js';
import { campaignTestFile, REMINDER, runToEnd, taggedContacts, testRunner } from '../support/campaigns.js';
import { listCampaigns } from '../../resolvers/campaigns/campaigns.js';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';

const h = await openHarness({ rateLimitPerMinute: 10_000 });
const file = campaignTestFile(() => h);
const { data: rawData, error: rawError } = graphqlCalls(h);

type Campaign = {
  id: string;
  status: string;
  progress: Record<string, number>;
  error_code: string | null;
  [field: string]: unknown;
};

/** The root field of a named operation that must succeed. */
async function run<T = Campaign>(key: string, name: string, variables: Record<string, unknown> = {}): Promise<T> {
  return Object.values(await rawData(key, print(operation(name)), variables))[0] as T;
}
/** The first error of a named operation that must fail, with its HTTP status. */
const refused = (key: string, name: string, variables: Record<string, unknown> = {}) => rawError(key, print(operation(name)), variables);

const shop = await file.workspace();
const key = shop.api_key;
const IN_AN_HOUR = () => new Date(Date.now() + 3600_000).toISOString();

async function draft(variables: Record<string, unknown> = {}, apiKey = key) {
  const { tag } = await taggedContacts(h, shop.workspace_id, 2);
  return run(apiKey, 'CampaignCreate', { name: 'Spring reminder', template: REMINDER, audience_tag_id: tag.id, ...variables });
}

describe('a campaign to a tag, end to end through GraphQL', () => {
  it('sends each tagged contact the template once, and reports progress, recipients and a CSV of the results', async () => {
    const { tag, contacts } = await taggedContacts(h, shop.workspace_id, 3);
    const created = await run(key, 'CampaignCreate', {
      name: 'Launch',
      template: REMINDER,
      audience_tag_id: tag.id,
      send_rate_per_minute: 120,
    });
    expect(created).toMatchObject({
      name: 'Launch',
      status: 'draft',
      template: REMINDER,
      integration_id: shop.integration_id,
      audience_tag_id: tag.id,
      audience_contact_ids: [],
      send_rate_per_minute: 120,
      started_at: null,
      progress: { total: 0, pending: 0 },
    });

    const started = await run(key, 'CampaignStart', { id: created.id });
    expect(started).toMatchObject({ status: 'running', started_at: expect.any(String), progress: { total: 3, pending: 3 } });

    const runner = testRunner(h.services);
    expect(await runToEnd(h, runner, created.id)).toBe('completed');
    expect(runner.sends.recipients().sort()).toEqual(contacts.map((contact) => contact.wa_id).sort());
    expect(runner.sends.sends.every((message) => message.content.type === 'template' && message.content.name === REMINDER.name)).toBe(true);

    // The sandbox reports delivered and read shortly after each send; recipients follow their messages.
    await expect.poll(async () => (await run(key, 'CampaignGet', { id: created.id })).progress['read'], { timeout: 5000 }).toBe(3);
    const done = await run(key, 'CampaignGet', { id: created.id });
    expect(done).toMatchObject({
      status: 'completed',
      completed_at: expect.any(String),
      progress: { total: 3, read: 3, pending: 0, sending: 0 },
    });

    const recipients = await run<{ data: Record<string, unknown>[]; has_more: boolean }>(key, 'CampaignRecipientsList', {
      campaign_id: created.id,
    });
    expect(recipients.has_more).toBe(false);
    expect(recipients.data.map((recipient) => recipient['contact_id'])).toEqual(contacts.map((contact) => contact.id).sort());
    for (const recipient of recipients.data) {
      expect(recipient).toMatchObject({
        status: 'read',
        message_id: expect.any(String),
        sent_at: expect.any(String),
        read_at: expect.any(String),
        error_code: null,
      });
    }
    const message = await h.db.prisma.message.findUniqueOrThrow({
      where: { id: recipients.data[0]!['message_id'] as string },
      include: { conversation: true },
    });
    expect(message).toMatchObject({ direction: 'outbound', status: 'read', template_name: REMINDER.name });
    expect(message.conversation).toMatchObject({
      customer_id: recipients.data[0]!['contact_id'],
      integration_id: shop.integration_id,
      status: 'active',
    });

    const csv = await run<{ filename: string; content_type: string; content: string }>(key, 'CampaignExport', { id: created.id });
    expect(csv).toMatchObject({ filename: `campaign_${created.id}.csv`, content_type: 'text/csv; charset=utf-8' });
    const lines = csv.content.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'contact_id,contact_name,phone_number,wa_id,status,message_id,error_code,error_message,sent_at,delivered_at,read_at,failed_at',
    );
    expect(lines).toHaveLength(4);
    // A cell that starts like a formula (+, =, -, @) is prefixed with ', which also keeps a spreadsheet from
    // turning an E.164 number into a plain number.
    expect(lines[1]).toMatch(
      new RegExp(
        `^${contacts[0]!.id},Contact 1,'\\${contacts[0]!.phone_number},${contacts[0]!.wa_id},read,${String(recipients.data[0]!['message_id'])},,,\\d{4}-`,
      ),
    );
  });

  it('lists campaigns newest first with their progress, filtered by status, a page at a time', async () => {
    const first = await draft({ name: 'First' });
    const second = await draft({ name: 'Second' });
    await run(key, 'CampaignCancel', { id: first.id });
    const page = await run<{ data: Campaign[]; next_cursor: string; has_more: boolean }>(key, 'CampaignsList', { limit: 1 });
    expect(page).toMatchObject({ data: [{ id: second.id, status: 'draft', progress: { total: 0 } }], has_more: true });
    const next = await run<{ data: Campaign[] }>(key, 'CampaignsList', { limit: 1, cursor: page.next_cursor });
    expect(next.data[0]!.id).toBe(first.id);
    const cancelled = await run<{ data: Campaign[] }>(key, 'CampaignsList', { status: 'cancelled' });
    expect(cancelled.data.map((campaign) => campaign.id)).toContain(first.id);
    expect(cancelled.data.map((campaign) => campaign.id)).not.toContain(second.id);
    expect((await refused(key, 'CampaignsList', { status: 'finished' })).details).toEqual({
      status: expect.stringContaining('draft, scheduled'),
    });
  });
  it('reads the progress of a whole page in one aggregate query, however many campaigns it holds', async () => {
    const reader = await file.workspace();
    for (let index = 0; index < 4; index += 1) {
      const { tag } = await taggedContacts(h, reader.workspace_id, 2);
      const campaign = await run(reader.api_key, 'CampaignCreate', { name: `Page ${index}`, template: REMINDER, audience_tag_id: tag.id });
      await run(reader.api_key, 'CampaignStart', { id: campaign.id });
      await run(reader.api_key, 'CampaignCancel', { id: campaign.id });
    }
    const statements: string[] = [];
    const counted = h.db.prisma.$extends({
      query: {
        $allOperations({ model, operation, args, query }) {
          statements.push(`${model}.${operation}`);
          return query(args);
        },
      },
    }) as unknown as PrismaClient;
    const actor = { workspaceId: reader.workspace_id, userId: null, keyId: 'test', keyPrefix: 'test', scopes: new Set(['campaigns']) };
    const page = await listCampaigns({ ...h.services, prisma: counted, actor, requestId: 'req_test', idempotencyKey: null }, { limit: 10 });
    expect(page.data).toHaveLength(4);
    expect(page.data.every((campaign) => campaign.progress.total === 2 && campaign.progress.cancelled === 2)).toBe(true);
    // The progress is one raw statement (recipients grouped by status and by the contact's consent): Prisma names no model.
    expect(statements).toEqual(['Campaign.findMany', 'undefined.$queryRaw']);
  });
});

describe('lifecycle', () => {
  it('moves draft → scheduled → running → paused → running → cancelled, and refuses every other move with 409 INVALID_TRANSITION', async () => {
    const campaign = await draft();
    const scheduledAt = IN_AN_HOUR();
    expect(await run(key, 'CampaignSchedule', { id: campaign.id, scheduled_at: scheduledAt })).toMatchObject({
      status: 'scheduled',
      scheduled_at: scheduledAt,
      next_send_at: scheduledAt,
      progress: { total: 0 },
    });
    for (const action of ['CampaignPause', 'CampaignResume', 'CampaignUpdate']) {
      expect(await refused(key, action, { id: campaign.id })).toMatchObject({ status: 409, code: 'INVALID_TRANSITION' });
    }
    expect(await run(key, 'CampaignStart', { id: campaign.id })).toMatchObject({ status: 'running', progress: { total: 2, pending: 2 } });
    const again = await refused(key, 'CampaignStart', { id: campaign.id });
    expect(again).toMatchObject({
      status: 409,
      code: 'INVALID_TRANSITION',
      message: 'Cannot start a campaign whose status is running',
      details: { status: 'running', action: 'start', allowed_from: ['draft', 'scheduled'] },
    });
    expect(await refused(key, 'CampaignDelete', { id: campaign.id })).toMatchObject({
      code: 'INVALID_TRANSITION',
      details: { status: 'running' },
    });
    expect(await run(key, 'CampaignPause', { id: campaign.id })).toMatchObject({ status: 'paused', next_send_at: null });
    expect(await refused(key, 'CampaignPause', { id: campaign.id })).toMatchObject({
      code: 'INVALID_TRANSITION',
      details: { status: 'paused' },
    });
    expect(await run(key, 'CampaignResume', { id: campaign.id })).toMatchObject({ status: 'running', progress: { total: 2, pending: 2 } });
    const cancelled = await run(key, 'CampaignCancel', { id: campaign.id });
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancelled_at: expect.any(String),
      next_send_at: null,
      progress: { total: 2, cancelled: 2, pending: 0 },
    });
    for (const action of ['CampaignStart', 'CampaignResume', 'CampaignCancel', 'CampaignPause']) {
      expect(await refused(key, action, { id: campaign.id }), action).toMatchObject({
        code: 'INVALID_TRANSITION',
        details: { status: 'cancelled' },
      });
    }
    expect(await refused(key, 'CampaignSchedule', { id: campaign.id, scheduled_at: IN_AN_HOUR() })).toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    expect(await run(key, 'CampaignDelete', { id: campaign.id })).toMatchObject({ id: campaign.id, status: 'cancelled' });
    expect((await refused(key, 'CampaignGet', { id: campaign.id })).code).toBe('NOT_FOUND');
  });

  it('edits only drafts: omitted fields stay, null clears the rate, a list of contacts replaces the tag', async () => {
    const campaign = await draft({ send_rate_per_minute: 30 });
    const contact = await h.db.prisma.customer.create({
      data: { company_id: shop.workspace_id, name: 'Listed', phone_number: '+15550199001' },
    });
    const edited = await run(key, 'CampaignUpdate', {
      id: campaign.id,
      name: 'Renamed',
      audience_contact_ids: [contact.id, contact.id],
      send_rate_per_minute: null,
    });
    expect(edited).toMatchObject({
      name: 'Renamed',
      template: REMINDER,
      audience_tag_id: null,
      audience_contact_ids: [contact.id],
      send_rate_per_minute: null,
    });
    const retemplated = await run(key, 'CampaignUpdate', {
      id: campaign.id,
      template: { name: 'order_confirmation', language: 'en-US', parameters: ['#1', 'Ana', 'Monday'] },
    });
    expect(retemplated).toMatchObject({
      name: 'Renamed',
      template: { name: 'order_confirmation', language: 'en-US' },
      audience_contact_ids: [contact.id],
    });
    expect(await refused(key, 'CampaignUpdate', { id: campaign.id, audience_contact_ids: null })).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { audience_tag_id: 'give the audience: audience_tag_id, audience_contact_ids, or audience_tag_ids and audience_conditions' },
    });
    const started = await run(key, 'CampaignStart', { id: campaign.id });
    expect(started.progress).toMatchObject({ total: 1, pending: 1 });
    expect(await refused(key, 'CampaignUpdate', { id: campaign.id, name: 'Too late' })).toMatchObject({
      status: 409,
      code: 'INVALID_TRANSITION',
      details: { status: 'running', action: 'update', allowed_from: ['draft'] },
    });
    await run(key, 'CampaignCancel', { id: campaign.id });
  });

  it('deletes a draft, answering it as it was', async () => {
    const campaign = await draft();
    expect(await run(key, 'CampaignDelete', { id: campaign.id })).toMatchObject({ id: campaign.id, status: 'draft' });
    expect((await refused(key, 'CampaignDelete', { id: campaign.id })).code).toBe('NOT_FOUND');
  });
});

describe('validation', () => {
  it('answers 400 VALIDATION_ERROR naming each bad field', async () => {
    const { tag } = await taggedContacts(h, shop.workspace_id, 1);
    const base = { name: 'Check', template: REMINDER, audience_tag_id: tag.id };
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ ...base, name: ' ' }, { name: 'is required' }],
      [
        { ...base, audience_tag_id: null },
        { audience_tag_id: 'give the audience: audience_tag_id, audience_contact_ids, or audience_tag_ids and audience_conditions' },
      ],
      [
        { ...base, audience_contact_ids: [shop.user_id] },
        { audience_tag_id: 'give one audience: audience_tag_id, audience_contact_ids, or audience_tag_ids and audience_conditions' },
      ],
      [{ ...base, audience_tag_id: null, audience_contact_ids: [] }, { audience_contact_ids: 'must name at least one contact' }],
      [{ ...base, audience_tag_id: 'tag' }, { audience_tag_id: 'must be a UUID' }],
      [{ ...base, send_rate_per_minute: 0 }, { send_rate_per_minute: 'must be between 1 and 1000' }],
      [{ ...base, send_rate_per_minute: 1001 }, { send_rate_per_minute: 'must be between 1 and 1000' }],
      [{ ...base, template: { ...REMINDER, language: 'english!' } }, { 'template.language': 'must be a language tag such as en_US' }],
      [{ ...base, template: { ...REMINDER, parameters: ['only one'] } }, { 'template.parameters': expect.stringContaining('exactly 3') }],
      [
        { ...base, audience_tag_id: null, audience_contact_ids: [shop.user_id] },
        { audience_contact_ids: expect.stringContaining(shop.user_id) },
      ],
    ];
    for (const [variables, details] of cases) {
      const error = await refused(key, 'CampaignCreate', variables);
      expect(error, JSON.stringify(variables)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details });
    }
    const campaign = await draft();
    expect(
      await refused(key, 'CampaignSchedule', { id: campaign.id, scheduled_at: new Date(Date.now() - 1000).toISOString() }),
    ).toMatchObject({
      status: 400,
      details: { scheduled_at: 'must be in the future' },
    });
    expect(await refused(key, 'CampaignUpdate', { id: campaign.id, name: null })).toMatchObject({
      status: 400,
      details: { name: 'is required' },
    });
    expect(await refused(key, 'CampaignRecipientsList', { campaign_id: campaign.id, status: 'lost' })).toMatchObject({
      status: 400,
      details: { status: expect.stringContaining('pending, sending') },
    });
  });

  it('accepts only APPROVED templates (422 TEMPLATE_NOT_APPROVED), at creation, on edit and again at start', async () => {
    const { tag } = await taggedContacts(h, shop.workspace_id, 1);
    const pending = { name: 'product_launch_video', language: 'en_US', parameters: [] };
    const error = await refused(key, 'CampaignCreate', { name: 'Video', template: pending, audience_tag_id: tag.id });
    expect(error).toMatchObject({
      status: 422,
      code: 'TEMPLATE_NOT_APPROVED',
      details: { name: 'product_launch_video', status: 'PENDING' },
    });
    expect(
      await refused(key, 'CampaignCreate', { name: 'Ghost', template: { ...pending, name: 'no_such_template' }, audience_tag_id: tag.id }),
    ).toMatchObject({
      code: 'TEMPLATE_NOT_APPROVED',
      details: { status: null },
    });

    const campaign = await draft();
    expect(await refused(key, 'CampaignUpdate', { id: campaign.id, template: pending })).toMatchObject({ code: 'TEMPLATE_NOT_APPROVED' });
    // The template stored with the draft was withdrawn at the provider since (here: renamed to a rejected one).
    await h.db.prisma.campaign.update({
      where: { id: campaign.id },
      data: { template_name: 'shipping_discount', template_parameters: [] },
    });
    expect(await refused(key, 'CampaignStart', { id: campaign.id })).toMatchObject({
      status: 422,
      code: 'TEMPLATE_NOT_APPROVED',
      details: { status: 'REJECTED' },
    });
    expect(await run(key, 'CampaignGet', { id: campaign.id })).toMatchObject({ status: 'draft', progress: { total: 0 } });
  });

  it('answers 404 for a tag or integration that is not the workspace’s', async () => {
    const other = await file.workspace();
    const { tag: foreignTag } = await taggedContacts(h, other.workspace_id, 1);
    expect(await refused(key, 'CampaignCreate', { name: 'X', template: REMINDER, audience_tag_id: foreignTag.id })).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Tag not found',
    });
    const { tag } = await taggedContacts(h, shop.workspace_id, 1);
    expect(
      await refused(key, 'CampaignCreate', {
        name: 'X',
        template: REMINDER,
        audience_tag_id: tag.id,
        integration_id: other.integration_id,
      }),
    ).toMatchObject({
      status: 404,
      code: 'INTEGRATION_NOT_FOUND',
    });
  });
});

describe('workspaces and scopes', () => {
  it("answers 404 for another workspace's campaign on every operation, and lists none of them", async () => {
    const campaign = await draft();
    await run(key, 'CampaignStart', { id: campaign.id });
    const stranger = await file.workspace();
    const theirs = stranger.api_key;
    expect((await run<{ data: Campaign[] }>(theirs, 'CampaignsList')).data).toEqual([]);
    for (const name of [
      'CampaignGet',
      'CampaignUpdate',
      'CampaignDelete',
      'CampaignStart',
      'CampaignPause',
      'CampaignResume',
      'CampaignCancel',
      'CampaignExport',
    ]) {
      expect(await refused(theirs, name, { id: campaign.id }), name).toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Campaign not found',
      });
    }
    expect(await refused(theirs, 'CampaignSchedule', { id: campaign.id, scheduled_at: IN_AN_HOUR() })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refused(theirs, 'CampaignRecipientsList', { campaign_id: campaign.id })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await run(key, 'CampaignGet', { id: campaign.id })).toMatchObject({ status: 'running' });
    await run(key, 'CampaignCancel', { id: campaign.id });
  });

  it('requires the campaigns scope (403 INSUFFICIENT_SCOPE) for every campaign operation', async () => {
    const campaign = await draft();
    const narrow = await h.key(shop.workspace_id, ['tags', 'templates', 'messages']);
    for (const name of ['CampaignsList', 'CampaignGet', 'CampaignExport', 'CampaignStart', 'CampaignCancel', 'CampaignDelete']) {
      expect(await refused(narrow, name, { id: campaign.id }), name).toMatchObject({
        status: 403,
        code: 'INSUFFICIENT_SCOPE',
        details: { required_scope: ['campaigns'] },
      });
    }
    const only = await h.key(shop.workspace_id, ['campaigns']);
    expect(await run(only, 'CampaignGet', { id: campaign.id })).toMatchObject({ id: campaign.id });
  });
});

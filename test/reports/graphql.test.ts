// Reports through GraphQL on a workspace with a known history (seed.ts): first response and resolution
// medians and p90s (10 conversations answered after 1…10 minutes → 5.5 and 9.1 minutes), opened, closed and
// reopened counts, messages, the series in the report's time zone, the previous period, the filters, the
// per-person table, the AI agent, campaigns and templates (business hours: businessHours.test.ts) — only from the caller's workspace, only with the
// `analytics` scope, and clear 400s for ranges and zones that cannot be read.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';
import { AGENT_WEEK, CAMPAIGN_WEEK, RESPONSE_WEEK, seedReports } from './seed.js';

const harness = await openHarness();
const { data, error } = graphqlCalls(harness);
const { workspace, maya, leo, vip, front, campaign } = await seedReports(harness, 'Reports shop');
// The same history in a second workspace: none of it may reach the first one's figures.
const twin = await seedReports(harness, 'Reports twin');
const key = workspace.api_key;

const FIGURES = `conversations_opened conversations_closed conversations_reopened messages_in messages_out
  first_response_conversations unanswered_conversations first_response_median_seconds first_response_p90_seconds
  first_response_business_median_seconds first_response_business_p90_seconds
  resolution_conversations resolution_median_seconds resolution_p90_seconds
  resolution_business_median_seconds resolution_business_p90_seconds`;
const CONVERSATIONS = `query($from: DateTime!, $to: DateTime!, $interval: ReportInterval, $time_zone: String,
  $assignee_user_id: ID, $team_id: ID, $tag_id: ID, $channel: String) {
  reportConversations(from: $from, to: $to, interval: $interval, time_zone: $time_zone,
    assignee_user_id: $assignee_user_id, team_id: $team_id, tag_id: $tag_id, channel: $channel) {
    from to interval time_zone totals { ${FIGURES} } previous { ${FIGURES} } series { start figures { ${FIGURES} } } } }`;

async function conversations(variables: Record<string, unknown>) {
  return (await data(key, CONVERSATIONS, { ...RESPONSE_WEEK, ...variables })).reportConversations;
}

describe('conversations report', () => {
  it('gives the week of 10 conversations answered after 1…10 minutes: median 5.5 min, p90 9.1 min', async () => {
    const report = await conversations({});
    expect(report.totals).toEqual({
      conversations_opened: 10,
      conversations_closed: 4,
      conversations_reopened: 0,
      messages_in: 10,
      messages_out: 20,
      first_response_conversations: 10,
      unanswered_conversations: 0,
      first_response_median_seconds: 330,
      first_response_p90_seconds: 546,
      // No business hours set: open around the clock, so business time is calendar time.
      first_response_business_median_seconds: 330,
      first_response_business_p90_seconds: 546,
      // Resolutions of 1, 2, 3 and 4 hours.
      resolution_conversations: 4,
      resolution_median_seconds: 9000,
      resolution_p90_seconds: 13_320,
      resolution_business_median_seconds: 9000,
      resolution_business_p90_seconds: 13_320,
    });
    expect(report).toMatchObject({ interval: 'day', time_zone: 'UTC', from: RESPONSE_WEEK.from, to: RESPONSE_WEEK.to });
  });

  it('compares with the previous period of equal length (here: nothing happened)', async () => {
    const report = await conversations({});
    expect(report.previous).toMatchObject({ conversations_opened: 0, messages_in: 0, first_response_median_seconds: null });
    const next = await data(key, CONVERSATIONS, AGENT_WEEK);
    expect(next.reportConversations.previous).toEqual(report.totals);
  });

  it('draws the series in the report time zone, one point per interval, empty ones included', async () => {
    const utc = await conversations({ interval: 'day' });
    expect(utc.series.map((point: { start: string }) => point.start)).toEqual(
      [5, 6, 7, 8, 9, 10, 11].map((day) => `2026-10-${String(day).padStart(2, '0')}T00:00:00.000Z`),
    );
    expect(utc.series.map((point: any) => point.figures.conversations_opened)).toEqual([10, 0, 0, 0, 0, 0, 0]);
    // In Tokyo (UTC+9) conversations opened 10:00–14:00 UTC fall on Monday, 15:00–19:00 UTC on Tuesday.
    const tokyo = await conversations({ interval: 'day', time_zone: 'Asia/Tokyo' });
    expect(tokyo.series[0]).toMatchObject({ start: '2026-10-04T15:00:00.000Z', figures: { conversations_opened: 5 } });
    expect(tokyo.series[1]).toMatchObject({ start: '2026-10-05T15:00:00.000Z', figures: { conversations_opened: 5 } });
    expect(tokyo.series[1].figures.first_response_median_seconds).toBe(480);
    const hourly = await conversations({ interval: 'hour', from: '2026-10-05T10:00:00.000Z', to: '2026-10-05T13:00:00.000Z' });
    expect(hourly.series.map((point: any) => point.figures.first_response_median_seconds)).toEqual([60, 120, 180]);
    const weekly = await conversations({ interval: 'week' });
    expect(weekly.series).toHaveLength(1);
    expect(weekly.series[0].figures).toEqual(weekly.totals);
  });

  it('narrows by assignee, team, contact tag and channel', async () => {
    const leos = await conversations({ assignee_user_id: leo.id });
    expect(leos.totals).toMatchObject({ conversations_opened: 5, first_response_median_seconds: 480, resolution_conversations: 0 });
    const vips = await conversations({ tag_id: vip.id });
    expect(vips.totals).toMatchObject({ conversations_opened: 3, first_response_median_seconds: 120, first_response_p90_seconds: 168 });
    const whatsapp = await conversations({ channel: 'whatsapp' });
    expect(whatsapp.totals).toMatchObject({ conversations_opened: 1, messages_out: 2, first_response_median_seconds: 600 });
    // Front's one member is Leo: the team's conversations are his.
    const fronts = await conversations({ team_id: front.id });
    expect(fronts.totals).toEqual(leos.totals);
  });

  it("refuses a team, person or tag that is not one of the workspace's with a 400 naming each filter", async () => {
    const reasons = {
      team_id: 'must be the id of a team of this workspace',
      assignee_user_id: 'must be the id of a person of this workspace',
      tag_id: 'must be the id of a tag of this workspace',
    };
    const foreign = await error(key, CONVERSATIONS, {
      ...RESPONSE_WEEK,
      team_id: twin.front.id,
      assignee_user_id: twin.leo.id,
      tag_id: twin.vip.id,
    });
    expect(foreign).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: reasons });
    const missing = '0190e7a0-0000-7000-8000-000000000000';
    const unknown = await error(key, CONVERSATIONS, { ...RESPONSE_WEEK, team_id: missing, assignee_user_id: missing, tag_id: missing });
    expect(unknown).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: reasons });
  });

  it('counts a close then a reopen made through the API as one reopening and no closing', async () => {
    const fresh = await harness.workspace('Reports reopen');
    const customer = await harness.db.prisma.customer.create({ data: { company_id: fresh.workspace_id, name: 'Reopener' } });
    const opened = await harness.db.prisma.conversation.create({
      data: { company_id: fresh.workspace_id, customer_id: customer.id, provider: 'sandbox' },
    });
    await data(fresh.api_key, 'mutation($id: ID!) { conversationClose(id: $id) { status } }', { id: opened.id });
    await data(fresh.api_key, 'mutation($id: ID!) { conversationReopen(id: $id) { status } }', { id: opened.id });
    const now = Date.now();
    const range = { from: new Date(now - 3_600_000).toISOString(), to: new Date(now + 3_600_000).toISOString() };
    const { reportConversations } = await data(fresh.api_key, CONVERSATIONS, range);
    expect(reportConversations.totals).toMatchObject({ conversations_opened: 1, conversations_closed: 0, conversations_reopened: 1 });
  });
});

describe('per-person table', () => {
  it('gives each member their handled conversations, first responses, resolutions and open conversations', async () => {
    const { reportPeople } = await data(
      key,
      `query($from: DateTime!, $to: DateTime!) { reportPeople(from: $from, to: $to) { rows { user_id name conversations_handled
        first_response_conversations first_response_median_seconds first_response_p90_seconds resolution_conversations
        resolution_median_seconds resolution_p90_seconds open_now } } }`,
      RESPONSE_WEEK,
    );
    const byId = new Map(reportPeople.rows.map((row: { user_id: string }) => [row.user_id, row]));
    expect(byId.get(leo.id)).toEqual({
      user_id: leo.id,
      name: 'Leo',
      conversations_handled: 5,
      first_response_conversations: 5,
      first_response_median_seconds: 480,
      first_response_p90_seconds: 576,
      resolution_conversations: 0,
      resolution_median_seconds: null,
      resolution_p90_seconds: null,
      open_now: 5,
    });
    expect(byId.get(maya.id)).toEqual({
      user_id: maya.id,
      name: 'Maya',
      conversations_handled: 5,
      first_response_conversations: 5,
      first_response_median_seconds: 180,
      first_response_p90_seconds: 276,
      resolution_conversations: 4,
      resolution_median_seconds: 9000,
      resolution_p90_seconds: 13_320,
      open_now: 1,
    });
  });

  it("keeps only the team's members with a team filter", async () => {
    const { reportPeople } = await data(
      key,
      `query($from: DateTime!, $to: DateTime!, $team_id: ID) { reportPeople(from: $from, to: $to, team_id: $team_id) {
        rows { user_id conversations_handled first_response_median_seconds } } }`,
      { ...RESPONSE_WEEK, team_id: front.id },
    );
    expect(reportPeople.rows).toEqual([{ user_id: leo.id, conversations_handled: 5, first_response_median_seconds: 480 }]);
  });
});

describe('AI agent, campaigns and templates', () => {
  it("gives the agent's answered, handed-off (by reason) and closed-without-a-person conversations and its shares", async () => {
    const { reportAgent } = await data(
      key,
      `query($from: DateTime!, $to: DateTime!) { reportAgent(from: $from, to: $to) { conversations_with_inbound
        conversations_answered conversations_handed_off handoffs_by_reason { reason count } conversations_closed
        closed_without_person answered_share closed_without_person_share } }`,
      AGENT_WEEK,
    );
    expect(reportAgent).toEqual({
      conversations_with_inbound: 4,
      conversations_answered: 1,
      conversations_handed_off: 2,
      handoffs_by_reason: [
        { reason: 'customer_asked', count: 1 },
        { reason: 'no_answer', count: 1 },
      ],
      conversations_closed: 2,
      closed_without_person: 1,
      answered_share: 0.25,
      closed_without_person_share: 0.5,
    });
  });

  it('gives each campaign its sent, delivered, read, replied and opted out within 24 h, and failures by code', async () => {
    const { reportCampaigns } = await data(
      key,
      `query($from: DateTime!, $to: DateTime!) { reportCampaigns(from: $from, to: $to) { rows { campaign_id name status template_name
        recipients sent delivered read replied_within_24h opted_out failed failed_by_error_code { error_code count } } } }`,
      CAMPAIGN_WEEK,
    );
    expect(reportCampaigns.rows).toEqual([
      {
        campaign_id: campaign.id,
        name: 'Autumn sale',
        status: 'completed',
        template_name: 'promo',
        recipients: 4,
        sent: 2,
        delivered: 2,
        read: 1,
        replied_within_24h: 1,
        opted_out: 1,
        failed: 2,
        failed_by_error_code: [{ error_code: '131026', count: 2 }],
      },
    ]);
  });

  it('gives each template its sends, read rate, replies within 24 h and billable sends', async () => {
    const { reportTemplates } = await data(
      key,
      `query($from: DateTime!, $to: DateTime!) { reportTemplates(from: $from, to: $to) { rows { template_name template_language
        sends delivered read read_rate replies failed billable } } }`,
      CAMPAIGN_WEEK,
    );
    expect(reportTemplates.rows).toEqual([
      {
        template_name: 'promo',
        template_language: 'en',
        sends: 4,
        delivered: 2,
        read: 1,
        read_rate: 0.5,
        replies: 1,
        failed: 2,
        billable: 1,
      },
    ]);
  });
});

describe('who may read reports, and what is refused', () => {
  it('needs the analytics scope', async () => {
    const contactsOnly = await harness.key(workspace.workspace_id, ['customers']);
    const refused = await error(contactsOnly, CONVERSATIONS, RESPONSE_WEEK);
    expect(refused).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', details: { required_scope: ['analytics'] } });
  });

  it('refuses a range by hour over 31 days, a range that ends before it starts, and an unknown time zone', async () => {
    const tooLong = await error(key, CONVERSATIONS, { from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z', interval: 'hour' });
    expect(tooLong).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { to: 'is too far after from: at most 366 days (31 days by hour)' },
    });
    const backwards = await error(key, CONVERSATIONS, { from: RESPONSE_WEEK.to, to: RESPONSE_WEEK.from });
    expect(backwards).toMatchObject({ status: 400, details: { to: 'must be after from' } });
    const zone = await error(key, CONVERSATIONS, { ...RESPONSE_WEEK, time_zone: 'Mars/Olympus' });
    expect(zone).toMatchObject({ status: 400, details: { time_zone: 'must be an IANA time zone such as Europe/Lisbon' } });
  });
});

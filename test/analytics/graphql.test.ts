// Analytics through GraphQL on a realistic week of conversations: exact counts by status and direction,
// first-response and resolution times (mean and median), delivery and read rates, per assignee, and the
// CSV export — only ever from the caller's workspace, and only with the `analytics` scope.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';

const harness = await openHarness();
const { data, error } = graphqlCalls(harness);
const prisma = harness.db.prisma;

type Message = { direction: 'inbound' | 'outbound'; status: string; at: string };
type ConversationSeed = { assignee: string | null; created: string; status: string; closed?: string; messages: Message[] };

const inbound = (at: string): Message => ({ direction: 'inbound', status: 'received', at });
const outbound = (at: string, status: string): Message => ({ direction: 'outbound', status, at });

async function seedWorkspace(name: string) {
  const workspace = await harness.workspace(name);
  const company_id = workspace.workspace_id;
  const suffix = company_id.slice(-8);
  const maya = await prisma.user.create({ data: { company_id, name: 'Maya Agent', email: `maya.${suffix}@example.com`, role: 'member' } });
  // A name that a spreadsheet would run as a formula, with a comma and quotes: the CSV must neutralise it.
  const leo = await prisma.user.create({
    data: { company_id, name: '=Leo, "the closer"', email: `leo.${suffix}@example.com`, role: 'member' },
  });
  const users: Record<string, string> = { maya: maya.id, leo: leo.id };
  const customer = await prisma.customer.create({ data: { company_id, name: 'Analytics customer' } });

  // The week under study is [2026-10-05, 2026-10-12). Times of first response and resolution in comments.
  const conversations: ConversationSeed[] = [
    {
      // C1 Maya: first response 120 s; closed after 7200 s
      assignee: 'maya',
      created: '2026-10-05T09:00:00Z',
      status: 'closed',
      closed: '2026-10-05T11:00:00Z',
      messages: [
        inbound('2026-10-05T09:00:00Z'),
        outbound('2026-10-05T09:02:00Z', 'read'),
        inbound('2026-10-05T09:10:00Z'),
        outbound('2026-10-05T09:15:00Z', 'delivered'),
      ],
    },
    {
      // C2 Maya: first response 600 s; one reply failed
      assignee: 'maya',
      created: '2026-10-06T10:00:00Z',
      status: 'active',
      messages: [inbound('2026-10-06T10:00:00Z'), outbound('2026-10-06T10:10:00Z', 'read'), outbound('2026-10-06T10:11:00Z', 'failed')],
    },
    {
      // C3 Leo: first response 1800 s; closed after 86400 s
      assignee: 'leo',
      created: '2026-10-07T12:00:00Z',
      status: 'closed',
      closed: '2026-10-08T12:00:00Z',
      messages: [inbound('2026-10-07T12:00:00Z'), outbound('2026-10-07T12:30:00Z', 'delivered')],
    },
    {
      // C4 Leo: never answered
      assignee: 'leo',
      created: '2026-10-08T08:00:00Z',
      status: 'pending',
      messages: [inbound('2026-10-08T08:00:00Z')],
    },
    {
      // C5 unassigned, opened before the week: only its messages in the week count; first response 30 s
      assignee: null,
      created: '2026-10-01T08:00:00Z',
      status: 'active',
      messages: [
        inbound('2026-10-01T08:00:00Z'),
        outbound('2026-10-01T08:05:00Z', 'read'),
        inbound('2026-10-09T09:00:00Z'),
        outbound('2026-10-09T09:00:30Z', 'sent'),
      ],
    },
    {
      // C6 Maya: no message in the week, but closed in it after 1746000 s (20 days 5 hours)
      assignee: 'maya',
      created: '2026-09-20T10:00:00Z',
      status: 'closed',
      closed: '2026-10-10T15:00:00Z',
      messages: [inbound('2026-09-20T10:00:00Z'), outbound('2026-09-20T10:01:00Z', 'read')],
    },
    {
      // C7 Leo: a business-initiated template, no inbound
      assignee: 'leo',
      created: '2026-10-11T23:00:00Z',
      status: 'active',
      messages: [outbound('2026-10-11T23:00:00Z', 'delivered')],
    },
    {
      // C8 Maya: entirely after the week
      assignee: 'maya',
      created: '2026-10-12T01:00:00Z',
      status: 'active',
      messages: [inbound('2026-10-12T01:00:00Z'), outbound('2026-10-12T01:01:00Z', 'read')],
    },
    {
      // C9 Leo: asked in the week, answered after it: first response 9000 s counts; the reply itself is not a message of the week
      assignee: 'leo',
      created: '2026-10-11T22:00:00Z',
      status: 'active',
      messages: [inbound('2026-10-11T22:00:00Z'), outbound('2026-10-12T00:30:00Z', 'read')],
    },
  ];
  for (const seed of conversations) {
    const conversation = await prisma.conversation.create({
      data: {
        company_id,
        customer_id: customer.id,
        provider: 'sandbox',
        status: seed.status,
        assigned_user_id: seed.assignee ? users[seed.assignee]! : null,
        created_at: new Date(seed.created),
        closed_at: seed.closed ? new Date(seed.closed) : null,
      },
    });
    await prisma.message.createMany({
      data: seed.messages.map((message) => ({
        company_id,
        conversation_id: conversation.id,
        direction: message.direction,
        status: message.status,
        body: message.direction === 'inbound' ? 'Hello?' : 'Hi!',
        created_at: new Date(message.at),
      })),
    });
  }
  return { workspace, maya, leo };
}

const { workspace: shop, maya, leo } = await seedWorkspace('Analytics shop');
// A second workspace with the very same history: none of it may leak into the first one's numbers.
const { workspace: twin } = await seedWorkspace('Analytics twin');
const WEEK = { from: '2026-10-05T00:00:00.000Z', to: '2026-10-12T00:00:00.000Z' };

const METRICS = `conversations_active conversations_opened conversations_closed messages_inbound messages_outbound
  messages_delivered messages_read messages_failed delivery_rate read_rate conversations_with_inbound first_responses
  first_response_avg_seconds first_response_median_seconds resolution_avg_seconds resolution_median_seconds`;
const SUMMARY = `query($from: DateTime!, $to: DateTime!) { analyticsSummary(from: $from, to: $to) {
  from to totals { ${METRICS} } conversations_by_status { status count } messages_by_status { direction status count }
  assignees { assignee_user_id assignee_name assignee_email ${METRICS} } } }`;
const EXPORT = 'query($from: DateTime!, $to: DateTime!) { analyticsExport(from: $from, to: $to) { filename content_type content } }';

const leoMetrics = {
  conversations_active: 4,
  conversations_opened: 4,
  conversations_closed: 1,
  messages_inbound: 3,
  messages_outbound: 2,
  messages_delivered: 2,
  messages_read: 0,
  messages_failed: 0,
  delivery_rate: 1,
  read_rate: 0,
  conversations_with_inbound: 3,
  first_responses: 2,
  first_response_avg_seconds: 5400,
  first_response_median_seconds: 5400,
  resolution_avg_seconds: 86400,
  resolution_median_seconds: 86400,
};
const mayaMetrics = {
  conversations_active: 2,
  conversations_opened: 2,
  conversations_closed: 2,
  messages_inbound: 3,
  messages_outbound: 4,
  messages_delivered: 3,
  messages_read: 2,
  messages_failed: 1,
  delivery_rate: 0.75,
  read_rate: 0.6667,
  conversations_with_inbound: 2,
  first_responses: 2,
  first_response_avg_seconds: 360,
  first_response_median_seconds: 360,
  resolution_avg_seconds: 876600,
  resolution_median_seconds: 876600,
};
const unassignedMetrics = {
  conversations_active: 1,
  conversations_opened: 0,
  conversations_closed: 0,
  messages_inbound: 1,
  messages_outbound: 1,
  messages_delivered: 0,
  messages_read: 0,
  messages_failed: 0,
  delivery_rate: 0,
  read_rate: null,
  conversations_with_inbound: 1,
  first_responses: 1,
  first_response_avg_seconds: 30,
  first_response_median_seconds: 30,
  resolution_avg_seconds: null,
  resolution_median_seconds: null,
};

describe('analytics summary', () => {
  it('computes the exact totals, status counts and per-assignee metrics of the week', async () => {
    const { analyticsSummary } = await data<{ analyticsSummary: Record<string, unknown> }>(shop.api_key, SUMMARY, WEEK);
    expect(analyticsSummary).toEqual({
      from: WEEK.from,
      to: WEEK.to,
      totals: {
        conversations_active: 7,
        conversations_opened: 6,
        conversations_closed: 3,
        messages_inbound: 7,
        messages_outbound: 7,
        messages_delivered: 5,
        messages_read: 2,
        messages_failed: 1,
        delivery_rate: 0.7143,
        read_rate: 0.4,
        conversations_with_inbound: 6,
        first_responses: 5,
        first_response_avg_seconds: 2310,
        first_response_median_seconds: 600,
        resolution_avg_seconds: 613200,
        resolution_median_seconds: 86400,
      },
      conversations_by_status: [
        { status: 'active', count: 4 },
        { status: 'closed', count: 2 },
        { status: 'pending', count: 1 },
      ],
      messages_by_status: [
        { direction: 'inbound', status: 'received', count: 7 },
        { direction: 'outbound', status: 'delivered', count: 3 },
        { direction: 'outbound', status: 'failed', count: 1 },
        { direction: 'outbound', status: 'read', count: 2 },
        { direction: 'outbound', status: 'sent', count: 1 },
      ],
      assignees: [
        { assignee_user_id: leo.id, assignee_name: '=Leo, "the closer"', assignee_email: leo.email, ...leoMetrics },
        { assignee_user_id: maya.id, assignee_name: 'Maya Agent', assignee_email: maya.email, ...mayaMetrics },
        { assignee_user_id: null, assignee_name: null, assignee_email: null, ...unassignedMetrics },
      ],
    });
  });

  it('answers zeros and nulls for a range without activity', async () => {
    const { analyticsSummary } = await data<{
      analyticsSummary: { totals: Record<string, unknown>; assignees: unknown[]; messages_by_status: unknown[] };
    }>(shop.api_key, SUMMARY, { from: '2025-01-01T00:00:00.000Z', to: '2025-02-01T00:00:00.000Z' });
    expect(analyticsSummary.totals).toMatchObject({
      conversations_active: 0,
      messages_outbound: 0,
      delivery_rate: null,
      first_response_avg_seconds: null,
    });
    expect(analyticsSummary.assignees).toEqual([]);
    expect(analyticsSummary.messages_by_status).toEqual([]);
  });

  it.each([
    ['to is not after from', { from: WEEK.to, to: WEEK.from }, 'must be after from'],
    [
      'the range exceeds 366 days',
      { from: '2025-01-01T00:00:00.000Z', to: '2026-01-03T00:00:00.000Z' },
      'must be at most 366 days after from',
    ],
  ])('refuses a range where %s', async (_case, range, reason) => {
    expect(await error(shop.api_key, SUMMARY, range)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { to: reason } });
  });
});

describe('CSV export', () => {
  it('exports the same numbers as CSV: header, all, then each assignee, formulas neutralised', async () => {
    const { analyticsExport } = await data<{ analyticsExport: { filename: string; content_type: string; content: string } }>(
      shop.api_key,
      EXPORT,
      WEEK,
    );
    expect(analyticsExport.filename).toBe('analytics_2026-10-05_2026-10-12.csv');
    expect(analyticsExport.content_type).toBe('text/csv; charset=utf-8');
    expect(analyticsExport.content.split('\r\n')).toEqual([
      'scope,assignee_user_id,assignee_name,assignee_email,conversations_active,conversations_opened,conversations_closed,' +
        'messages_inbound,messages_outbound,messages_delivered,messages_read,messages_failed,delivery_rate,read_rate,' +
        'conversations_with_inbound,first_responses,first_response_avg_seconds,first_response_median_seconds,' +
        'resolution_avg_seconds,resolution_median_seconds',
      'all,,,,7,6,3,7,7,5,2,1,0.7143,0.4,6,5,2310,600,613200,86400',
      `assignee,${leo.id},"'=Leo, ""the closer""",${leo.email},4,4,1,3,2,2,0,0,1,0,3,2,5400,5400,86400,86400`,
      `assignee,${maya.id},Maya Agent,${maya.email},2,2,2,3,4,3,2,1,0.75,0.6667,2,2,360,360,876600,876600`,
      'unassigned,,,,1,0,0,1,1,0,0,0,0,,1,1,30,30,,',
      '',
    ]);
  });
});

describe('workspace isolation and scope', () => {
  it("counts only the caller's workspace: the twin sees its own identical numbers, a new workspace sees none", async () => {
    const twinSummary = await data<{ analyticsSummary: { totals: { conversations_active: number; messages_inbound: number } } }>(
      twin.api_key,
      SUMMARY,
      WEEK,
    );
    expect(twinSummary.analyticsSummary.totals).toMatchObject({ conversations_active: 7, messages_inbound: 7 });
    const empty = await harness.workspace('Analytics empty');
    const emptySummary = await data<{ analyticsSummary: { totals: { conversations_active: number }; assignees: unknown[] } }>(
      empty.api_key,
      SUMMARY,
      WEEK,
    );
    expect(emptySummary.analyticsSummary.totals.conversations_active).toBe(0);
    expect(emptySummary.analyticsSummary.assignees).toEqual([]);
  });

  it('requires the analytics scope for the summary and the export', async () => {
    const conversationsOnly = await harness.key(shop.workspace_id, ['conversations']);
    for (const query of [SUMMARY, EXPORT]) {
      expect(await error(conversationsOnly, query, WEEK)).toMatchObject({
        status: 403,
        code: 'INSUFFICIENT_SCOPE',
        details: { required_scope: ['analytics'] },
      });
    }
  });
});

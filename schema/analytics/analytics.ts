// Analytics: conversation and message metrics over a date range, for the workspace and per assignee, and
// the same as a CSV export. Metric definitions are in resolvers/analytics/analytics.ts and docs/api-decisions.md.
import { builder } from '../builder.js';
import {
  analyticsSummary,
  type AnalyticsMetrics,
  type AnalyticsSummary,
  type AssigneeMetrics,
} from '../../resolvers/analytics/analytics.js';
import { analyticsExport } from '../../resolvers/analytics/analyticsExport.js';
import {
  messagesByCategory,
  type CategoryCount,
  type CategoryDay,
  type MessagesByCategory,
} from '../../resolvers/analytics/messagesByCategory.js';
import { EMAIL } from '../shared/jsonSchemaHints.js';

const nullSeconds = (description: string) => ({ nullable: true as const, description: `${description}; null when there is none.` });

/** The metrics, shared by the workspace totals and each assignee's row. */
const Metrics = builder.interfaceRef<AnalyticsMetrics>('AnalyticsMetrics').implement({
  fields: (t) => ({
    conversations_active: t.exposeInt('conversations_active', { description: 'Conversations with a message in the range.' }),
    conversations_opened: t.exposeInt('conversations_opened', { description: 'Conversations created in the range.' }),
    conversations_closed: t.exposeInt('conversations_closed', { description: 'Conversations whose closed_at is in the range.' }),
    messages_inbound: t.exposeInt('messages_inbound'),
    messages_outbound: t.exposeInt('messages_outbound'),
    messages_delivered: t.exposeInt('messages_delivered', { description: 'Outbound messages now delivered or read.' }),
    messages_read: t.exposeInt('messages_read', { description: 'Outbound messages now read.' }),
    messages_failed: t.exposeInt('messages_failed', { description: 'Outbound messages that failed.' }),
    delivery_rate: t.exposeFloat('delivery_rate', { nullable: true, description: 'messages_delivered / messages_outbound, 0 to 1.' }),
    read_rate: t.exposeFloat('read_rate', { nullable: true, description: 'messages_read / messages_delivered, 0 to 1.' }),
    conversations_with_inbound: t.exposeInt('conversations_with_inbound', {
      description: 'Conversations with an inbound message in the range.',
    }),
    first_responses: t.exposeInt('first_responses', { description: 'Of those, how many got an outbound reply after it.' }),
    first_response_avg_seconds: t.exposeFloat(
      'first_response_avg_seconds',
      nullSeconds('Mean time from the first inbound message in the range to the first reply'),
    ),
    first_response_median_seconds: t.exposeFloat('first_response_median_seconds', nullSeconds('Median of the same')),
    resolution_avg_seconds: t.exposeFloat(
      'resolution_avg_seconds',
      nullSeconds('Mean time from creation to closed_at of the conversations closed in the range'),
    ),
    resolution_median_seconds: t.exposeFloat('resolution_median_seconds', nullSeconds('Median of the same')),
  }),
});

const Totals = builder.objectRef<AnalyticsMetrics>('AnalyticsTotals').implement({
  description: 'The metrics of the whole workspace.',
  interfaces: [Metrics],
});

const AssigneeAnalytics = builder.objectRef<AssigneeMetrics>('AssigneeAnalytics').implement({
  description: "One assignee's metrics, by the conversations currently assigned to them; assignee_user_id null means unassigned.",
  interfaces: [Metrics],
  fields: (t) => ({
    assignee_user_id: t.exposeID('assignee_user_id', { nullable: true }),
    assignee_name: t.exposeString('assignee_name', { nullable: true }),
    assignee_email: t.exposeString('assignee_email', { nullable: true, ...EMAIL }),
  }),
});

const StatusCount = builder.objectRef<AnalyticsSummary['conversations_by_status'][number]>('ConversationStatusCount').implement({
  fields: (t) => ({ status: t.exposeString('status'), count: t.exposeInt('count') }),
});

const MessageStatusCount = builder.objectRef<AnalyticsSummary['messages_by_status'][number]>('MessageStatusCount').implement({
  fields: (t) => ({ direction: t.exposeString('direction'), status: t.exposeString('status'), count: t.exposeInt('count') }),
});

const Summary = builder.objectRef<AnalyticsSummary>('AnalyticsSummary').implement({
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    totals: t.field({ type: Totals, resolve: (summary) => summary.totals }),
    conversations_by_status: t.field({
      type: [StatusCount],
      description: 'Active conversations (a message in the range) by their current status.',
      resolve: (summary) => summary.conversations_by_status,
    }),
    messages_by_status: t.field({
      type: [MessageStatusCount],
      description: 'Messages created in the range by direction and current status.',
      resolve: (summary) => summary.messages_by_status,
    }),
    assignees: t.field({ type: [AssigneeAnalytics], resolve: (summary) => summary.assignees }),
  }),
});

const CategoryTotal = builder.objectRef<CategoryCount>('MessageCategoryCount').implement({
  description: 'Messages of one pricing category, and how many of them are billable.',
  fields: (t) => ({
    category: t.exposeString('category', { description: 'marketing, utility, authentication, service, … as the provider names it.' }),
    messages: t.exposeInt('messages'),
    billable: t.exposeInt('billable', { description: 'Of those, the ones the provider charges (pricing.billable).' }),
  }),
});

const CategoryDayCount = builder.objectRef<CategoryDay>('MessageCategoryDay').implement({
  description: 'Messages of one pricing category created on one day (in the workspace time zone).',
  fields: (t) => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD in time_zone.' }),
    category: t.exposeString('category'),
    messages: t.exposeInt('messages'),
    billable: t.exposeInt('billable'),
  }),
});

const ByCategory = builder.objectRef<MessagesByCategory>('MessagesByCategory').implement({
  description: 'Outbound messages whose pricing the provider reported, by pricing category and day.',
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    time_zone: t.exposeString('time_zone', { description: "The workspace's IANA time zone the days are in (UTC unless set)." }),
    days: t.field({
      type: [CategoryDayCount],
      description: 'By day, then category; days without messages are left out.',
      resolve: (r) => r.days,
    }),
    totals: t.field({ type: [CategoryTotal], description: 'The whole range, by category.', resolve: (r) => r.totals }),
  }),
});

const Export = builder.objectRef<Awaited<ReturnType<typeof analyticsExport>>>('AnalyticsExport').implement({
  fields: (t) => ({
    filename: t.exposeString('filename'),
    content_type: t.exposeString('content_type'),
    content: t.exposeString('content', { description: 'The CSV text itself (not base64): a header row, then one row per scope.' }),
  }),
});

builder.queryFields((t) => ({
  analyticsSummary: t.field({
    type: Summary,
    description: 'Conversation and message metrics over [from, to) (at most 366 days), in total and per assignee.',
    authScopes: { permission: 'analytics' },
    args: {
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true, description: 'Exclusive.' }),
    },
    resolve: (_root, args, ctx) => analyticsSummary(ctx, args),
  }),
  analyticsMessagesByCategory: t.field({
    type: ByCategory,
    description:
      "What messages cost: outbound messages created in [from, to) (at most 366 days) whose provider reported pricing, and how many are billable, by pricing category and by day in the workspace's time zone.",
    authScopes: { permission: 'analytics' },
    args: {
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true, description: 'Exclusive.' }),
    },
    resolve: (_root, args, ctx) => messagesByCategory(ctx, args),
  }),
  analyticsExport: t.field({
    type: Export,
    description: 'The analytics summary over [from, to) as CSV: one row for all conversations, then one per assignee.',
    authScopes: { permission: 'analytics' },
    args: {
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true, description: 'Exclusive.' }),
    },
    resolve: (_root, args, ctx) => analyticsExport(ctx, args),
  }),
}));

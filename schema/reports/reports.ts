// Reports: the figures a team lead reads (conversations, response times, the AI agent, campaigns, templates,
// each person), for a range in the workspace's time zone, by interval, narrowed by assignee, team, contact tag
// or channel. Definitions: docs/reports.md. Every number the console's /reports pages show comes from here.
import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';
import { EMAIL } from '../shared/jsonSchemaHints.js';
import { REPORT_INTERVALS } from '../../resolvers/reports/scope.js';
import { conversationsReport, type ConversationsReport } from '../../resolvers/reports/conversations.js';
import type { ConversationFigures } from '../../resolvers/reports/conversationFacts.js';
import { peopleReport, type PersonFigures } from '../../resolvers/reports/people.js';
import { agentReport, type AgentReport } from '../../resolvers/reports/agent.js';
import { campaignsReport, type CampaignFigures } from '../../resolvers/reports/campaigns.js';
import { templatesReport, type TemplateFigures } from '../../resolvers/reports/templates.js';

const Interval = builder.enumType('ReportInterval', { values: REPORT_INTERVALS });

const seconds = (of: string) => ({ nullable: true as const, description: `${of}, in seconds; null when there is none.` });

const Figures = builder.objectRef<ConversationFigures>('ConversationFigures').implement({
  description: 'Conversation figures of a period (docs/reports.md defines each).',
  fields: (t) => ({
    conversations_opened: t.exposeInt('conversations_opened', { description: 'Conversations created in the period.' }),
    conversations_closed: t.exposeInt('conversations_closed', { description: 'Conversations whose latest closing is in the period.' }),
    conversations_reopened: t.exposeInt('conversations_reopened', { description: 'Reopenings in the period.' }),
    messages_in: t.exposeInt('messages_in', { description: 'Inbound messages in the period.' }),
    messages_out: t.exposeInt('messages_out', { description: 'Outbound messages in the period (campaigns included).' }),
    first_response_conversations: t.exposeInt('first_response_conversations', {
      description:
        'Conversations whose first inbound message is in the period and that got a reply: the first response times come from them.',
    }),
    unanswered_conversations: t.exposeInt('unanswered_conversations', {
      description: 'Conversations whose first inbound message is in the period and that got no reply yet.',
    }),
    first_response_median_seconds: t.exposeFloat('first_response_median_seconds', seconds('Median first response time (calendar time)')),
    first_response_p90_seconds: t.exposeFloat(
      'first_response_p90_seconds',
      seconds('90th percentile of first response time (calendar time)'),
    ),
    first_response_business_median_seconds: t.exposeFloat(
      'first_response_business_median_seconds',
      seconds("Median first response time counted in the workspace's business hours only"),
    ),
    first_response_business_p90_seconds: t.exposeFloat(
      'first_response_business_p90_seconds',
      seconds("90th percentile of first response time counted in the workspace's business hours only"),
    ),
    resolution_conversations: t.exposeInt('resolution_conversations', {
      description: 'The conversations closed in the period: resolution times come from them.',
    }),
    resolution_median_seconds: t.exposeFloat('resolution_median_seconds', seconds('Median resolution time (calendar time)')),
    resolution_p90_seconds: t.exposeFloat('resolution_p90_seconds', seconds('90th percentile of resolution time (calendar time)')),
    resolution_business_median_seconds: t.exposeFloat(
      'resolution_business_median_seconds',
      seconds("Median resolution time counted in the workspace's business hours only"),
    ),
    resolution_business_p90_seconds: t.exposeFloat(
      'resolution_business_p90_seconds',
      seconds("90th percentile of resolution time counted in the workspace's business hours only"),
    ),
  }),
});

const Point = builder.objectRef<ConversationsReport['series'][number]>('ConversationFiguresPoint').implement({
  description: 'The figures of one interval of the series.',
  fields: (t) => ({
    start: t.expose('start', {
      type: 'DateTime',
      description: 'The start of the interval (midnight or the hour in the report time zone).',
    }),
    figures: t.field({ type: Figures, resolve: (point) => point }),
  }),
});

const Report = builder.objectRef<ConversationsReport>('ConversationsReport').implement({
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    interval: t.field({ type: Interval, resolve: (report) => report.interval as (typeof REPORT_INTERVALS)[number] }),
    time_zone: t.exposeString('time_zone'),
    totals: t.field({ type: Figures, resolve: (report) => report.totals }),
    previous: t.field({
      type: Figures,
      description: 'The same figures over the period of equal length just before.',
      resolve: (report) => report.previous,
    }),
    series: t.field({
      type: [Point],
      description: 'One point per interval, empty intervals included.',
      resolve: (report) => report.series,
    }),
  }),
});

const Person = builder.objectRef<PersonFigures>('PersonReport').implement({
  description: 'One member of the team over the period.',
  fields: (t) => ({
    user_id: t.exposeID('user_id'),
    name: t.exposeString('name', { nullable: true }),
    email: t.exposeString('email', EMAIL),
    conversations_handled: t.exposeInt('conversations_handled', { description: 'Conversations they replied in during the period.' }),
    first_response_conversations: t.exposeInt('first_response_conversations', { description: 'First responses they gave.' }),
    first_response_median_seconds: t.exposeFloat('first_response_median_seconds', seconds('Median of their first responses')),
    first_response_p90_seconds: t.exposeFloat('first_response_p90_seconds', seconds('90th percentile of their first responses')),
    first_response_business_median_seconds: t.exposeFloat(
      'first_response_business_median_seconds',
      seconds('Median of their first responses, counting business hours only'),
    ),
    first_response_business_p90_seconds: t.exposeFloat(
      'first_response_business_p90_seconds',
      seconds('90th percentile of their first responses, counting business hours only'),
    ),
    resolution_conversations: t.exposeInt('resolution_conversations', {
      description: 'Conversations assigned to them closed in the period.',
    }),
    resolution_median_seconds: t.exposeFloat('resolution_median_seconds', seconds('Median resolution of those')),
    resolution_p90_seconds: t.exposeFloat('resolution_p90_seconds', seconds('90th percentile resolution of those')),
    resolution_business_median_seconds: t.exposeFloat(
      'resolution_business_median_seconds',
      seconds('Median resolution of those, counting business hours only'),
    ),
    resolution_business_p90_seconds: t.exposeFloat(
      'resolution_business_p90_seconds',
      seconds('90th percentile resolution of those, counting business hours only'),
    ),
    open_now: t.exposeInt('open_now', { description: 'Conversations assigned to them that are not closed, now.' }),
  }),
});

const Handoffs = builder.objectRef<AgentReport['handoffs_by_reason'][number]>('AgentHandoffCount').implement({
  fields: (t) => ({ reason: t.exposeString('reason'), count: t.exposeInt('count') }),
});

const Agent = builder.objectRef<AgentReport>('AgentReport').implement({
  description: 'What the AI agent did over the period.',
  fields: (t) => ({
    conversations_with_inbound: t.exposeInt('conversations_with_inbound', {
      description: 'Conversations with an inbound message in the period.',
    }),
    conversations_answered: t.exposeInt('conversations_answered', { description: 'Conversations where the agent replied in the period.' }),
    conversations_handed_off: t.exposeInt('conversations_handed_off', {
      description: 'Conversations the agent handed to a person in the period.',
    }),
    handoffs_by_reason: t.field({ type: [Handoffs], resolve: (report) => report.handoffs_by_reason }),
    conversations_closed: t.exposeInt('conversations_closed'),
    closed_without_person: t.exposeInt('closed_without_person', {
      description: 'Conversations closed in the period that the agent replied in and no person ever did.',
    }),
    answered_share: t.exposeFloat('answered_share', {
      nullable: true,
      description: 'conversations_answered / conversations_with_inbound, 0 to 1.',
    }),
    closed_without_person_share: t.exposeFloat('closed_without_person_share', {
      nullable: true,
      description: 'closed_without_person / conversations_closed, 0 to 1.',
    }),
  }),
});

const FailureCount = builder.objectRef<CampaignFigures['failed_by_error_code'][number]>('CampaignFailureCount').implement({
  fields: (t) => ({ error_code: t.exposeString('error_code'), count: t.exposeInt('count') }),
});

const Campaign = builder.objectRef<CampaignFigures>('CampaignReport').implement({
  description: "A campaign's messages sent or failed in the period.",
  fields: (t) => ({
    campaign_id: t.exposeID('campaign_id'),
    name: t.exposeString('name'),
    status: t.exposeString('status'),
    template_name: t.exposeString('template_name'),
    recipients: t.exposeInt('recipients', { description: 'The whole audience, whenever sent.' }),
    sent: t.exposeInt('sent'),
    delivered: t.exposeInt('delivered'),
    read: t.exposeInt('read'),
    replied_within_24h: t.exposeInt('replied_within_24h', { description: 'Recipients who wrote back within 24 hours of the send.' }),
    failed: t.exposeInt('failed'),
    opted_out: t.exposeInt('opted_out', {
      description: 'Recipients whose contact opted out of marketing within 24 hours after the send (keyword, provider, API or console).',
    }),
    failed_by_error_code: t.field({ type: [FailureCount], resolve: (row) => row.failed_by_error_code }),
  }),
});

const Template = builder.objectRef<TemplateFigures>('TemplateReport').implement({
  description: "A template's messages sent in the period.",
  fields: (t) => ({
    template_name: t.exposeString('template_name'),
    template_language: t.exposeString('template_language', { nullable: true }),
    sends: t.exposeInt('sends'),
    delivered: t.exposeInt('delivered', { description: 'Now delivered or read.' }),
    read: t.exposeInt('read'),
    read_rate: t.exposeFloat('read_rate', { nullable: true, description: 'read / delivered, 0 to 1.' }),
    replies: t.exposeInt('replies', { description: 'Sends followed by an inbound message in the conversation within 24 hours.' }),
    failed: t.exposeInt('failed'),
    billable: t.exposeInt('billable', { description: 'Sends the provider reported as billable (pricing.billable).' }),
  }),
});

/** A table of a report: an object (an MCP tool's structured answer is one), its rows in `rows`. */
function table<Row>(name: string, row: ObjectRef<typeof builder.$inferSchemaTypes, Row>, description: string) {
  return builder.objectRef<{ rows: Row[] }>(name).implement({
    description,
    fields: (t) => ({ rows: t.field({ type: [row], resolve: (parent) => parent.rows }) }),
  });
}

const PeopleTable = table<PersonFigures>(
  'PeopleReport',
  Person,
  'The per-person table, one row per member (active, or with figures in the period).',
);
const CampaignsTable = table<CampaignFigures>(
  'CampaignsReport',
  Campaign,
  'One row per campaign with messages sent or failed in the period, newest campaign first.',
);
const TemplatesTable = table<TemplateFigures>('TemplatesReport', Template, 'One row per template and language, most sent first.');

builder.queryFields((t) => {
  const args = {
    from: t.arg({ type: 'DateTime', required: true }),
    to: t.arg({ type: 'DateTime', required: true, description: 'Exclusive; at most 366 days after from (31 by hour).' }),
    interval: t.arg({ type: Interval, description: 'The series interval; default day.' }),
    time_zone: t.arg.string({ description: "An IANA time zone; default the workspace's." }),
    assignee_user_id: t.arg.id({ description: 'Only conversations assigned to this user now.' }),
    team_id: t.arg.id({
      description: 'Only conversations assigned now to a member of this team (and, in the per-person table, only its members).',
    }),
    tag_id: t.arg.id({ description: 'Only conversations of contacts with this tag.' }),
    channel: t.arg.string({ description: "Only conversations of this channel (the conversation's provider, e.g. whatsapp)." }),
  };
  const report = <Type>(type: Type, description: string) => ({ type, description, authScopes: { permission: 'analytics' as const }, args });
  return {
    reportConversations: t.field({
      ...report(
        Report,
        'Conversations opened, closed, reopened, messages, first response and resolution times (calendar and business hours): totals, previous period, series.',
      ),
      resolve: (_root, input, ctx) => conversationsReport(ctx, input),
    }),
    reportPeople: t.field({
      ...report(PeopleTable, 'The per-person table: conversations handled, first response, resolution, open now.'),
      resolve: async (_root, input, ctx) => ({ rows: await peopleReport(ctx, input) }),
    }),
    reportAgent: t.field({
      ...report(Agent, 'The AI agent: conversations answered, handed off (by reason), closed without a person, its shares.'),
      resolve: (_root, input, ctx) => agentReport(ctx, input),
    }),
    reportCampaigns: t.field({
      ...report(
        CampaignsTable,
        'Per campaign: sent, delivered, read, replied within 24 h, failed by error code (filters other than the range do not apply).',
      ),
      resolve: async (_root, input, ctx) => ({ rows: await campaignsReport(ctx, input) }),
    }),
    reportTemplates: t.field({
      ...report(TemplatesTable, 'Per template and language: sends, delivered, read, read rate, replies, failed.'),
      resolve: async (_root, input, ctx) => ({ rows: await templatesReport(ctx, input) }),
    }),
  };
});

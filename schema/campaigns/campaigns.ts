// Campaigns: an approved template broadcast to a tag's contacts, a list of contacts or contacts by tags and
// fields (with a count of such an audience before any campaign), with its lifecycle
// (draft → scheduled → running ⇄ paused → completed, or cancelled), its progress, its recipients and a CSV
// export of the results.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { WAITING_REASONS } from '../../resolvers/campaigns/numberLimits.js';
import { pageType, pagingFields } from '../shared/page.js';
import { TemplateSendInput } from '../messaging/messages.js';
import {
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
  type CampaignView,
} from '../../resolvers/campaigns/campaigns.js';
import { cancelCampaign, pauseCampaign, resumeCampaign, scheduleCampaign, startCampaign } from '../../resolvers/campaigns/lifecycle.js';
import { listCampaignRecipients, type CampaignProgress } from '../../resolvers/campaigns/recipients.js';
import { campaignExport, EXPORT_PAGE_MAX } from '../../resolvers/campaigns/export.js';
import { CAMPAIGN_STATUSES, MAX_CAMPAIGN_SEND_RATE, RECIPIENT_STATUSES } from '../../resolvers/campaigns/rules.js';
import { templateOf } from '../../resolvers/campaigns/sender.js';
import { limitArg } from '../shared/pageLimit.js';
import { oneOf } from '../shared/jsonSchemaHints.js';
import { CONDITION_FORM, storedSegment, TAG_MATCHES, writeCondition } from '../../resolvers/campaigns/segment.js';
import { countAudience, type AudienceCount } from '../../resolvers/campaigns/audienceCount.js';

const CampaignTemplate = builder.objectRef<ReturnType<typeof templateOf>>('CampaignTemplate').implement({
  description: 'The approved template a campaign sends, with the values of its slots in reading order.',
  fields: (t) => ({
    name: t.exposeString('name'),
    language: t.exposeString('language'),
    parameters: t.exposeStringList('parameters'),
  }),
});

const Progress = builder.objectRef<CampaignProgress>('CampaignProgress').implement({
  description: "The campaign's recipients counted by their current status; 0 until the campaign first runs.",
  fields: (t) => ({
    total: t.exposeInt('total'),
    skipped_opted_out: t.exposeInt('skipped_opted_out', {
      description: 'Of the skipped recipients, those not sent because they opted out of marketing (a MARKETING template).',
    }),
    ...Object.fromEntries(RECIPIENT_STATUSES.map((status) => [status, t.exposeInt(status)])),
  }),
});

const Campaign = builder.objectRef<CampaignView>('Campaign').implement({
  description: 'A template broadcast to an audience: the contacts of a tag, a list of contacts, or contacts by tags and fields.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    status: t.exposeString('status', oneOf(CAMPAIGN_STATUSES)),
    template: t.field({ type: CampaignTemplate, resolve: (campaign) => templateOf(campaign) }),
    integration_id: t.exposeID('integration_id', { nullable: true, description: 'The integration the messages go through.' }),
    audience_tag_id: t.exposeID('audience_tag_id', { nullable: true, description: 'The audience is the contacts with this tag.' }),
    audience_contact_ids: t.exposeIDList('audience_contact_ids', { description: 'The audience when no tag is given.' }),
    audience_tag_ids: t.exposeIDList('audience_tag_ids', {
      description: 'The audience by tags and fields: contacts with any (or all: audience_tag_match) of these tags.',
    }),
    audience_tag_match: t.exposeString('audience_tag_match', oneOf(TAG_MATCHES)),
    audience_conditions: t.stringList({
      description: `The audience by tags and fields: conditions every contact meets, each ${CONDITION_FORM}.`,
      resolve: (campaign) => storedSegment(campaign).conditions.map(writeCondition),
    }),
    send_rate_per_minute: t.exposeInt('send_rate_per_minute', {
      nullable: true,
      description:
        "Messages per minute; null sends at the service default (CAMPAIGN_SEND_RATE_PER_MINUTE). The campaign never sends faster than its number's throughput_per_second: the lower of the two holds.",
    }),
    scheduled_at: t.expose('scheduled_at', { type: 'DateTime', nullable: true }),
    started_at: t.expose('started_at', { type: 'DateTime', nullable: true, description: 'When it first ran and its audience was fixed.' }),
    completed_at: t.expose('completed_at', { type: 'DateTime', nullable: true }),
    cancelled_at: t.expose('cancelled_at', { type: 'DateTime', nullable: true }),
    next_send_at: t.expose('next_send_at', {
      type: 'DateTime',
      nullable: true,
      description: 'Scheduled or running: when the next batch may go.',
    }),
    error_code: t.exposeString('error_code', { nullable: true, description: 'Why the runner paused it; cleared on resume.' }),
    error_message: t.exposeString('error_message', { nullable: true }),
    waiting_reason: t.exposeString('waiting_reason', {
      nullable: true,
      ...oneOf(WAITING_REASONS, {
        note: "while running but held by a limit of its number until next_send_at, after which it goes on by itself (throughput: the number's messages per second, shared by its campaigns; pair_rate: one message per recipient per 6 s; messaging_limit_tier: the tier's unique recipients per rolling 24 h are reached); null when not waiting",
      }),
    }),
    progress: t.field({ type: Progress, resolve: (campaign) => campaign.progress }),
    skipped_opted_out: t.int({
      description:
        'Recipients skipped because they opted out of marketing: a MARKETING campaign never sends to them (progress.skipped_opted_out).',
      resolve: (campaign) => campaign.progress.skipped_opted_out,
    }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

const CampaignList = pageType('CampaignList', Campaign);

const CampaignAudienceCount = builder.objectRef<AudienceCount>('CampaignAudienceCount').implement({
  description: "An audience's contacts now, counted as a campaign's start would take them.",
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Contacts in the audience.' }),
    no_address: t.exposeInt('no_address', { description: 'Of them, those with neither a wa_id nor a phone number: skipped.' }),
    opted_out: t.exposeInt('opted_out', {
      description: 'Of those with an address, the ones opted out of marketing: skipped by a MARKETING template only.',
    }),
    sendable: t.exposeInt('sendable', { description: 'Who a UTILITY or AUTHENTICATION template would be sent to.' }),
    sendable_marketing: t.exposeInt('sendable_marketing', { description: 'Who a MARKETING template would be sent to.' }),
  }),
});

/** The audience by tags and fields, as campaign create, update and the count take it. */
const SEGMENT_DESCRIPTIONS = {
  audience_tag_ids:
    'Send to the contacts with any (or all) of these tags, when it starts; with audience_conditions, those that meet them too.',
  audience_tag_match: `How the tags combine: ${TAG_MATCHES.join(' or ')} (default any).`,
  audience_conditions: `Conditions every contact meets, each ${CONDITION_FORM}.`,
};

const CampaignRecipient = builder.prismaObject('CampaignRecipient', {
  description: 'One contact of a campaign and what became of its message.',
  fields: (t) => ({
    campaign_id: t.exposeID('campaign_id'),
    contact_id: t.exposeID('contact_id'),
    contact_name: t.string({ nullable: true, select: { contact: { select: { name: true } } }, resolve: (row) => row.contact.name }),
    phone_number: t.string({
      nullable: true,
      select: { contact: { select: { phone_number: true } } },
      resolve: (row) => row.contact.phone_number,
    }),
    wa_id: t.string({ nullable: true, select: { contact: { select: { wa_id: true } } }, resolve: (row) => row.contact.wa_id }),
    status: t.exposeString('status', {
      description: `${RECIPIENT_STATUSES.join(', ')}. A sent recipient follows its message: sent, delivered, read or failed.`,
    }),
    message_id: t.exposeID('message_id', { nullable: true }),
    error_code: t.exposeString('error_code', { nullable: true }),
    error_message: t.exposeString('error_message', { nullable: true }),
    sent_at: t.expose('sent_at', { type: 'DateTime', nullable: true }),
    delivered_at: t.expose('delivered_at', { type: 'DateTime', nullable: true }),
    read_at: t.expose('read_at', { type: 'DateTime', nullable: true }),
    failed_at: t.expose('failed_at', { type: 'DateTime', nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

const CampaignRecipientList = pageType('CampaignRecipientList', CampaignRecipient, 'One page of recipients in send order (by contact id).');

const CampaignExport = builder.objectRef<Awaited<ReturnType<typeof campaignExport>>>('CampaignExport').implement({
  fields: (t) => ({
    filename: t.exposeString('filename'),
    content_type: t.exposeString('content_type'),
    content: t.exposeString('content', {
      description:
        "This page's CSV text itself (not base64): the first page starts with the header row, then one row per recipient; the pages' content joined in order is the whole file.",
    }),
    ...pagingFields(t),
  }),
});

builder.queryFields((t) => ({
  campaigns: t.field({
    type: CampaignList,
    description: 'Campaigns, newest first. `cursor` is the id of the last campaign seen.',
    authScopes: { permission: 'campaigns' },
    args: {
      status: t.arg.string({ required: false, ...oneOf(CAMPAIGN_STATUSES) }),
      limit: limitArg(t.arg, 20),
      cursor: t.arg.id({ required: false }),
    },
    resolve: (_root, args, ctx) => listCampaigns(ctx, { ...args, cursor: args.cursor?.toString() }),
  }),
  campaign: t.field({
    type: Campaign,
    authScopes: { permission: 'campaigns' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getCampaign(ctx, { id: String(args.id) }),
  }),
  campaignRecipients: t.field({
    type: CampaignRecipientList,
    description: "A campaign's recipients in send order. `cursor` is the contact_id of the last recipient seen.",
    authScopes: { permission: 'campaigns' },
    args: {
      campaign_id: t.arg.id({ required: true }),
      status: t.arg.string({ required: false, description: `${RECIPIENT_STATUSES.join(', ')}.` }),
      limit: limitArg(t.arg, 50),
      cursor: t.arg.id({ required: false }),
    },
    resolve: (_root, args, ctx, info) =>
      listCampaignRecipients(
        ctx,
        { ...args, campaign_id: String(args.campaign_id), cursor: args.cursor?.toString() },
        queryFromInfo({ context: ctx, info, path: ['data'] }),
      ),
  }),
  campaignAudienceCount: t.field({
    type: CampaignAudienceCount,
    description:
      'How many contacts an audience by tags and fields (at least one tag or one condition) holds now, without creating a campaign; the opted-out ones apart, for a MARKETING template.',
    authScopes: { permission: 'campaigns' },
    args: {
      audience_tag_ids: t.arg.idList({ required: false, description: SEGMENT_DESCRIPTIONS.audience_tag_ids }),
      audience_tag_match: t.arg.string({ required: false, description: SEGMENT_DESCRIPTIONS.audience_tag_match }),
      audience_conditions: t.arg.stringList({ required: false, description: SEGMENT_DESCRIPTIONS.audience_conditions }),
    },
    resolve: (_root, args, ctx) => countAudience(ctx, { ...args, audience_tag_ids: args.audience_tag_ids?.map(String) }),
  }),
  campaignExport: t.field({
    type: CampaignExport,
    description:
      "The campaign's results as CSV, one page of recipients at a time: one row per recipient in send order with its contact, status, message, error and times. REST also streams the whole file (GET /campaigns/{id}/export.csv).",
    authScopes: { permission: 'campaigns' },
    args: {
      id: t.arg.id({ required: true }),
      limit: limitArg(t.arg, EXPORT_PAGE_MAX, EXPORT_PAGE_MAX),
      cursor: t.arg.id({ required: false, description: 'The next_cursor of the previous page.' }),
    },
    resolve: (_root, args, ctx) =>
      campaignExport(ctx, { id: String(args.id), limit: args.limit ?? undefined, cursor: args.cursor?.toString() }),
  }),
}));

/** The editable fields, shared by create and update. */
const EDITABLE_DESCRIPTIONS = {
  integration_id: 'The integration to send through; default the newest connected one.',
  audience_tag_id: 'Send to the contacts with this tag (fixed when the campaign starts).',
  audience_contact_ids: 'Send to these contacts (at most 10000) instead of a tag.',
  send_rate_per_minute: `Messages per minute, 1 to ${MAX_CAMPAIGN_SEND_RATE}; default the service's.`,
};

builder.mutationFields((t) => ({
  campaignCreate: t.field({
    type: Campaign,
    description:
      'Creates a draft campaign. The template must be APPROVED with every slot filled; give one audience: a tag, a list of contacts, or tags and fields.',
    authScopes: { permission: 'campaigns' },
    args: {
      name: t.arg.string({ required: true }),
      template: t.arg({ type: TemplateSendInput, required: true }),
      integration_id: t.arg.id({ required: false, description: EDITABLE_DESCRIPTIONS.integration_id }),
      audience_tag_id: t.arg.id({ required: false, description: EDITABLE_DESCRIPTIONS.audience_tag_id }),
      audience_contact_ids: t.arg.idList({ required: false, description: EDITABLE_DESCRIPTIONS.audience_contact_ids }),
      audience_tag_ids: t.arg.idList({ required: false, description: SEGMENT_DESCRIPTIONS.audience_tag_ids }),
      audience_tag_match: t.arg.string({ required: false, description: SEGMENT_DESCRIPTIONS.audience_tag_match }),
      audience_conditions: t.arg.stringList({ required: false, description: SEGMENT_DESCRIPTIONS.audience_conditions }),
      send_rate_per_minute: t.arg.int({ required: false, description: EDITABLE_DESCRIPTIONS.send_rate_per_minute }),
    },
    resolve: (_root, args, ctx) =>
      createCampaign(ctx, {
        ...args,
        integration_id: args.integration_id?.toString(),
        audience_tag_id: args.audience_tag_id?.toString(),
        audience_contact_ids: args.audience_contact_ids?.map(String),
        audience_tag_ids: args.audience_tag_ids?.map(String),
      }),
  }),
  campaignUpdate: t.field({
    type: Campaign,
    description:
      'Edits a draft campaign: omitted fields stay, null clears. Naming one kind of audience (a tag, a contact list, tags and fields) replaces the others.',
    authScopes: { permission: 'campaigns' },
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: false }),
      template: t.arg({ type: TemplateSendInput, required: false }),
      integration_id: t.arg.id({ required: false, description: EDITABLE_DESCRIPTIONS.integration_id }),
      audience_tag_id: t.arg.id({ required: false, description: EDITABLE_DESCRIPTIONS.audience_tag_id }),
      audience_contact_ids: t.arg.idList({ required: false, description: EDITABLE_DESCRIPTIONS.audience_contact_ids }),
      audience_tag_ids: t.arg.idList({ required: false, description: SEGMENT_DESCRIPTIONS.audience_tag_ids }),
      audience_tag_match: t.arg.string({ required: false, description: SEGMENT_DESCRIPTIONS.audience_tag_match }),
      audience_conditions: t.arg.stringList({ required: false, description: SEGMENT_DESCRIPTIONS.audience_conditions }),
      send_rate_per_minute: t.arg.int({ required: false, description: EDITABLE_DESCRIPTIONS.send_rate_per_minute }),
    },
    resolve: (_root, args, ctx) =>
      updateCampaign(ctx, {
        ...args,
        id: String(args.id),
        integration_id: args.integration_id?.toString() ?? args.integration_id,
        audience_tag_id: args.audience_tag_id?.toString() ?? args.audience_tag_id,
        audience_contact_ids: args.audience_contact_ids?.map(String) ?? args.audience_contact_ids,
        audience_tag_ids: args.audience_tag_ids?.map(String) ?? args.audience_tag_ids,
      }),
  }),
  campaignDelete: t.field({
    type: Campaign,
    description: 'Deletes a draft, completed or cancelled campaign with its recipients (cancel a live one first); returns it as it was.',
    authScopes: { permission: 'campaigns' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => deleteCampaign(ctx, { id: String(args.id) }),
  }),
  campaignSchedule: t.field({
    type: Campaign,
    description: 'Schedules a draft (or reschedules a scheduled) campaign to start at scheduled_at, which must be in the future.',
    authScopes: { permission: 'campaigns' },
    args: { id: t.arg.id({ required: true }), scheduled_at: t.arg({ type: 'DateTime', required: true }) },
    resolve: (_root, args, ctx) => scheduleCampaign(ctx, { id: String(args.id), scheduled_at: args.scheduled_at }),
  }),
  campaignStart: t.field({
    type: Campaign,
    description: 'Starts a draft or scheduled campaign now: its audience is fixed as its recipients and sending begins in the background.',
    authScopes: { permission: 'campaigns' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => startCampaign(ctx, { id: String(args.id) }),
  }),
  campaignPause: t.field({
    type: Campaign,
    description: 'Pauses a running campaign before its next send; a send already in flight completes.',
    authScopes: { permission: 'campaigns' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => pauseCampaign(ctx, { id: String(args.id) }),
  }),
  campaignResume: t.field({
    type: Campaign,
    description: 'Resumes a paused campaign with the recipients not yet sent; none is sent twice.',
    authScopes: { permission: 'campaigns' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => resumeCampaign(ctx, { id: String(args.id) }),
  }),
  campaignCancel: t.field({
    type: Campaign,
    description: 'Cancels a campaign that has not finished; recipients not yet sent become cancelled.',
    authScopes: { permission: 'campaigns' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => cancelCampaign(ctx, { id: String(args.id) }),
  }),
}));

// A contact's timeline (resolvers/contacts/timeline.ts): one page of its story, newest first, each entry with its
// kind, time and the item under the field its kind names (the other item fields are null). The items are the
// timeline's own small shapes, read by one query per kind, so selecting any field costs no further query.
import { builder } from '../builder.js';
import {
  TIMELINE_KINDS,
  type TimelineAppointment,
  type TimelineCampaign,
  type TimelineConsent,
  type TimelineConversation,
  type TimelineEntry,
  type TimelineNote,
  type TimelineTag,
  contactTimeline,
} from '../../resolvers/contacts/timeline.js';
import { pageType } from '../shared/page.js';
import { limitArg } from '../shared/pageLimit.js';

const TimelineKind = builder.enumType('ContactTimelineKind', {
  description:
    'conversation: a conversation began; campaign: a campaign included the contact; appointment: an appointment was booked; ' +
    'consent: its marketing consent changed; note: a note was written on one of its conversations; tag: a tag was assigned.',
  values: TIMELINE_KINDS,
});

const TimelineConversationType = builder.objectRef<TimelineConversation>('ContactTimelineConversation').implement({
  description: 'A conversation with the contact, placed when it began.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.exposeString('status', { description: 'active, pending or closed.' }),
    provider: t.exposeString('provider'),
    assigned_user_id: t.exposeID('assigned_user_id', { nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    last_message_at: t.expose('last_message_at', { type: 'DateTime', nullable: true }),
    closed_at: t.expose('closed_at', { type: 'DateTime', nullable: true }),
  }),
});

const TimelineCampaignType = builder.objectRef<TimelineCampaign>('ContactTimelineCampaign').implement({
  description: "A campaign whose audience held the contact, placed when the campaign fixed its audience, with the contact's message.",
  fields: (t) => ({
    campaign_id: t.exposeID('campaign_id'),
    name: t.exposeString('name'),
    template_name: t.exposeString('template_name'),
    status: t.exposeString('status', { description: 'pending, sending, sent, delivered, read, failed, skipped or cancelled.' }),
    message_id: t.exposeID('message_id', { nullable: true }),
    error_code: t.exposeString('error_code', { nullable: true }),
    error_message: t.exposeString('error_message', { nullable: true }),
    sent_at: t.expose('sent_at', { type: 'DateTime', nullable: true }),
    delivered_at: t.expose('delivered_at', { type: 'DateTime', nullable: true }),
    read_at: t.expose('read_at', { type: 'DateTime', nullable: true }),
    failed_at: t.expose('failed_at', { type: 'DateTime', nullable: true }),
  }),
});

const TimelineAppointmentType = builder.objectRef<TimelineAppointment>('ContactTimelineAppointment').implement({
  description: 'An appointment with the contact, placed when it was booked.',
  fields: (t) => ({
    id: t.exposeID('id'),
    appointment_type_id: t.exposeID('appointment_type_id'),
    appointment_type_name: t.exposeString('appointment_type_name'),
    start_at: t.expose('start_at', { type: 'DateTime' }),
    end_at: t.expose('end_at', { type: 'DateTime' }),
    status: t.exposeString('status', { description: 'scheduled, cancelled, completed or no_show.' }),
    notes: t.exposeString('notes', { nullable: true }),
  }),
});

const TimelineConsentType = builder.objectRef<TimelineConsent>('ContactTimelineConsent').implement({
  description: "A change of the contact's marketing consent.",
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.exposeString('status', { description: 'opted_in, opted_out or unknown.' }),
    previous_status: t.exposeString('previous_status', {
      nullable: true,
      description: 'Null when not recorded (changes before the history).',
    }),
    source: t.exposeString('source', { description: 'keyword, provider, api or console.' }),
    message_id: t.exposeID('message_id', { nullable: true, description: 'The inbound message whose keyword made the change.' }),
  }),
});

const TimelineNoteType = builder.objectRef<TimelineNote>('ContactTimelineNote').implement({
  description: "A note on one of the contact's conversations.",
  fields: (t) => ({
    id: t.exposeID('id'),
    conversation_id: t.exposeID('conversation_id'),
    author_user_id: t.exposeID('author_user_id', { nullable: true }),
    author_name: t.exposeString('author_name', { nullable: true }),
    body: t.exposeString('body'),
  }),
});

const TimelineTagType = builder.objectRef<TimelineTag>('ContactTimelineTag').implement({
  description: 'A tag the contact carries, placed when it was assigned.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    color: t.exposeString('color', { nullable: true }),
  }),
});

/** The item of `kind`, or null for the other kinds' fields. */
function itemOf<Kind extends TimelineEntry['kind']>(kind: Kind) {
  return (entry: TimelineEntry) => (entry.kind === kind ? (entry as Extract<TimelineEntry, { kind: Kind }>) : null);
}

const TimelineEntryType = builder.objectRef<TimelineEntry>('ContactTimelineEntry').implement({
  description: "One event of a contact's story: its kind, its time, and the item under the field of its kind.",
  fields: (t) => ({
    kind: t.field({ type: TimelineKind, resolve: (entry) => entry.kind }),
    at: t.expose('at', { type: 'DateTime', description: 'When it happened; the list is newest first.' }),
    id: t.exposeID('key', { description: "The item's id (for a campaign, the campaign's; for a tag, the tag's)." }),
    conversation: t.field({
      type: TimelineConversationType,
      nullable: true,
      resolve: (entry) => itemOf('conversation')(entry)?.conversation ?? null,
    }),
    campaign: t.field({ type: TimelineCampaignType, nullable: true, resolve: (entry) => itemOf('campaign')(entry)?.campaign ?? null }),
    appointment: t.field({
      type: TimelineAppointmentType,
      nullable: true,
      resolve: (entry) => itemOf('appointment')(entry)?.appointment ?? null,
    }),
    consent: t.field({ type: TimelineConsentType, nullable: true, resolve: (entry) => itemOf('consent')(entry)?.consent ?? null }),
    note: t.field({ type: TimelineNoteType, nullable: true, resolve: (entry) => itemOf('note')(entry)?.note ?? null }),
    tag: t.field({ type: TimelineTagType, nullable: true, resolve: (entry) => itemOf('tag')(entry)?.tag ?? null }),
  }),
});

const TimelinePage = pageType('ContactTimeline', TimelineEntryType, "One page of a contact's timeline, newest first.");

builder.queryFields((t) => ({
  contactTimeline: t.field({
    type: TimelinePage,
    description:
      "A contact's whole story, newest first: its conversations, the campaigns it received, its appointments, its consent changes, " +
      'the notes on its conversations and its tags. `cursor` is the next_cursor of the page before.',
    authScopes: { permission: 'customers:read' },
    args: {
      id: t.arg.id({ required: true }),
      limit: limitArg(t.arg, 50),
      cursor: t.arg.string({ required: false }),
    },
    resolve: (_root, args, ctx) => contactTimeline(ctx, { ...args, id: String(args.id) }),
  }),
}));

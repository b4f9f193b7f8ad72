// Workspace-level scheduling: settings (time zone), the booking-widget embed metadata, the calendar-feed
// token rotation, and the public calendar feed read by GET /calendar/<token>.ics (facades/public/calendar/feedRoute.ts).
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { Appointment } from './appointments.js';
import { AppointmentType } from './appointmentTypes.js';
import { getSchedulingSettings, updateSchedulingSettings, type SchedulingSettings } from '../../resolvers/scheduling/schedulingSettings.js';
import { calendarFeedByToken, rotateCalendarFeedToken } from '../../resolvers/scheduling/calendarFeed.js';
import { widgetEmbed } from '../../resolvers/scheduling/bookingWidget.js';
import { URI } from '../shared/jsonSchemaHints.js';

const SchedulingSettingsType = builder.objectRef<SchedulingSettings>('SchedulingSettings').implement({
  fields: (t) => ({
    time_zone: t.exposeString('time_zone', { description: 'IANA time zone in which availability is read; default UTC.' }),
    public_id: t.exposeString('public_id', { description: 'Identifies the workspace on public pages (the booking widget).' }),
    calendar_feed_enabled: t.exposeBoolean('calendar_feed_enabled', { description: 'Whether a calendar feed token exists.' }),
    calendar_feed_rotated_at: t.expose('calendar_feed_rotated_at', { type: 'DateTime', nullable: true }),
  }),
});

const WidgetEmbed = builder.objectRef<Awaited<ReturnType<typeof widgetEmbed>>>('WidgetEmbed').implement({
  description: 'What a website needs to embed the booking widget.',
  fields: (t) => ({
    public_id: t.exposeString('public_id'),
    time_zone: t.exposeString('time_zone'),
    booking_url: t.exposeString('booking_url', { ...URI, description: 'The booking page the snippet frames.' }),
    html_snippet: t.exposeString('html_snippet', { description: 'HTML to paste into a page.' }),
    appointment_types: t.field({
      type: [AppointmentType],
      description: 'The bookable (active) appointment types, by name.',
      resolve: (embed) => embed.appointment_types,
    }),
  }),
});

const CalendarFeedToken = builder.objectRef<Awaited<ReturnType<typeof rotateCalendarFeedToken>>>('CalendarFeedToken').implement({
  fields: (t) => ({
    url: t.exposeString('url', { ...URI, description: 'The iCalendar feed URL, secret token included. Shown once.' }),
    rotated_at: t.expose('rotated_at', { type: 'DateTime' }),
  }),
});

const CalendarFeed = builder.objectRef<Awaited<ReturnType<typeof calendarFeedByToken>>>('CalendarFeed').implement({
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The workspace name.' }),
    time_zone: t.exposeString('time_zone'),
    appointments: t.field({
      type: [Appointment],
      description: 'Appointments from 90 days ago onwards (at most 1000), in calendar order, every status.',
      resolve: (feed) => feed.appointments,
    }),
  }),
});

builder.queryFields((t) => ({
  schedulingSettings: t.field({
    type: SchedulingSettingsType,
    authScopes: { permission: 'scheduling' },
    resolve: (_root, _args, ctx) => getSchedulingSettings(ctx),
  }),
  widgetEmbed: t.field({
    type: WidgetEmbed,
    description: 'Booking-widget embed metadata: public id, bookable types and an HTML snippet.',
    authScopes: { permission: 'scheduling' },
    resolve: (_root, _args, ctx, info) => widgetEmbed(ctx, queryFromInfo({ context: ctx, info, path: ['appointment_types'] })),
  }),
  calendarFeed: t.field({
    type: CalendarFeed,
    description: 'The calendar feed behind a feed token. Needs no API key: the token is the credential.',
    authScopes: { public: true },
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx, info) => calendarFeedByToken(ctx, args, queryFromInfo({ context: ctx, info, path: ['appointments'] })),
  }),
}));

builder.mutationFields((t) => ({
  schedulingSettingsUpdate: t.field({
    type: SchedulingSettingsType,
    description: "Sets the workspace's IANA time zone; availability is read in it from then on.",
    authScopes: { permission: 'scheduling' },
    args: { time_zone: t.arg.string({ required: true, description: 'For example Europe/Lisbon.' }) },
    resolve: (_root, args, ctx) => updateSchedulingSettings(ctx, args),
  }),
  calendarFeedTokenRotate: t.field({
    type: CalendarFeedToken,
    description: 'Issues a new calendar feed URL; the previous URL stops working at once.',
    authScopes: { permission: 'scheduling' },
    resolve: (_root, _args, ctx) => rotateCalendarFeedToken(ctx),
  }),
}));

// The public booking page's fields: no API key, the workspace's public id selects the workspace. Each field is
// marked `public` explicitly, and their types have no relations, so nothing else of a workspace can be reached
// from them. Served by GET /book/<public_id> (facades/public/booking/pageRoute.ts) and REST under /api/v1/public/booking.
import { builder } from '../builder.js';
import { CalendarSlots } from './appointments.js';
import { bookingPage, bookingPageBook, bookingPageSlots, MAX_PUBLIC_SLOT_DAYS } from '../../resolvers/scheduling/bookingPage.js';
import { EMAIL } from '../shared/jsonSchemaHints.js';

type Page = Awaited<ReturnType<typeof bookingPage>>;

const BookableType = builder.objectRef<Page['appointment_types'][number]>('BookableAppointmentType').implement({
  description: 'An appointment type as visitors of the booking page see it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    duration_minutes: t.exposeInt('duration_minutes'),
  }),
});

const BookingPage = builder.objectRef<Page>('BookingPage').implement({
  description: 'What the public booking page shows: the workspace name, its time zone and its bookable types.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The workspace name.' }),
    time_zone: t.exposeString('time_zone', { description: 'The IANA time zone that slots and local times are given in.' }),
    appointment_types: t.field({
      type: [BookableType],
      description: 'The active appointment types, by name.',
      resolve: (page) => page.appointment_types,
    }),
  }),
});

const BookingConfirmation = builder.objectRef<Awaited<ReturnType<typeof bookingPageBook>>>('BookingConfirmation').implement({
  description: 'What a visitor keeps of a booking made on the booking page.',
  fields: (t) => ({
    appointment_id: t.exposeID('appointment_id'),
    appointment_type_name: t.exposeString('appointment_type_name'),
    start_at: t.expose('start_at', { type: 'DateTime' }),
    end_at: t.expose('end_at', { type: 'DateTime' }),
    local_start: t.exposeString('local_start', { description: 'start_at in the workspace time zone, ISO 8601 with offset.' }),
    local_end: t.exposeString('local_end', { description: 'end_at in the workspace time zone, ISO 8601 with offset.' }),
    time_zone: t.exposeString('time_zone'),
  }),
});

const PUBLIC_ID_ARG = { required: true, description: 'The workspace public id (widgetEmbed.public_id).' } as const;

builder.queryFields((t) => ({
  bookingPage: t.field({
    type: BookingPage,
    description: 'Public, no API key: the booking page of the workspace with this public id.',
    authScopes: { public: true },
    args: { public_id: t.arg.string(PUBLIC_ID_ARG) },
    resolve: (_root, args, ctx) => bookingPage(ctx, args),
  }),
  bookingPageSlots: t.field({
    type: CalendarSlots,
    description: `Public, no API key: free slots of an active type of the workspace starting in [from, to) (at most ${MAX_PUBLIC_SLOT_DAYS} days), as calendarSlots gives them.`,
    authScopes: { public: true },
    args: {
      public_id: t.arg.string(PUBLIC_ID_ARG),
      appointment_type_id: t.arg.id({ required: true }),
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true }),
    },
    resolve: (_root, args, ctx) => bookingPageSlots(ctx, { ...args, appointment_type_id: String(args.appointment_type_id) }),
  }),
}));

builder.mutationFields((t) => ({
  bookingPageBook: t.field({
    type: BookingConfirmation,
    description:
      'Public, no API key: books a slot for a visitor. The contact with this phone number is used, or created with the ' +
      'name, phone and email; then the rules of appointmentBook apply (VALIDATION_ERROR outside availability, CONFLICT on overlap).',
    authScopes: { public: true },
    args: {
      public_id: t.arg.string(PUBLIC_ID_ARG),
      appointment_type_id: t.arg.id({ required: true }),
      start_at: t.arg({ type: 'DateTime', required: true, description: 'A slot start from bookingPageSlots.' }),
      name: t.arg.string({ required: true }),
      phone: t.arg.string({ required: true, description: 'E.164, for example +14155550123.' }),
      email: t.arg.string({ required: false, ...EMAIL }),
      notes: t.arg.string({ required: false, description: 'At most 5000 characters.' }),
    },
    resolve: (_root, args, ctx) => bookingPageBook(ctx, { ...args, appointment_type_id: String(args.appointment_type_id) }),
  }),
}));

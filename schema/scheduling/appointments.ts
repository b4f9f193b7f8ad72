// Appointments and calendar slots: book into a free slot, list by range and status, get, reschedule or
// annotate, change status (scheduled → cancelled | completed | no_show), cancel.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { pageType } from '../shared/page.js';
import { AppointmentType } from './appointmentTypes.js';
import {
  APPOINTMENT_STATUSES,
  bookAppointment,
  cancelAppointment,
  getAppointment,
  listAppointments,
  updateAppointment,
} from '../../resolvers/scheduling/appointments.js';
import { listCalendarSlots, type CalendarSlot } from '../../resolvers/scheduling/calendarSlots.js';
import { limitArg } from '../shared/pageLimit.js';
import { oneOf } from '../shared/jsonSchemaHints.js';

export const Appointment = builder.prismaObject('Appointment', {
  description: 'An appointment with a contact. Scheduled appointments of a workspace never overlap, buffers included.',
  fields: (t) => ({
    id: t.exposeID('id'),
    company_id: t.exposeID('company_id'),
    customer_id: t.exposeID('customer_id'),
    appointment_type_id: t.exposeID('appointment_type_id'),
    start_at: t.expose('start_at', { type: 'DateTime' }),
    end_at: t.expose('end_at', { type: 'DateTime', description: 'start_at plus the type duration.' }),
    status: t.exposeString('status', oneOf(APPOINTMENT_STATUSES)),
    notes: t.exposeString('notes', { nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
    customer: t.relation('customer'),
    appointment_type: t.relation('appointment_type', { type: AppointmentType }),
  }),
});

const AppointmentList = pageType('AppointmentList', Appointment, 'One page of appointments in calendar order (start time, then id).');

const CalendarSlotType = builder.objectRef<CalendarSlot>('CalendarSlot').implement({
  description: 'A free time at which an appointment of the type can be booked.',
  fields: (t) => ({
    start_at: t.expose('start_at', { type: 'DateTime' }),
    end_at: t.expose('end_at', { type: 'DateTime' }),
    local_start: t.exposeString('local_start', { description: 'start_at in the workspace time zone, ISO 8601 with offset.' }),
    local_end: t.exposeString('local_end', { description: 'end_at in the workspace time zone, ISO 8601 with offset.' }),
  }),
});

export const CalendarSlots = builder
  .objectRef<{ appointment_type_id: string; time_zone: string; slots: CalendarSlot[] }>('CalendarSlots')
  .implement({
    fields: (t) => ({
      appointment_type_id: t.exposeID('appointment_type_id'),
      time_zone: t.exposeString('time_zone', { description: 'The workspace time zone the availability is read in.' }),
      slots: t.field({ type: [CalendarSlotType], resolve: (result) => result.slots }),
    }),
  });

builder.queryFields((t) => ({
  appointments: t.field({
    type: AppointmentList,
    description: 'Appointments in calendar order; from/to select those starting in [from, to).',
    authScopes: { permission: 'scheduling' },
    args: {
      from: t.arg({ type: 'DateTime', required: false }),
      to: t.arg({ type: 'DateTime', required: false }),
      status: t.arg.string({ required: false, ...oneOf(APPOINTMENT_STATUSES) }),
      customer_id: t.arg.id({ required: false }),
      limit: limitArg(t.arg, 50),
      cursor: t.arg.string({ required: false, description: 'The next_cursor of the previous page.' }),
    },
    resolve: (_root, args, ctx, info) =>
      listAppointments(ctx, { ...args, customer_id: args.customer_id?.toString() }, queryFromInfo({ context: ctx, info, path: ['data'] })),
  }),
  appointment: t.prismaField({
    type: Appointment,
    description: 'One appointment of the workspace.',
    authScopes: { permission: 'scheduling' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getAppointment(ctx, { id: String(args.id) }, query),
  }),
  calendarSlots: t.field({
    type: CalendarSlots,
    description: 'Free slots of an active appointment type starting in [from, to) (at most 62 days), in time order.',
    authScopes: { permission: 'scheduling' },
    args: {
      appointment_type_id: t.arg.id({ required: true }),
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true }),
    },
    resolve: (_root, args, ctx) => listCalendarSlots(ctx, { ...args, appointment_type_id: String(args.appointment_type_id) }),
  }),
}));

builder.mutationFields((t) => ({
  appointmentBook: t.prismaField({
    type: Appointment,
    description:
      'Books an appointment of an active type for a contact. Refused when it starts in the past, falls outside the ' +
      "type's availability (VALIDATION_ERROR) or overlaps a scheduled appointment, buffers included (CONFLICT).",
    authScopes: { permission: 'scheduling' },
    args: {
      customer_id: t.arg.id({ required: true }),
      appointment_type_id: t.arg.id({ required: true }),
      start_at: t.arg({ type: 'DateTime', required: true }),
      notes: t.arg.string({ required: false }),
    },
    resolve: (query, _root, args, ctx) =>
      bookAppointment(
        ctx,
        { ...args, customer_id: String(args.customer_id), appointment_type_id: String(args.appointment_type_id) },
        query,
      ),
  }),
  appointmentUpdate: t.prismaField({
    type: Appointment,
    description:
      'Reschedules (start_at; scheduled appointments only, same checks as booking), edits notes, or changes the ' +
      'status: scheduled → cancelled, completed or no_show (the last two once it has started); other statuses are final.',
    authScopes: { permission: 'scheduling' },
    args: {
      id: t.arg.id({ required: true }),
      start_at: t.arg({ type: 'DateTime', required: false }),
      notes: t.arg.string({ required: false }),
      status: t.arg.string({ required: false }),
    },
    resolve: (query, _root, args, ctx) => updateAppointment(ctx, { ...args, id: String(args.id) }, query),
  }),
  appointmentCancel: t.prismaField({
    type: Appointment,
    description: 'Cancels a scheduled appointment; its time becomes free. Cancelling a cancelled one changes nothing.',
    authScopes: { permission: 'scheduling' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => cancelAppointment(ctx, { id: String(args.id) }, query),
  }),
}));

// Appointment types: what can be booked, for how long, with what buffer, and when (weekly availability in
// the workspace's time zone). Listed under {appointment_types}; created, updated, deleted.
import { builder } from '../builder.js';
import { WEEKDAYS, type AvailabilityWindow } from '../../resolvers/scheduling/availability.js';
import {
  availabilityOf,
  createAppointmentType,
  deleteAppointmentType,
  getAppointmentType,
  listAppointmentTypes,
  updateAppointmentType,
} from '../../resolvers/scheduling/appointmentTypes.js';

const Weekday = builder.enumType('Weekday', { values: WEEKDAYS });

export const AvailabilityWindowType = builder.objectRef<AvailabilityWindow>('AvailabilityWindow').implement({
  description: 'A weekly window, as wall-clock times in the workspace time zone.',
  fields: (t) => ({
    weekday: t.field({ type: Weekday, resolve: (window) => window.weekday }),
    start: t.exposeString('start', { description: 'HH:MM, inclusive.' }),
    end: t.exposeString('end', { description: 'HH:MM (24:00 for midnight), exclusive.' }),
  }),
});

export const AvailabilityWindowInput = builder.inputType('AvailabilityWindowInput', {
  fields: (t) => ({
    weekday: t.field({ type: Weekday, required: true }),
    start: t.string({ required: true, description: 'HH:MM, 00:00 to 23:59.' }),
    end: t.string({ required: true, description: 'HH:MM, after start; 24:00 for midnight.' }),
  }),
});

export const AppointmentType = builder.prismaObject('AppointmentType', {
  description: 'A kind of appointment the workspace offers.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    duration_minutes: t.exposeInt('duration_minutes'),
    buffer_minutes: t.exposeInt('buffer_minutes', { description: 'Kept free after each appointment of this type.' }),
    availability: t.field({
      type: [AvailabilityWindowType],
      select: { availability: true },
      resolve: (type) => availabilityOf(type),
    }),
    active: t.exposeBoolean('active', { description: 'Only active types can be booked and offer slots.' }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

const AppointmentTypeList = builder
  .objectRef<{ appointment_types: Awaited<ReturnType<typeof listAppointmentTypes>>['appointment_types'] }>('AppointmentTypeList')
  .implement({
    fields: (t) => ({
      appointment_types: t.field({ type: [AppointmentType], resolve: (list) => list.appointment_types }),
    }),
  });

builder.queryFields((t) => ({
  appointmentTypes: t.field({
    type: AppointmentTypeList,
    description: 'The appointment types of the workspace, by name.',
    authScopes: { permission: 'scheduling' },
    args: { active: t.arg.boolean({ required: false, description: 'Only active (true) or inactive (false) types.' }) },
    resolve: (_root, args, ctx) => listAppointmentTypes(ctx, args),
  }),
  appointmentType: t.prismaField({
    type: AppointmentType,
    description: 'One appointment type of the workspace.',
    authScopes: { permission: 'scheduling' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getAppointmentType(ctx, { id: String(args.id) }, query),
  }),
}));

builder.mutationFields((t) => ({
  appointmentTypeCreate: t.prismaField({
    type: AppointmentType,
    description: 'Creates an appointment type.',
    authScopes: { permission: 'scheduling' },
    args: {
      name: t.arg.string({ required: true }),
      duration_minutes: t.arg.int({ required: true, description: '5 to 1440.' }),
      buffer_minutes: t.arg.int({ required: false, description: '0 to 1440, default 0.' }),
      availability: t.arg({ type: [AvailabilityWindowInput], required: true }),
      active: t.arg.boolean({ required: false, description: 'Default true.' }),
    },
    resolve: (query, _root, args, ctx) => createAppointmentType(ctx, args, query),
  }),
  appointmentTypeUpdate: t.prismaField({
    type: AppointmentType,
    description: 'Changes the given fields of an appointment type; booked appointments keep their times.',
    authScopes: { permission: 'scheduling' },
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: false }),
      duration_minutes: t.arg.int({ required: false }),
      buffer_minutes: t.arg.int({ required: false }),
      availability: t.arg({ type: [AvailabilityWindowInput], required: false, description: 'Replaces every window.' }),
      active: t.arg.boolean({ required: false }),
    },
    resolve: (query, _root, args, ctx) => updateAppointmentType(ctx, { ...args, id: String(args.id) }, query),
  }),
  appointmentTypeDelete: t.prismaField({
    type: AppointmentType,
    description: 'Deletes an appointment type that has no appointments, and returns it.',
    authScopes: { permission: 'scheduling' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => deleteAppointmentType(ctx, { id: String(args.id) }, query),
  }),
}));

// The workspace's business hours: its time zone, weekly windows and holidays. Anyone who reads the team may read
// them (`users` or `settings`); owners and admins change them (`settings`).
import { builder } from '../builder.js';
import { AvailabilityWindowInput, AvailabilityWindowType } from '../scheduling/appointmentTypes.js';
import { getBusinessHours, updateBusinessHours, type BusinessHoursView } from '../../resolvers/workspace/businessHoursSettings.js';
import type { Holiday } from '../../resolvers/workspace/businessHours.js';

const HolidayType = builder.objectRef<Holiday>('Holiday').implement({
  description: 'A local date on which the workspace is closed all day.',
  fields: (t) => ({
    date: t.exposeString('date', { description: 'YYYY-MM-DD in the workspace time zone.' }),
    name: t.exposeString('name', { nullable: true }),
  }),
});

const HolidayInput = builder.inputType('HolidayInput', {
  fields: (t) => ({
    date: t.string({ required: true, description: 'YYYY-MM-DD.' }),
    name: t.string({ required: false, description: 'At most 100 characters.' }),
  }),
});

const BusinessHoursType = builder.objectRef<BusinessHoursView>('BusinessHours').implement({
  description: 'When the workspace is open. Until hours are set it is open around the clock (every day 00:00 to 24:00).',
  fields: (t) => ({
    time_zone: t.exposeString('time_zone', { description: "IANA time zone of the hours (the workspace's, shared with scheduling)." }),
    hours: t.field({
      type: [AvailabilityWindowType],
      description: 'Weekly windows; a weekday may have none (closed) or several.',
      resolve: (hours) => hours.hours,
    }),
    holidays: t.field({ type: [HolidayType], description: 'Closed all day, in date order.', resolve: (hours) => hours.holidays }),
    open_now: t.exposeBoolean('open_now', { description: 'Whether the workspace is within business hours now.' }),
  }),
});

builder.queryField('businessHours', (t) =>
  t.field({
    type: BusinessHoursType,
    authScopes: { permission: 'settings:read' },
    resolve: (_root, _args, ctx) => getBusinessHours(ctx),
  }),
);

builder.mutationField('businessHoursUpdate', (t) =>
  t.field({
    type: BusinessHoursType,
    description: 'Changes what is given; hours and holidays are each replaced whole. Windows of one weekday may not overlap.',
    authScopes: { permission: 'settings' },
    args: {
      time_zone: t.arg.string({ required: false, description: 'For example Europe/Lisbon.' }),
      hours: t.arg({ type: [AvailabilityWindowInput], required: false, description: 'At most 50 windows.' }),
      holidays: t.arg({ type: [HolidayInput], required: false, description: 'At most 100, each date once.' }),
    },
    resolve: (_root, args, ctx) => updateBusinessHours(ctx, args),
  }),
);

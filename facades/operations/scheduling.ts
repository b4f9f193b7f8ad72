// Where the scheduling operations (scheduling.graphql) are exposed (docs/api-decisions.md, "Scheduling, knowledge,
// analytics").
import type { FacadeEntry } from '../core/table.js';

export const SCHEDULING: readonly FacadeEntry[] = [
  {
    operation: 'SchedulingSettingsGet',
    rest: [{ operationId: 'getSchedulingSettings', method: 'GET', path: '/scheduling/settings' }],
    mcp: {
      name: 'scheduling_settings_get',
      kind: 'read',
      description: "Read the workspace's scheduling settings: its IANA time zone, in which appointment-type availability is given.",
    },
  },
  {
    operation: 'SchedulingSettingsUpdate',
    rest: [{ operationId: 'updateSchedulingSettings', method: 'PATCH', path: '/scheduling/settings' }],
    mcp: {
      name: 'scheduling_settings_update',
      kind: 'destructive',
      description: "Set the workspace's IANA time zone (for example Europe/Lisbon); availability windows are read in it.",
    },
  },
  {
    operation: 'WidgetEmbedGet',
    rest: [{ operationId: 'getWidgetEmbed', method: 'GET', path: '/scheduling/widget' }],
    mcp: {
      name: 'widget_embed_get',
      kind: 'read',
      description: 'What a website needs to embed the booking widget: the workspace public id, bookable types and an HTML snippet.',
    },
  },
  {
    operation: 'AppointmentTypesList',
    rest: [{ operationId: 'listAppointmentTypes', method: 'GET', path: '/appointment-types' }],
    mcp: {
      name: 'appointment_types_list',
      kind: 'read',
      description: 'List appointment types (name, duration, buffer, weekly availability); filter by active.',
    },
  },
  {
    operation: 'AppointmentTypeCreate',
    rest: [{ operationId: 'createAppointmentType', method: 'POST', path: '/appointment-types', status: 201 }],
    mcp: {
      name: 'appointment_types_create',
      kind: 'write',
      description:
        'Create an appointment type: name, duration_minutes, buffer_minutes kept free after each appointment, and weekly availability [{weekday, start "HH:MM", end "HH:MM"}] in the workspace time zone.',
    },
  },
  {
    operation: 'AppointmentTypeGet',
    rest: [{ operationId: 'getAppointmentType', method: 'GET', path: '/appointment-types/{id}' }],
    mcp: { name: 'appointment_types_get', kind: 'read', description: 'Get one appointment type.' },
  },
  {
    operation: 'AppointmentTypeUpdate',
    rest: [{ operationId: 'updateAppointmentType', method: 'PATCH', path: '/appointment-types/{id}' }],
    mcp: { name: 'appointment_types_update', kind: 'destructive', description: 'Change an appointment type; omitted fields stay.' },
  },
  {
    operation: 'AppointmentTypeDelete',
    rest: [{ operationId: 'deleteAppointmentType', method: 'DELETE', path: '/appointment-types/{id}', errors: ['CONFLICT'] }],
    mcp: {
      name: 'appointment_types_delete',
      kind: 'destructive',
      description: 'Delete an appointment type that has no appointments (deactivate it otherwise).',
    },
  },
  {
    operation: 'AppointmentsList',
    rest: [{ operationId: 'listAppointments', method: 'GET', path: '/appointments' }],
    mcp: {
      name: 'appointments_list',
      kind: 'read',
      description: 'List appointments in calendar order; filter by from/to, status and customer_id.',
    },
  },
  {
    operation: 'AppointmentBook',
    rest: [{ operationId: 'bookAppointment', method: 'POST', path: '/appointments', status: 201, errors: ['NOT_FOUND', 'CONFLICT'] }],
    mcp: {
      name: 'appointments_book',
      kind: 'write',
      description:
        'Book an appointment for a contact at start_at (ISO 8601); refused with CONFLICT when it overlaps another scheduled appointment and VALIDATION_ERROR outside availability.',
    },
  },
  {
    operation: 'AppointmentGet',
    rest: [{ operationId: 'getAppointment', method: 'GET', path: '/appointments/{id}' }],
    mcp: { name: 'appointments_get', kind: 'read', description: 'Get one appointment with its contact and type.' },
  },
  {
    operation: 'AppointmentUpdate',
    rest: [{ operationId: 'updateAppointment', method: 'PATCH', path: '/appointments/{id}', errors: ['CONFLICT', 'INVALID_TRANSITION'] }],
    mcp: {
      name: 'appointments_update',
      kind: 'destructive',
      description: 'Reschedule (start_at), annotate (notes) or set the status (completed, no_show, cancelled) of an appointment.',
    },
  },
  {
    operation: 'AppointmentCancel',
    rest: [{ operationId: 'cancelAppointment', method: 'POST', path: '/appointments/{id}/cancel', errors: ['INVALID_TRANSITION'] }],
    mcp: { name: 'appointments_cancel', kind: 'destructive', description: 'Cancel an appointment; cancelling again changes nothing.' },
  },
  {
    operation: 'CalendarSlotsList',
    rest: [{ operationId: 'listCalendarSlots', method: 'GET', path: '/calendar/slots', errors: ['NOT_FOUND'] }],
    mcp: {
      name: 'calendar_slots_list',
      kind: 'read',
      description:
        'List the free slots of an appointment type between from and to (ISO 8601), honouring existing appointments, buffers, the time zone and daylight-saving changes.',
    },
  },
  {
    operation: 'CalendarFeedTokenRotate',
    rest: [{ operationId: 'rotateCalendarFeedToken', method: 'POST', path: '/calendar/feed-token/rotate' }],
    mcp: {
      name: 'calendar_feed_rotate_token',
      kind: 'destructive',
      description: "Issue a new secret iCalendar feed URL for the workspace's appointments; the old URL stops working at once.",
    },
  },
];

/**
 * The public booking page's operations (the end of scheduling.graphql): key-less REST routes over public
 * GraphQL fields (docs/api-decisions.md, "Booking page"); infra/http/pipeline.ts lets them pass without a key and
 * the edge counts them per client address. No MCP tools: AI clients have keys and the keyed tools.
 */
export const BOOKING: readonly FacadeEntry[] = [
  {
    operation: 'BookingPageGet',
    rest: [{ operationId: 'getBookingPage', method: 'GET', path: '/public/booking/{public_id}', errors: ['NOT_FOUND'] }],
  },
  {
    operation: 'BookingPageSlots',
    rest: [{ operationId: 'listBookingPageSlots', method: 'GET', path: '/public/booking/{public_id}/slots', errors: ['NOT_FOUND'] }],
  },
  {
    operation: 'BookingPageBook',
    rest: [
      {
        operationId: 'bookOnBookingPage',
        method: 'POST',
        path: '/public/booking/{public_id}/appointments',
        status: 201,
        errors: ['NOT_FOUND', 'CONFLICT'],
      },
    ],
  },
];

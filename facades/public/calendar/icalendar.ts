// Renders the calendar feed as iCalendar (RFC 5545) with ical-generator: CRLF lines folded at 75 octets,
// escaped text, times in UTC. Each appointment is one VEVENT whose UID is the appointment id, so calendar
// clients update (or, for STATUS:CANCELLED, remove) the same event on every refresh.
import ical, { ICalEventStatus } from 'ical-generator';
import type { CalendarFeedQuery } from '../../core/operations.generated.js';

type Feed = NonNullable<CalendarFeedQuery['calendarFeed']>;

const REFRESH_SECONDS = 15 * 60;

const STATUS: Record<string, ICalEventStatus> = {
  scheduled: ICalEventStatus.CONFIRMED,
  completed: ICalEventStatus.CONFIRMED,
  no_show: ICalEventStatus.CONFIRMED,
  cancelled: ICalEventStatus.CANCELLED,
};

export function renderCalendar(feed: Feed): string {
  const calendar = ical({
    name: `${feed.name} appointments`,
    prodId: { company: 'messaging-crm', product: 'appointments', language: 'EN' },
    ttl: REFRESH_SECONDS,
  });
  for (const appointment of feed.appointments) {
    const contact = appointment.customer.name ?? appointment.customer.phone_number ?? 'a contact';
    calendar.createEvent({
      id: appointment.id,
      start: new Date(appointment.start_at),
      end: new Date(appointment.end_at),
      stamp: new Date(appointment.updated_at),
      created: new Date(appointment.created_at),
      lastModified: new Date(appointment.updated_at),
      summary: `${appointment.appointment_type.name} with ${contact}`,
      description: appointment.notes,
      status: STATUS[appointment.status] ?? ICalEventStatus.CONFIRMED,
    });
  }
  // RFC 5545 ends every content line, the last one included, with CRLF; ical-generator leaves the last one bare.
  return `${calendar.toString()}\r\n`;
}

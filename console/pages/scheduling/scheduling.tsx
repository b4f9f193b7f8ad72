// Scheduling (/scheduling): appointment types with their weekly hours, the week's appointments with booking and
// cancelling, and the links the workspace shares (booking page, widget code, calendar feed). Everything goes
// through the scheduling queries of the public GraphQL API.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useQuery } from '@urql/preact';
import { ErrorNote, Page } from '../../ui.js';
import { AppointmentTypes, type AppointmentType } from './appointmentTypes.js';
import { BookAppointment } from './bookAppointment.js';
import { WeekCalendar, weekStart } from './weekCalendar.js';
import { SchedulingLinks } from './links.js';

const TYPES = gql`
  query SchedulingPageTypes {
    appointmentTypes { appointment_types { id name duration_minutes buffer_minutes availability { weekday start end } active } }
  }
`;

export function SchedulingPage() {
  const [listed, refresh] = useQuery<{ appointmentTypes: { appointment_types: AppointmentType[] } }>({ query: TYPES });
  const [week, setWeek] = useState(() => weekStart(new Date()));
  const [bookings, setBookings] = useState(0);
  const types = listed.data?.appointmentTypes.appointment_types;
  return (
    <Page title="Scheduling">
      <ErrorNote error={listed.error} />
      <div class="scheduling">
        {/* A new booking remounts the calendar on the booked week, so it shows there at once. */}
        <WeekCalendar key={`${week.getTime()}-${bookings}`} start={week} onWeek={setWeek} />
        {types ? (
          <BookAppointment
            types={types}
            onBooked={(startAt) => {
              setWeek(weekStart(new Date(startAt)));
              setBookings(bookings + 1);
            }}
          />
        ) : null}
      </div>
      <AppointmentTypes types={types} onChanged={() => refresh({ requestPolicy: 'network-only' })} />
      <SchedulingLinks />
    </Page>
  );
}

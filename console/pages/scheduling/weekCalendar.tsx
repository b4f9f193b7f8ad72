// The week's appointments, day by day in the browser's time, each with its contact and type; earlier and later
// weeks one click away. A scheduled appointment can be cancelled from here (its time becomes free again).
import { useMemo } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { ErrorNote } from '../../ui.js';

type Appointment = {
  id: string;
  start_at: string;
  end_at: string;
  status: string;
  notes: string | null;
  appointment_type: { name: string };
  customer: { id: string; name: string | null; phone_number: string | null };
};

const WEEK = gql`
  query SchedulingPageWeek($from: DateTime!, $to: DateTime!) {
    appointments(from: $from, to: $to, limit: 100) {
      data { id start_at end_at status notes appointment_type { name } customer { id name phone_number } }
    }
  }
`;
const CANCEL = gql`
  mutation SchedulingPageCancel($id: ID!) {
    appointmentCancel(id: $id) {
      id
      status
    }
  }
`;

const DAY_MS = 86_400_000;

/** Monday 00:00 (browser time) of the week holding `date`. */
export function weekStart(date: Date): Date {
  const monday = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
  return monday;
}

const addDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
const clock = (value: string) => new Date(value).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

export function WeekCalendar({ start, onWeek }: { start: Date; onWeek: (start: Date) => void }) {
  const end = addDays(start, 7);
  const variables = useMemo(() => ({ from: start.toISOString(), to: end.toISOString() }), [start]);
  const [week, refresh] = useQuery<{ appointments: { data: Appointment[] } }>({ query: WEEK, variables, requestPolicy: 'network-only' });
  const [cancelled, cancel] = useMutation(CANCEL);
  const days = Array.from({ length: 7 }, (_, index) => addDays(start, index));
  const appointments = week.data?.appointments.data ?? [];
  const label = `Week of ${start.toLocaleDateString(undefined, { dateStyle: 'long' })}`;
  return (
    <section aria-labelledby="week-title">
      <div class="week-header">
        <h2 id="week-title">{label}</h2>
        <div class="actions">
          <button type="button" onClick={() => onWeek(addDays(start, -7))}>
            Previous week
          </button>
          <button type="button" onClick={() => onWeek(weekStart(new Date()))}>
            This week
          </button>
          <button type="button" onClick={() => onWeek(addDays(start, 7))}>
            Next week
          </button>
        </div>
      </div>
      <ErrorNote error={week.error ?? cancelled.error} />
      <ol class="week" aria-label={label}>
        {days.map((day) => {
          const onDay = appointments.filter((appointment) => {
            const at = new Date(appointment.start_at).getTime();
            return at >= day.getTime() && at < day.getTime() + DAY_MS;
          });
          const name = day.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'short' });
          return (
            <li key={day.getTime()} class="week-day" aria-label={name}>
              <h3>{name}</h3>
              {onDay.length === 0 ? <p class="empty">Free</p> : null}
              <ul>
                {onDay.map((appointment) => (
                  <li key={appointment.id} class={`appointment appointment-${appointment.status}`} data-testid="appointment">
                    <strong>
                      {clock(appointment.start_at)}–{clock(appointment.end_at)}
                    </strong>{' '}
                    {appointment.appointment_type.name} with{' '}
                    <a href={`/contacts/${appointment.customer.id}`}>
                      {appointment.customer.name ?? appointment.customer.phone_number ?? 'a contact'}
                    </a>
                    {appointment.status === 'scheduled' ? null : <span class="badge">{appointment.status}</span>}
                    {appointment.notes ? <p>{appointment.notes}</p> : null}
                    {appointment.status === 'scheduled' ? (
                      <button
                        type="button"
                        class="link"
                        onClick={() => void cancel({ id: appointment.id }).then(() => refresh({ requestPolicy: 'network-only' }))}
                      >
                        Cancel {clock(appointment.start_at)}
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

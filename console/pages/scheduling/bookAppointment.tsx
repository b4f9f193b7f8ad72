// Booking for a contact: the type, a day, one of the free times the API offers for it (so availability, buffers and
// other appointments are the API's to weigh), the contact found by search, and a note.
import { useMemo, useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, ErrorNote, Field } from '../../ui.js';
import type { AppointmentType } from './appointmentTypes.js';

const SLOTS = gql`
  query SchedulingPageSlots($appointment_type_id: ID!, $from: DateTime!, $to: DateTime!) {
    calendarSlots(appointment_type_id: $appointment_type_id, from: $from, to: $to) {
      slots { start_at }
    }
  }
`;
const CONTACTS = gql`
  query SchedulingPageContacts($search: String) {
    contacts(search: $search, limit: 20) { data { id name phone_number } }
  }
`;
const BOOK = gql`
  mutation SchedulingPageBook($customer_id: ID!, $appointment_type_id: ID!, $start_at: DateTime!, $notes: String) {
    appointmentBook(customer_id: $customer_id, appointment_type_id: $appointment_type_id, start_at: $start_at, notes: $notes) {
      id
      start_at
    }
  }
`;

type Contact = { id: string; name: string | null; phone_number: string | null };

const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

export function BookAppointment({ types, onBooked }: { types: AppointmentType[]; onBooked: (startAt: string) => void }) {
  const bookable = types.filter((type) => type.active);
  const [typeId, setTypeId] = useState('');
  const [day, setDay] = useState(localDay(new Date()));
  const [slot, setSlot] = useState('');
  const [search, setSearch] = useState('');
  const [contactId, setContactId] = useState('');
  const [notes, setNotes] = useState('');
  const [booked, setBooked] = useState('');
  const chosenType = typeId || bookable[0]?.id || '';
  const slotVariables = useMemo(() => {
    const [year, month, date] = day.split('-').map(Number) as [number, number, number];
    return {
      appointment_type_id: chosenType,
      from: new Date(year, month - 1, date).toISOString(),
      to: new Date(year, month - 1, date + 1).toISOString(),
    };
  }, [chosenType, day]);
  const [slots, refreshSlots] = useQuery<{ calendarSlots: { slots: { start_at: string }[] } }>({
    query: SLOTS,
    variables: slotVariables,
    pause: !chosenType || !day,
    requestPolicy: 'network-only',
  });
  const [contacts] = useQuery<{ contacts: { data: Contact[] } }>({ query: CONTACTS, variables: { search: search || null } });
  const [booking, book] = useMutation<{ appointmentBook: { id: string; start_at: string } | null }>(BOOK);
  // While another day's times load, the last day's answer is still the query's data: only the chosen day's are offered.
  const [dayStarts, dayEnds] = [Date.parse(slotVariables.from), Date.parse(slotVariables.to)];
  const free = (slots.data?.calendarSlots.slots ?? []).filter(({ start_at }) => {
    const starts = Date.parse(start_at);
    return starts >= dayStarts && starts < dayEnds;
  });
  const found = contacts.data?.contacts.data ?? [];
  const chosenSlot = free.some((offered) => offered.start_at === slot) ? slot : (free[0]?.start_at ?? '');
  const chosenContact = found.some((contact) => contact.id === contactId) ? contactId : (found[0]?.id ?? '');
  if (bookable.length === 0) return <p class="empty">Create an appointment type to book appointments.</p>;
  return (
    <form
      class="card"
      aria-label="Book an appointment"
      onSubmit={(event) => {
        event.preventDefault();
        void book({ customer_id: chosenContact, appointment_type_id: chosenType, start_at: chosenSlot, notes: notes || null }).then(
          (answer) => {
            const appointment = answer.data?.appointmentBook;
            if (appointment) {
              setBooked(`Booked for ${new Date(appointment.start_at).toLocaleString()}.`);
              setNotes('');
              refreshSlots({ requestPolicy: 'network-only' });
              onBooked(appointment.start_at);
            }
          },
        );
      }}
    >
      <h2>Book an appointment</h2>
      <div class="field">
        <label for="book-type">Appointment type</label>
        <select id="book-type" value={chosenType} onChange={(e) => setTypeId(e.currentTarget.value)}>
          {bookable.map((type) => (
            <option key={type.id} value={type.id}>
              {type.name}
            </option>
          ))}
        </select>
      </div>
      <Field label="Day" type="date" value={day} required onInput={(e) => setDay(e.currentTarget.value)} />
      <div class="field">
        <label for="book-slot">Time</label>
        <select id="book-slot" value={chosenSlot} required onChange={(e) => setSlot(e.currentTarget.value)}>
          {free.map((offered) => (
            <option key={offered.start_at} value={offered.start_at}>
              {new Date(offered.start_at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}
            </option>
          ))}
        </select>
        {slots.data && !slots.fetching && free.length === 0 ? <small class="hint">No free time on this day.</small> : null}
      </div>
      <Field label="Find a contact" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      <div class="field">
        <label for="book-contact">Contact</label>
        <select id="book-contact" value={chosenContact} required onChange={(e) => setContactId(e.currentTarget.value)}>
          {found.map((contact) => (
            <option key={contact.id} value={contact.id}>
              {contact.name ?? contact.phone_number ?? contact.id}
            </option>
          ))}
        </select>
      </div>
      <Field label="Notes (optional)" value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />
      <ErrorNote error={slots.error ?? contacts.error ?? booking.error} />
      {booked ? <p role="status">{booked}</p> : null}
      <Button type="submit" busy={booking.fetching} disabled={!chosenSlot || !chosenContact}>
        Book
      </Button>
    </form>
  );
}

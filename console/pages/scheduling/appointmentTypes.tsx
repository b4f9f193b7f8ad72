// Appointment types: the list (length, buffer, weekly hours, whether bookable) and one form that creates a type or
// edits the chosen one, its weekly availability as a list of windows. Deactivating keeps a type and its
// appointments but takes it off the booking page; the API checks the windows (HH:MM, end after start).
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation } from '@urql/preact';
import { Button, EmptyNote, ErrorNote, Field, ListTable } from '../../ui.js';

export type AvailabilityWindow = { weekday: string; start: string; end: string };
export type AppointmentType = {
  id: string;
  name: string;
  duration_minutes: number;
  buffer_minutes: number;
  availability: AvailabilityWindow[];
  active: boolean;
};

const CREATE = gql`
  mutation SchedulingPageTypeCreate($name: String!, $duration_minutes: Int!, $buffer_minutes: Int, $availability: [AvailabilityWindowInput!]!) {
    appointmentTypeCreate(name: $name, duration_minutes: $duration_minutes, buffer_minutes: $buffer_minutes, availability: $availability) {
      id
    }
  }
`;
const UPDATE = gql`
  mutation SchedulingPageTypeUpdate(
    $id: ID!
    $name: String
    $duration_minutes: Int
    $buffer_minutes: Int
    $availability: [AvailabilityWindowInput!]
    $active: Boolean
  ) {
    appointmentTypeUpdate(
      id: $id
      name: $name
      duration_minutes: $duration_minutes
      buffer_minutes: $buffer_minutes
      availability: $availability
      active: $active
    ) {
      id
      active
    }
  }
`;

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

type Draft = { id: string | null; name: string; duration: string; buffer: string; windows: AvailabilityWindow[] };

const OFFICE_HOURS: AvailabilityWindow[] = WEEKDAYS.slice(0, 5).map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));
const NEW_TYPE: Draft = { id: null, name: '', duration: '30', buffer: '0', windows: OFFICE_HOURS };

function draftOf(type: AppointmentType): Draft {
  return {
    id: type.id,
    name: type.name,
    duration: String(type.duration_minutes),
    buffer: String(type.buffer_minutes),
    windows: type.availability.map(({ weekday, start, end }) => ({ weekday, start, end })),
  };
}

function hours(windows: AvailabilityWindow[]): string {
  return windows.map((window) => `${capitalized(window.weekday).slice(0, 3)} ${window.start}–${window.end}`).join(', ') || 'none';
}

function TypeForm({ editing, onSaved }: { editing: Draft; onSaved: () => void }) {
  const [draft, setDraft] = useState(editing);
  const [created, create] = useMutation(CREATE);
  const [updated, update] = useMutation(UPDATE);
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const setWindow = (index: number, change: Partial<AvailabilityWindow>) =>
    set({ windows: draft.windows.map((window, at) => (at === index ? { ...window, ...change } : window)) });
  const title = draft.id ? `Edit ${editing.name}` : 'New appointment type';
  return (
    <form
      class="card"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        const fields = {
          name: draft.name,
          duration_minutes: Number(draft.duration),
          buffer_minutes: Number(draft.buffer),
          availability: draft.windows,
        };
        const saved = draft.id ? update({ id: draft.id, ...fields }) : create(fields);
        void saved.then((answer) => {
          if (answer.data && !answer.error) {
            if (!draft.id) setDraft(NEW_TYPE);
            onSaved();
          }
        });
      }}
    >
      <h2>{title}</h2>
      <Field label="Name" value={draft.name} required onInput={(e) => set({ name: e.currentTarget.value })} />
      <Field
        label="Length in minutes"
        type="number"
        min={5}
        value={draft.duration}
        required
        onInput={(e) => set({ duration: e.currentTarget.value })}
      />
      <Field
        label="Buffer after, in minutes"
        type="number"
        min={0}
        value={draft.buffer}
        onInput={(e) => set({ buffer: e.currentTarget.value })}
      />
      <fieldset>
        <legend>Weekly availability (the workspace's time zone)</legend>
        {draft.windows.map((window, index) => (
          <div class="availability-window" key={index}>
            <div class="field">
              <label for={`window-day-${index}`}>Window {index + 1} day</label>
              <select
                id={`window-day-${index}`}
                value={window.weekday}
                onChange={(e) => setWindow(index, { weekday: e.currentTarget.value })}
              >
                {WEEKDAYS.map((weekday) => (
                  <option key={weekday} value={weekday}>
                    {capitalized(weekday)}
                  </option>
                ))}
              </select>
            </div>
            <Field
              label={`Window ${index + 1} from`}
              type="time"
              value={window.start}
              required
              onInput={(e) => setWindow(index, { start: e.currentTarget.value })}
            />
            <Field
              label={`Window ${index + 1} until`}
              type="time"
              value={window.end}
              required
              onInput={(e) => setWindow(index, { end: e.currentTarget.value })}
            />
            <button type="button" class="link" onClick={() => set({ windows: draft.windows.filter((_, at) => at !== index) })}>
              Remove window {index + 1}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => set({ windows: [...draft.windows, { weekday: 'monday', start: '09:00', end: '17:00' }] })}>
          Add a window
        </button>
      </fieldset>
      <ErrorNote error={created.error ?? updated.error} />
      <Button type="submit" busy={created.fetching || updated.fetching}>
        {draft.id ? 'Save the type' : 'Create the type'}
      </Button>
    </form>
  );
}

export function AppointmentTypes({ types, onChanged }: { types: AppointmentType[] | undefined; onChanged: () => void }) {
  const [editing, setEditing] = useState<Draft>(NEW_TYPE);
  const [toggled, toggle] = useMutation(UPDATE);
  return (
    <section aria-labelledby="types-title">
      <h2 id="types-title">Appointment types</h2>
      <EmptyNote items={types}>No appointment types yet — create one below.</EmptyNote>
      <ErrorNote error={toggled.error} />
      {types?.length ? (
        <ListTable label="Appointment types" columns={['Name', 'Length', 'Buffer', 'Hours', 'Bookable', '']}>
          {types.map((type) => (
            <tr key={type.id} data-testid="appointment-type-row">
              <td>{type.name}</td>
              <td>{type.duration_minutes} min</td>
              <td>{type.buffer_minutes} min</td>
              <td>{hours(type.availability)}</td>
              <td>{type.active ? 'Yes' : 'No'}</td>
              <td class="actions">
                <button type="button" onClick={() => setEditing(draftOf(type))}>
                  Edit {type.name}
                </button>
                <button type="button" onClick={() => void toggle({ id: type.id, active: !type.active }).then(onChanged)}>
                  {type.active ? 'Deactivate' : 'Activate'} {type.name}
                </button>
              </td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      <TypeForm
        key={editing.id ?? 'new'}
        editing={editing}
        onSaved={() => {
          setEditing(NEW_TYPE);
          onChanged();
        }}
      />
    </section>
  );
}

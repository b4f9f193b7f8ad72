// Settings → Business hours: the workspace's time zone, its weekly opening windows per weekday, and holidays
// (closed all day), saved whole by businessHoursUpdate. Automations read them ("outside business hours", waiting
// time). The API judges the input; its refusal is shown beside the field its `details` path names (`hours.0.end`).
import { useState } from 'preact/hooks';
import { gql, type CombinedError } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, ErrorNote, Page } from '../../ui.js';
import { FieldError, LabelledField } from '../automations/inputs.js';
import { WEEKDAYS } from '../scheduling/appointmentTypes.js';

type Window = { weekday: string; start: string; end: string };
type Holiday = { date: string; name: string | null };
type BusinessHours = { time_zone: string; hours: Window[]; holidays: Holiday[]; open_now: boolean };
type Problems = Record<string, string>;

const HOURS = gql`
  query BusinessHoursPage {
    businessHours { time_zone hours { weekday start end } holidays { date name } open_now }
  }
`;
const UPDATE = gql`
  mutation BusinessHoursPageUpdate($time_zone: String, $hours: [AvailabilityWindowInput!], $holidays: [HolidayInput!]) {
    businessHoursUpdate(time_zone: $time_zone, hours: $hours, holidays: $holidays) {
      time_zone hours { weekday start end } holidays { date name } open_now
    }
  }
`;

/** The refusals a field shows beside itself; any other path is listed above the Save button. */
const SHOWN_BESIDE_FIELDS = /^(time_zone|hours|holidays|hours\.\d+(\.start|\.end)?|holidays\.\d+\.(date|name))$/;

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The API's refusals by path, when it refused the input (400 VALIDATION_ERROR). */
function problemsOf(error: CombinedError | undefined): Problems {
  const first = error?.graphQLErrors[0];
  if (first?.extensions?.['code'] !== 'VALIDATION_ERROR') return {};
  return (first.extensions['details'] as Problems | undefined) ?? {};
}

/** Windows in weekday order, so the index the API names in `hours.N` is the one shown. */
function inWeekOrder(windows: Window[]): Window[] {
  const order = (window: Window) => WEEKDAYS.indexOf(window.weekday as (typeof WEEKDAYS)[number]);
  return [...windows].sort((a, b) => order(a) - order(b));
}

function zones(): string[] {
  return (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
}

function HoursForm({ initial }: { initial: BusinessHours }) {
  const [zone, setZone] = useState(initial.time_zone);
  // Only the input's fields: the query's answers carry __typename, which the mutation's input types refuse.
  const [windows, setWindows] = useState(inWeekOrder(initial.hours.map(({ weekday, start, end }) => ({ weekday, start, end }))));
  const [holidays, setHolidays] = useState<Holiday[]>(initial.holidays.map(({ date, name }) => ({ date, name })));
  const [saving, save] = useMutation<{ businessHoursUpdate: BusinessHours }>(UPDATE);
  const problems = problemsOf(saving.error);
  const openNow = saving.data?.businessHoursUpdate?.open_now ?? initial.open_now;
  const setWindow = (index: number, change: Partial<Window>) =>
    setWindows(windows.map((window, at) => (at === index ? { ...window, ...change } : window)));
  const setHoliday = (index: number, change: Partial<Holiday>) =>
    setHolidays(holidays.map((holiday, at) => (at === index ? { ...holiday, ...change } : holiday)));
  const elsewhere = Object.keys(problems).filter((path) => !SHOWN_BESIDE_FIELDS.test(path));
  return (
    <form
      class="card"
      aria-label="Business hours"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save({
          time_zone: zone,
          hours: windows,
          holidays: holidays.map(({ date, name }) => ({ date, name: name?.trim() ? name.trim() : null })),
        });
      }}
    >
      <p role="status" data-testid="open-now">
        {openNow ? 'Open now.' : 'Closed now.'}
      </p>
      <LabelledField id="time_zone" label="Time zone" hint="An IANA time zone, e.g. Europe/Berlin." error={problems['time_zone']}>
        <input id="time_zone" list="time-zones" value={zone} required onInput={(event) => setZone(event.currentTarget.value)} />
      </LabelledField>
      <datalist id="time-zones">
        {zones().map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <h2>Weekly hours</h2>
      <FieldError id="hours" error={problems['hours']} />
      {WEEKDAYS.map((weekday) => (
        <fieldset key={weekday} data-testid={`hours-${weekday}`}>
          <legend>{capitalized(weekday)}</legend>
          {windows.every((window) => window.weekday !== weekday) ? <p>Closed.</p> : null}
          {windows.map((window, index) =>
            window.weekday === weekday ? (
              <div class="availability-window" key={index}>
                <LabelledField id={`hours.${index}.start`} label={`${capitalized(weekday)} from`} error={problems[`hours.${index}.start`]}>
                  <input
                    id={`hours.${index}.start`}
                    type="time"
                    value={window.start}
                    onInput={(event) => setWindow(index, { start: event.currentTarget.value })}
                  />
                </LabelledField>
                <LabelledField
                  id={`hours.${index}.end`}
                  label={`${capitalized(weekday)} until`}
                  error={problems[`hours.${index}.end`] ?? problems[`hours.${index}`]}
                >
                  <input
                    id={`hours.${index}.end`}
                    type="time"
                    value={window.end === '24:00' ? '23:59' : window.end}
                    onInput={(event) => setWindow(index, { end: event.currentTarget.value })}
                  />
                </LabelledField>
                <button type="button" class="link" onClick={() => setWindows(windows.filter((_, at) => at !== index))}>
                  Remove a {capitalized(weekday)} window
                </button>
              </div>
            ) : null,
          )}
          <button type="button" onClick={() => setWindows(inWeekOrder([...windows, { weekday, start: '09:00', end: '17:00' }]))}>
            Add a {capitalized(weekday)} window
          </button>
        </fieldset>
      ))}
      <h2>Holidays</h2>
      <p class="hint">Closed all day on these dates, in the workspace's time zone.</p>
      <FieldError id="holidays" error={problems['holidays']} />
      {holidays.map((holiday, index) => (
        <div class="availability-window" key={index} data-testid="holiday">
          <LabelledField id={`holidays.${index}.date`} label={`Holiday ${index + 1} date`} error={problems[`holidays.${index}.date`]}>
            <input
              id={`holidays.${index}.date`}
              type="date"
              value={holiday.date}
              onInput={(event) => setHoliday(index, { date: event.currentTarget.value })}
            />
          </LabelledField>
          <LabelledField
            id={`holidays.${index}.name`}
            label={`Holiday ${index + 1} name (optional)`}
            error={problems[`holidays.${index}.name`]}
          >
            <input
              id={`holidays.${index}.name`}
              value={holiday.name ?? ''}
              onInput={(event) => setHoliday(index, { name: event.currentTarget.value })}
            />
          </LabelledField>
          <button type="button" class="link" onClick={() => setHolidays(holidays.filter((_, at) => at !== index))}>
            Remove holiday {index + 1}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => setHolidays([...holidays, { date: '', name: null }])}>
        Add a holiday
      </button>
      {Object.keys(problems).length > 0 ? (
        <div class="error" role="alert">
          <p>The business hours were not saved: see the marked fields.</p>
          {elsewhere.map((path) => (
            <p key={path}>
              {path} {problems[path]}
            </p>
          ))}
        </div>
      ) : (
        <ErrorNote error={saving.error} />
      )}
      <Button type="submit" busy={saving.fetching}>
        Save the business hours
      </Button>
      {saving.data?.businessHoursUpdate && !saving.error ? <p role="status">Saved.</p> : null}
    </form>
  );
}

export function BusinessHoursPage() {
  const [{ data, error }] = useQuery<{ businessHours: BusinessHours }>({ query: HOURS });
  return (
    <Page title="Business hours">
      <ErrorNote error={error} />
      {data ? <HoursForm initial={data.businessHours} /> : null}
    </Page>
  );
}

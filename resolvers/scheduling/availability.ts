// Weekly availability: windows such as {weekday: "monday", start: "09:00", end: "12:30"} read as wall-clock
// times in the workspace's IANA time zone, turned into absolute intervals for given dates. Luxon resolves
// each date's offset, so a window keeps its wall-clock hours across daylight-saving changes; on the day of
// a change the window lasts the real time between its two wall-clock ends (an hour less or more).
import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export type AvailabilityWindow = { weekday: Weekday; start: string; end: string };

export const MINUTE_MS = 60_000;

/** An absolute interval in epoch milliseconds, start inclusive, end exclusive. */
export type Interval = { start: number; end: number };

const MAX_WINDOWS = 50;

function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

const wallClock = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, { message: 'must be a time HH:MM (00:00 to 23:59)' });

const windowSchema = z
  .object({
    weekday: z.enum(WEEKDAYS, { message: `must be one of ${WEEKDAYS.join(', ')}` }),
    start: wallClock,
    end: z.union([wallClock, z.literal('24:00')], { message: 'must be a time HH:MM (00:01 to 24:00)' }),
  })
  // A malformed time is reported on its own field; only well-formed windows are compared.
  .refine((window) => !(minutesOf(window.start) >= minutesOf(window.end)), { message: 'must be after start', path: ['end'] });

export const availabilitySchema = z
  .array(windowSchema)
  .max(MAX_WINDOWS, { message: `must have at most ${MAX_WINDOWS} windows` })
  .superRefine((windows, context) => {
    for (const [index, window] of windows.entries()) {
      const overlapping = windows.findIndex(
        (other, otherIndex) =>
          otherIndex < index &&
          other.weekday === window.weekday &&
          minutesOf(other.start) < minutesOf(window.end) &&
          minutesOf(window.start) < minutesOf(other.end),
      );
      if (overlapping >= 0) context.addIssue({ code: 'custom', message: `overlaps window ${overlapping}`, path: [index] });
    }
  });

export const timeZoneSchema = z
  .string()
  .refine((zone) => IANAZone.isValidZone(zone), { message: 'must be an IANA time zone such as Europe/Lisbon' });

/** The availability intervals that touch [from, to), whole (not clipped), in time order. */
export function availabilityIntervals(windows: readonly AvailabilityWindow[], zone: string, from: Date, to: Date): Interval[] {
  const intervals: Interval[] = [];
  // A window may end at 24:00, so the day before `from` can still reach into the range.
  let day = DateTime.fromJSDate(from, { zone }).startOf('day').minus({ days: 1 });
  const lastDay = DateTime.fromJSDate(to, { zone }).startOf('day');
  while (day <= lastDay) {
    const weekday = WEEKDAYS[day.weekday - 1];
    for (const window of windows) {
      if (window.weekday !== weekday) continue;
      const start = atWallClock(day, window.start).toMillis();
      const end = atWallClock(day, window.end).toMillis();
      if (end > from.getTime() && start < to.getTime()) intervals.push({ start, end });
    }
    day = day.plus({ days: 1 });
  }
  return intervals.sort((a, b) => a.start - b.start);
}

/** The instant a wall-clock time names on a day; a time that a DST gap skips moves forward past the gap. */
function atWallClock(day: DateTime, time: string): DateTime {
  const minutes = minutesOf(time);
  if (minutes === 24 * 60) return day.plus({ days: 1 }).startOf('day');
  return day.set({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
}

/** Whether [start, end) lies entirely inside one availability window. */
export function withinAvailability(windows: readonly AvailabilityWindow[], zone: string, start: Date, end: Date): boolean {
  return availabilityIntervals(windows, zone, start, end).some(
    (interval) => interval.start <= start.getTime() && end.getTime() <= interval.end,
  );
}

/** The wall-clock time of an instant in a zone, as ISO 8601 with the zone's offset then. */
export function localIso(instant: Date | number, zone: string): string {
  const dateTime = typeof instant === 'number' ? DateTime.fromMillis(instant, { zone }) : DateTime.fromJSDate(instant, { zone });
  return dateTime.toISO({ suppressMilliseconds: true }) ?? '';
}

// Business hours as a pure calculation: a workspace's weekly windows (wall-clock times in its IANA time zone, as
// appointment types' availability is read) less its holidays (whole local dates). Answers whether an instant is
// within business hours and how many minutes between two instants fall inside them; the automations' conditions
// and waiting trigger and the reports use these, with no database or clock of their own.
import { DateTime } from 'luxon';
import { availabilityIntervals, MINUTE_MS, WEEKDAYS, type AvailabilityWindow, type Interval } from '../scheduling/availability.js';

export type Holiday = { date: string; name: string | null };

export type BusinessHours = { time_zone: string; hours: AvailabilityWindow[]; holidays: Holiday[] };

/** A workspace whose hours were never set is open around the clock: no rule treats it as closed by surprise. */
export const AROUND_THE_CLOCK: AvailabilityWindow[] = WEEKDAYS.map((weekday) => ({ weekday, start: '00:00', end: '24:00' }));

/** The business-hours intervals that touch [from, to), whole, in time order; a window starting on a holiday is left out. */
export function openIntervals(hours: BusinessHours, from: Date, to: Date): Interval[] {
  const holidays = new Set(hours.holidays.map((holiday) => holiday.date));
  return availabilityIntervals(hours.hours, hours.time_zone, from, to).filter(
    (interval) => !holidays.has(DateTime.fromMillis(interval.start, { zone: hours.time_zone }).toISODate() ?? ''),
  );
}

export function isWithinBusinessHours(hours: BusinessHours, instant: Date): boolean {
  const at = instant.getTime();
  return openIntervals(hours, instant, new Date(at + 1)).some((interval) => interval.start <= at && at < interval.end);
}

/** Minutes (fractional) between two instants that fall within business hours; 0 when `to` is not after `from`. */
export function businessMinutesBetween(hours: BusinessHours, from: Date, to: Date): number {
  if (to.getTime() <= from.getTime()) return 0;
  let total = 0;
  for (const interval of openIntervals(hours, from, to)) {
    total += Math.max(0, Math.min(interval.end, to.getTime()) - Math.max(interval.start, from.getTime()));
  }
  return total / MINUTE_MS;
}

// Dates in the workspace's time zone for the reports page: the instant a local date begins (a report's from and
// to, so its days are the workspace's days) and an instant's local date or hour (the charts' labels). Written here
// with Intl because the console bundles no time zone library and these two conversions are all the page needs.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    const numeric = 'numeric' as const;
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: numeric,
      month: numeric,
      day: numeric,
      hour: numeric,
      minute: numeric,
      second: numeric,
    });
    formats.set(zone, format);
  }
  return format;
}

/** The wall clock of `zone` at the instant `at` (epoch ms), as if that wall clock were UTC. */
function wallClock(at: number, zone: string): number {
  const parts = formatIn(zone).formatToParts(at);
  const value = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)!.value);
  return Date.UTC(value('year'), value('month') - 1, value('day'), value('hour') % 24, value('minute'), value('second'));
}

/** The instant (ISO 8601) the local date `date` (YYYY-MM-DD) begins in `zone`. */
export function startOfLocalDay(date: string, zone: string): string {
  const midnight = Date.parse(`${date}T00:00:00.000Z`);
  // The zone's offset at a first guess, then at the instant it gives: right on either side of a DST change.
  let at = midnight - (wallClock(midnight, zone) - midnight);
  at = midnight - (wallClock(at, zone) - at);
  return new Date(at).toISOString();
}

/** An instant's local date in `zone` (YYYY-MM-DD), with its hour and minute (YYYY-MM-DDTHH:mm) when `withTime`. */
export function localLabel(instant: string, zone: string, withTime: boolean): string {
  return new Date(wallClock(Date.parse(instant), zone)).toISOString().slice(0, withTime ? 16 : 10);
}

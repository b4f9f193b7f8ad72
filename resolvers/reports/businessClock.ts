// Business hours in SQL: a clock that only runs while the workspace is open. Its open intervals are computed
// here (luxon, the workspace's hours and holidays) over every instant a report can meet, merged where they touch,
// with the open seconds before each; PostgreSQL then reads a timestamp's "business seconds since the clock's
// origin" with one binary search (width_bucket) over their starts, so business seconds between two instants are
// B(end) − B(start) at the cost of two lookups a row. A year of weekday hours is about 260 intervals.
import { LRUCache } from 'lru-cache';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Services } from '../shared/context.js';
import { openIntervals } from '../workspace/businessHours.js';
import { businessHoursOf } from '../workspace/businessHoursSettings.js';
import type { Interval } from '../scheduling/availability.js';

/** Open intervals in epoch seconds, in time order, none touching another, and the open seconds before each. */
export type BusinessClock = { starts: number[]; ends: number[]; openBefore: number[] };

function merged(intervals: Interval[]): Interval[] {
  const joined: Interval[] = [];
  for (const interval of intervals) {
    const last = joined.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else joined.push({ ...interval });
  }
  return joined;
}

/** A clock built, the instants it covers, and the hours it was built from. */
type BuiltClock = { clock: BusinessClock; hours: string; origin: number; until: number };

/**
 * The clocks built lately, by workspace. Reports and the day keeper's rounds ask for the same clock again and again
 * (from the workspace's first conversation to now), and building one walks every open interval of that history in
 * luxon: 2.2 s of the 7.5 s that keeping two years of days took, one week a round. A clock is built on to the end of
 * the next day (UTC): intervals after an instant change nothing of its business seconds, so it serves until then any
 * request it covers, with the same hours and holidays.
 */
const builtClocks = new LRUCache<string, BuiltClock>({ max: 200 });

const DAY_MS = 24 * 60 * 60 * 1000;

/** The clock over [from, to), widened back to the workspace's first conversation (a resolution starts when its
 * conversation was created, however long ago) and on to now (a first response may come after `to`). */
export async function businessClock(ctx: Pick<Services, 'prisma'>, workspaceId: string, from: Date, to: Date): Promise<BusinessClock> {
  const [hours, first] = await Promise.all([
    businessHoursOf(ctx.prisma, workspaceId),
    ctx.prisma.conversation.findFirst({ where: { company_id: workspaceId }, orderBy: { created_at: 'asc' }, select: { created_at: true } }),
  ]);
  const origin = Math.min(from.getTime(), first?.created_at.getTime() ?? from.getTime());
  const now = Date.now();
  const end = Math.max(to.getTime(), now);
  const settings = JSON.stringify(hours);
  const cached = builtClocks.get(workspaceId);
  if (cached && cached.hours === settings && cached.origin <= origin && end <= cached.until) return cached.clock;
  const until = Math.max(end, (Math.floor(now / DAY_MS) + 2) * DAY_MS);
  const clock: BusinessClock = { starts: [], ends: [], openBefore: [] };
  let open = 0;
  for (const interval of merged(openIntervals(hours, new Date(origin), new Date(until)))) {
    clock.starts.push(interval.start / 1000);
    clock.ends.push(interval.end / 1000);
    clock.openBefore.push(open);
    open += (interval.end - interval.start) / 1000;
  }
  builtClocks.set(workspaceId, { clock, hours: settings, origin, until });
  return clock;
}

/** SQL: `clock`, one row holding the clock's arrays, for `durations` to read as `k`. */
export function clockTable(clock: BusinessClock): Prisma.Sql {
  return Prisma.sql`clock AS (
    SELECT ${clock.starts}::float8[] AS starts, ${clock.ends}::float8[] AS ends, ${clock.openBefore}::float8[] AS open_before
  )`;
}

/** SQL: open seconds from the clock's origin to `at` (0 before its first interval, null when `at` is null); needs
 * `clock k` in FROM. */
function businessSecondsTo(at: Prisma.Sql): Prisma.Sql {
  const epoch = Prisma.sql`extract(epoch FROM ${at})::float8`;
  const index = Prisma.sql`width_bucket(${epoch}, k.starts)`;
  return Prisma.sql`coalesce(k.open_before[${index}] + least(${epoch}, k.ends[${index}]) - k.starts[${index}],
                            CASE WHEN ${at} IS NOT NULL THEN 0 END)`;
}

/** SQL: two columns, the seconds between two instants in calendar time and within business hours (both null while
 * `end` is null: a clock still running); needs `clock k` in FROM. */
export function durations(start: Prisma.Sql, end: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`extract(epoch FROM ${end} - ${start})::float8, (${businessSecondsTo(end)} - ${businessSecondsTo(start)})`;
}

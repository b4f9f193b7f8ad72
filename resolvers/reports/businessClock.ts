// Business hours in SQL: a clock that only runs while the workspace is open. Its open intervals are computed
// here (luxon, the workspace's hours and holidays) over every instant a report can meet, merged where they touch,
// with the open seconds before each; PostgreSQL then reads a timestamp's "business seconds since the clock's
// origin" with one binary search (width_bucket) over their starts, so business seconds between two instants are
// B(end) − B(start) at the cost of two lookups a row. A year of weekday hours is about 260 intervals.
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

/** The clock over [from, to), widened back to the workspace's first conversation (a resolution starts when its
 * conversation was created, however long ago) and on to now (a first response may come after `to`). */
export async function businessClock(ctx: Pick<Services, 'prisma'>, workspaceId: string, from: Date, to: Date): Promise<BusinessClock> {
  const [hours, first] = await Promise.all([
    businessHoursOf(ctx.prisma, workspaceId),
    ctx.prisma.conversation.findFirst({ where: { company_id: workspaceId }, orderBy: { created_at: 'asc' }, select: { created_at: true } }),
  ]);
  const start = new Date(Math.min(from.getTime(), first?.created_at.getTime() ?? from.getTime()));
  const end = new Date(Math.max(to.getTime(), Date.now()));
  const clock: BusinessClock = { starts: [], ends: [], openBefore: [] };
  let open = 0;
  for (const interval of merged(openIntervals(hours, start, end))) {
    clock.starts.push(interval.start / 1000);
    clock.ends.push(interval.end / 1000);
    clock.openBefore.push(open);
    open += (interval.end - interval.start) / 1000;
  }
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

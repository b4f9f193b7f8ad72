// Kept days: the conversations report's figures per day of the workspace (report_days, migration 0041), so that a
// year by day is merged from 366 rows instead of counted from every conversation and message of the year. A day is
// computed from the same facts the report counts (conversationFacts.ts) and kept until something it counts changes:
// triggers mark the UTC hour of every such change (report_changes), whoever writes it; the next computation of the
// days that hour touches consumes the marks it saw. Days that have ended are computed ahead of the reports, outside
// any request (dayKeeper.ts); a report computes what is still missing or marked, usually only today. Only an
// unfiltered report cut in whole days of the workspace's own time zone reads kept days; any other is counted straight
// from the facts.
import { DateTime } from 'luxon';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Services } from '../shared/context.js';
import { businessClock } from './businessClock.js';
import { conversationFacts, type ConversationFigures } from './conversationFacts.js';
import { isFiltered, type ReportScope } from './scope.js';
import { EMPTY_SKETCH, EXACT_LIMIT, binSql, mergeSketches, percentile, type Sketch } from './sketch.js';

const COUNTS = ['opened', 'reopened', 'messages_in', 'messages_out', 'unanswered'] as const;
const DURATIONS = ['first_response', 'first_response_business', 'resolution', 'resolution_business'] as const;
type Count = (typeof COUNTS)[number];
type Duration = (typeof DURATIONS)[number];

/** What a kept day holds (report_days.figures). */
export type DayFigures = Record<Count, number> & Record<Duration, Sketch>;

const EMPTY_DAY = Object.fromEntries([
  ...COUNTS.map((count) => [count, 0]),
  ...DURATIONS.map((duration) => [duration, EMPTY_SKETCH]),
]) as DayFigures;

/** Days computed by one query at most: a year is filled a month at a time. */
const DAYS_PER_QUERY = 31;
const HOUR = 3_600_000;

function isLocalMidnight(at: Date, zone: string): boolean {
  return DateTime.fromJSDate(at, { zone }).startOf('day').toMillis() === at.getTime();
}

/** Whether the report of `scope` is read from kept days: no filter, whole days of the workspace's own time zone. */
export function readsKeptDays(scope: ReportScope): boolean {
  return (
    !isFiltered(scope) &&
    scope.interval !== 'hour' &&
    scope.timeZone === scope.workspaceTimeZone &&
    isLocalMidnight(scope.from, scope.timeZone) &&
    isLocalMidnight(scope.to, scope.timeZone)
  );
}

/** The local dates (YYYY-MM-DD) from `from`'s up to the last that begins before `to` (the date of `to`'s last
 * millisecond before it). Only the two ends are read in the zone; the dates between are counted on the calendar: the
 * day keeper lists its whole range every round, and luxon per day was a tenth of a catch-up's CPU. A date a zone
 * skipped (Pacific/Apia's 2011-12-30) is listed, with no figures. */
function localDays(from: Date, to: Date, zone: string): string[] {
  const calendarDay = (at: number) => Date.parse(`${DateTime.fromMillis(at, { zone }).toISODate()!}T00:00:00Z`);
  const last = calendarDay(to.getTime() - 1);
  const days: string[] = [];
  for (let day = calendarDay(from.getTime()); day <= last; day += 24 * HOUR) days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}

/** The figures of many days as one: counts added, durations merged. */
export function figuresOfDays(days: DayFigures[]): ConversationFigures {
  const total = (count: Count) => days.reduce((sum, day) => sum + day[count], 0);
  const merged = Object.fromEntries(DURATIONS.map((duration) => [duration, mergeSketches(days.map((day) => day[duration]))])) as Record<
    Duration,
    Sketch
  >;
  return {
    conversations_opened: total('opened'),
    conversations_closed: merged.resolution.n,
    conversations_reopened: total('reopened'),
    messages_in: total('messages_in'),
    messages_out: total('messages_out'),
    first_response_conversations: merged.first_response.n,
    unanswered_conversations: total('unanswered'),
    first_response_median_seconds: percentile(merged.first_response, 0.5),
    first_response_p90_seconds: percentile(merged.first_response, 0.9),
    first_response_business_median_seconds: percentile(merged.first_response_business, 0.5),
    first_response_business_p90_seconds: percentile(merged.first_response_business, 0.9),
    resolution_conversations: merged.resolution.n,
    resolution_median_seconds: percentile(merged.resolution, 0.5),
    resolution_p90_seconds: percentile(merged.resolution, 0.9),
    resolution_business_median_seconds: percentile(merged.resolution_business, 0.5),
    resolution_business_p90_seconds: percentile(merged.resolution_business, 0.9),
  };
}

export type Database = Pick<Services, 'prisma'>;

type FigureRow = {
  day: string;
  figure: Count | Duration;
  n: number;
  values: number[] | null;
  bins: number[] | null;
  counts: number[] | null;
};

/** The figures of the days of [from, to) (local midnights), counted from the facts, with a sketch of each duration. */
async function computeDays(ctx: Database, scope: ReportScope, from: Date, to: Date): Promise<Map<string, DayFigures>> {
  const dayScope: ReportScope = { ...scope, from, to, interval: 'day' };
  const clock = await businessClock(ctx, scope.workspaceId, from, to);
  const dayOf = (bucket: Prisma.Sql) => Prisma.sql`to_char(${bucket} AT TIME ZONE ${scope.timeZone}, 'YYYY-MM-DD')`;
  const rows = await ctx.prisma.$queryRaw<FigureRow[]>`
    WITH ${conversationFacts(dayScope, clock)},
    measured AS (
      SELECT f.bucket, CASE f.kind WHEN 'closed' THEN 'resolution' ELSE f.kind END || m.suffix AS figure, m.seconds
      FROM facts f CROSS JOIN LATERAL (VALUES ('', f.seconds), ('_business', f.business_seconds)) AS m(suffix, seconds)
      WHERE f.kind IN ('closed', 'first_response') AND f.seconds IS NOT NULL
    ),
    sketched AS (
      SELECT bucket, figure, count(*)::int AS n,
             CASE WHEN count(*) <= ${EXACT_LIMIT} THEN array_agg(seconds ORDER BY seconds) END AS values
      FROM measured GROUP BY 1, 2
    ),
    binned AS (
      SELECT bucket, figure, array_agg(bin ORDER BY bin) AS bins, array_agg(n ORDER BY bin) AS counts
      FROM (SELECT m.bucket, m.figure, ${binSql(Prisma.sql`m.seconds`)} AS bin, count(*)::int AS n
            FROM measured m JOIN sketched s ON s.bucket = m.bucket AND s.figure = m.figure
            WHERE s.values IS NULL GROUP BY 1, 2, 3) b
      GROUP BY 1, 2
    )
    SELECT ${dayOf(Prisma.sql`s.bucket`)} AS day, s.figure, s.n, s.values, b.bins, b.counts
    FROM sketched s LEFT JOIN binned b ON b.bucket = s.bucket AND b.figure = s.figure
    UNION ALL
    SELECT ${dayOf(Prisma.sql`bucket`)},
           CASE kind WHEN 'message_in' THEN 'messages_in' WHEN 'message_out' THEN 'messages_out'
                     WHEN 'first_response' THEN 'unanswered' ELSE kind END,
           sum(n)::int, NULL, NULL, NULL
    FROM facts
    WHERE kind IN ('opened', 'reopened', 'message_in', 'message_out') OR (kind = 'first_response' AND seconds IS NULL)
    GROUP BY 1, 2`;
  const days = new Map(localDays(from, to, scope.timeZone).map((day) => [day, { ...EMPTY_DAY }]));
  for (const row of rows) {
    const day = days.get(row.day);
    if (!day) continue;
    if ((COUNTS as readonly string[]).includes(row.figure)) day[row.figure as Count] = row.n;
    else day[row.figure as Duration] = row.values ? { n: row.n, values: row.values } : { n: row.n, bins: row.bins!, counts: row.counts! };
  }
  return days;
}

type Mark = { hour: Date; backend: number; version: number };
type MarkJson = Omit<Mark, 'hour'> & { hour: string };

/** SQL aggregate: the marks `r` as a JSON array (MarkJson). */
const MARKS_JSON = Prisma.sql`json_agg(json_build_object('hour', r.hour, 'backend', r.backend, 'version', r.version))`;

/** The local days an hour touches: one, or two in a zone whose days start on the half hour. */
function daysOfHour(hour: Date, zone: string): string[] {
  return [...new Set([hour.getTime(), hour.getTime() + HOUR - 1].map((at) => DateTime.fromMillis(at, { zone }).toISODate()!))];
}

const marksOf = (json: MarkJson[] | null): Mark[] => (json ?? []).map((mark) => ({ ...mark, hour: new Date(mark.hour) }));

/** What a computation of days reads first: the marks of hours that overlap the scope's range, the instant they were
 * read at, and the workspace's business hours then (as JSON text; kept days are computed with them). */
type Reading = { asOf: string; marks: Mark[]; businessHours: string | null };

async function readMarks(ctx: Database, scope: ReportScope): Promise<Reading> {
  const [read] = await ctx.prisma.$queryRaw<{ as_of: string; marks: MarkJson[] | null; business_hours: string | null }[]>`
    SELECT statement_timestamp()::text AS as_of, w.business_hours::text AS business_hours,
           (SELECT ${MARKS_JSON} FROM report_changes r
            WHERE r.company_id = w.id AND r.hour > ${new Date(scope.from.getTime() - HOUR)} AND r.hour < ${scope.to}) AS marks
    FROM workspaces w WHERE w.id = ${scope.workspaceId}::uuid`;
  return { asOf: read!.as_of, marks: marksOf(read!.marks), businessHours: read!.business_hours };
}

/** Keeps days as computed at `asOf`, unless a computation from a later snapshot kept them first, and only while the
 * workspace still has the business hours read before computing them (`computedWith`) and `zone`: its row is read FOR
 * SHARE, so a change of either waits for this statement (its trigger then drops what was kept) or, made first, leaves
 * nothing kept from the hours it replaced. */
async function keep(
  ctx: Database,
  workspaceId: string,
  zone: string,
  asOf: string,
  days: Map<string, DayFigures>,
  computedWith: { businessHours: string | null },
): Promise<void> {
  await ctx.prisma.$executeRaw`
    INSERT INTO report_days (company_id, day, time_zone, figures, computed_at)
    SELECT ${workspaceId}::uuid, d.day, ${zone}, d.figures::jsonb, ${asOf}::timestamptz
    FROM unnest(${[...days.keys()]}::date[], ${[...days.values()].map((day) => JSON.stringify(day))}::text[]) AS d(day, figures)
    WHERE EXISTS (SELECT FROM workspaces w WHERE w.id = ${workspaceId}::uuid AND w.time_zone = ${zone}
      AND w.business_hours IS NOT DISTINCT FROM ${computedWith.businessHours}::jsonb FOR SHARE)
    ON CONFLICT (company_id, day) DO UPDATE
      SET time_zone = EXCLUDED.time_zone, figures = EXCLUDED.figures, computed_at = EXCLUDED.computed_at
      WHERE report_days.computed_at <= EXCLUDED.computed_at`;
}

/** Removes the marks the days were computed after, unless marked again since (a new version) or being marked now
 * (locked by a writer still in its transaction): those stay for the next computation. */
async function consume(ctx: Database, workspaceId: string, marks: Mark[]): Promise<void> {
  if (marks.length === 0) return;
  await ctx.prisma.$executeRaw`
    DELETE FROM report_changes r USING (
      SELECT c.hour, c.backend FROM report_changes c
      JOIN unnest(${marks.map((mark) => mark.hour)}::timestamptz[], ${marks.map((mark) => mark.backend)}::int[],
                  ${marks.map((mark) => mark.version)}::int[]) AS u(hour, backend, version)
        ON c.hour = u.hour AND c.backend = u.backend AND c.version = u.version
      WHERE c.company_id = ${workspaceId}::uuid
      FOR UPDATE OF c SKIP LOCKED) consumed
    WHERE r.company_id = ${workspaceId}::uuid AND r.hour = consumed.hour AND r.backend = consumed.backend`;
}

/** What one refresh computes: runs of consecutive days of at most `daysPerQuery`, each one query, and at most
 * `queries` of them (a refresh that stops there leaves the rest for the next); `figures`: whether the kept days'
 * figures are read too, for an answer, or only which days are kept. */
type Refresh = { daysPerQuery: number; queries: number; figures: boolean };

/** The figures of the days of the scope's range that are kept and unchanged, or computed now (within `refresh`; their
 * figures are null when not read), and whether days were left to compute. */
async function refreshDays(
  ctx: Database,
  scope: ReportScope,
  refresh: Refresh,
): Promise<{ days: Map<string, DayFigures | null>; more: boolean }> {
  const zone = scope.timeZone;
  const rangeDays = localDays(scope.from, scope.to, zone);
  const reading = await readMarks(ctx, scope);
  const { asOf, marks } = reading;
  const kept = await ctx.prisma.$queryRaw<{ day: string; figures: DayFigures | null }[]>`
    SELECT day::text AS day, ${refresh.figures ? Prisma.sql`figures` : Prisma.sql`NULL::jsonb`} AS figures FROM report_days
    WHERE company_id = ${scope.workspaceId}::uuid AND time_zone = ${zone}
      AND day >= ${rangeDays[0]}::date AND day <= ${rangeDays.at(-1)}::date`;
  const days = new Map(kept.map((row) => [row.day, row.figures]));
  for (const mark of marks) for (const day of daysOfHour(mark.hour, zone)) days.delete(day);
  // Runs of consecutive days to compute, each one query.
  const runs: string[][] = [];
  rangeDays.forEach((day, index) => {
    if (days.has(day)) return;
    const run = runs.at(-1);
    if (run && run.at(-1) === rangeDays[index - 1] && run.length < refresh.daysPerQuery) run.push(day);
    else runs.push([day]);
  });
  const computedDays = new Set<string>();
  for (const run of runs.slice(0, refresh.queries)) {
    const from = DateTime.fromISO(run[0]!, { zone }).toJSDate();
    const to = DateTime.fromISO(run.at(-1)!, { zone }).plus({ days: 1 }).toJSDate();
    const computed = await computeDays(ctx, scope, from, to);
    await keep(ctx, scope.workspaceId, zone, asOf, computed, reading);
    for (const [day, figures] of computed) {
      days.set(day, figures);
      computedDays.add(day);
    }
  }
  // A mark is consumed once every day it dates has been computed after it was read: a mark whose hour reaches past
  // the range (a zone whose days start on the half hour), or whose second day was left for the next refresh, stays.
  await consume(
    ctx,
    scope.workspaceId,
    marks.filter((mark) => daysOfHour(mark.hour, zone).every((day) => computedDays.has(day))),
  );
  return { days, more: runs.length > refresh.queries };
}

/** One refresh of a workspace's days at a time in this process: reports asked together (a dashboard's first load)
 * wait for the first to compute and find the days kept, rather than each computing the same year; so do a report and
 * the day keeper. */
const refreshing = new Map<string, Promise<unknown>>();

function refreshAlone<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
  const before = refreshing.get(workspaceId) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  refreshing.set(workspaceId, mine);
  return mine.finally(() => {
    if (refreshing.get(workspaceId) === mine) refreshing.delete(workspaceId);
  });
}

/** The figures of each day of the scope's range (local date → figures), for a scope that readsKeptDays, computing
 * those missing or changed since. */
export async function keptDays(ctx: Database, scope: ReportScope): Promise<Map<string, DayFigures>> {
  const { days } = await refreshAlone(scope.workspaceId, () =>
    refreshDays(ctx, scope, { daysPerQuery: DAYS_PER_QUERY, queries: Infinity, figures: true }),
  );
  return days as Map<string, DayFigures>;
}

/** Computes the first run of days of the scope's range that are missing or changed since, `daysPerQuery` at most;
 * resolves true when more are left. */
export async function computeStaleDays(ctx: Database, scope: ReportScope, daysPerQuery: number): Promise<boolean> {
  const { more } = await refreshAlone(scope.workspaceId, () => refreshDays(ctx, scope, { daysPerQuery, queries: 1, figures: false }));
  return more;
}

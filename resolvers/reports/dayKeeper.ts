// The day keeper: computes the conversations report's days ahead of the reports that read them (dailyFigures.ts).
// Every day of a workspace that has ended, in its own time zone, from its first conversation (or its oldest mark) to
// yesterday, is computed here, outside any request, and again once a change marks it; a report then computes only
// what changed since the last round, usually today alone. The first year of a workspace of ten million contacts took
// 103 s to compute, far past a request's deadline. A round computes one week for each workspace with work, so that a
// large workspace's history does not hold the others (or a shutdown) for minutes. Today is left to the reports: it
// changes all day.
import { DateTime } from 'luxon';
import { computeStaleDays, type Database } from './dailyFigures.js';
import type { ReportScope } from './scope.js';

/** Days computed by one query of the keeper: a week of the largest workspaces is a few seconds. */
const DAYS_PER_QUERY = 7;

type WorkspaceWithWork = { id: string; time_zone: string; since: Date; today: Date };

/**
 * Up to `limit` workspaces with an ended day to compute: a mark on an hour that ended before their today began, or a
 * conversation before today while yesterday is not kept (the first round after a day ends, after the workspace's
 * first day, or after its time zone or business hours changed). `since` is the earliest instant with anything to keep;
 * `today` the start of their local today.
 */
function workspacesWithWork(db: Database, limit: number): Promise<WorkspaceWithWork[]> {
  return db.prisma.$queryRaw<WorkspaceWithWork[]>`
    SELECT w.id::text AS id, w.time_zone, least(first.at, mark.at) AS since, t.today
    FROM workspaces w
    CROSS JOIN LATERAL (SELECT date_trunc('day', now() AT TIME ZONE w.time_zone) AT TIME ZONE w.time_zone AS today) t
    CROSS JOIN LATERAL (SELECT min(c.created_at) AS at FROM conversations c WHERE c.company_id = w.id) first
    CROSS JOIN LATERAL (SELECT min(r.hour) AS at FROM report_changes r WHERE r.company_id = w.id) mark
    WHERE EXISTS (SELECT FROM report_changes r WHERE r.company_id = w.id AND r.hour + interval '1 hour' <= t.today)
       OR (first.at < t.today AND NOT EXISTS (
             SELECT FROM report_days d
             WHERE d.company_id = w.id AND d.day = (t.today AT TIME ZONE w.time_zone)::date - 1 AND d.time_zone = w.time_zone))
    ORDER BY random()
    LIMIT ${limit}`;
}

/** The report scope of a workspace's whole days [from, to) in its own zone, as a report without filters asks. */
function daysScope(workspace: WorkspaceWithWork, from: Date, to: Date): ReportScope {
  const zone = workspace.time_zone;
  return {
    workspaceId: workspace.id,
    from,
    to,
    interval: 'day',
    timeZone: zone,
    workspaceTimeZone: zone,
    assigneeUserId: null,
    teamId: null,
    tagId: null,
    channel: null,
  };
}

/** One round: a week of ended days computed for each of up to `workspaces` workspaces with work. Resolves true when
 * work is known to remain (the next round should follow at once). */
export async function keepEndedDays(db: Database, workspaces: number): Promise<boolean> {
  const found = await workspacesWithWork(db, workspaces);
  let more = found.length === workspaces;
  for (const workspace of found) {
    const from = DateTime.fromJSDate(workspace.since, { zone: workspace.time_zone }).startOf('day').toJSDate();
    if (await computeStaleDays(db, daysScope(workspace, from, workspace.today), DAYS_PER_QUERY)) more = true;
  }
  return more;
}

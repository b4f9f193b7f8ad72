// What every report is asked for: a range [from, to) read in a time zone (the workspace's unless given), an
// interval for its series, and filters that narrow the conversations counted (assignee, team, contact tag,
// channel).
// Also the conversations those filters leave, as one SQL fragment every report query starts from.
import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { invalid } from '../shared/errors.js';
import { instant, parseInput, uuid } from '../shared/validation.js';
import { durations } from './businessClock.js';

export const REPORT_INTERVALS = ['hour', 'day', 'week'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/** The longest range per interval: a year by day or week, a month by hour (at most 744 points in a series). */
const MAX_DAYS: Record<ReportInterval, number> = { hour: 31, day: 366, week: 366 };

const reportInput = z
  .object({
    from: instant,
    to: instant,
    interval: z.enum(REPORT_INTERVALS, { message: 'must be hour, day or week' }).nullish(),
    time_zone: z
      .string()
      .refine((zone) => IANAZone.isValidZone(zone), { message: 'must be an IANA time zone such as Europe/Lisbon' })
      .nullish(),
    assignee_user_id: uuid.nullish(),
    team_id: uuid.nullish(),
    tag_id: uuid.nullish(),
    channel: z.string().trim().min(1, { message: 'must not be empty' }).max(50, { message: 'must be at most 50 characters' }).nullish(),
  })
  .refine((input) => input.to > input.from, { message: 'must be after from', path: ['to'] })
  .refine((input) => input.to.getTime() - input.from.getTime() <= MAX_DAYS[input.interval ?? 'day'] * 86_400_000, {
    message: 'is too far after from: at most 366 days (31 days by hour)',
    path: ['to'],
  });

export type ReportInput = z.input<typeof reportInput>;

export type ReportScope = {
  workspaceId: string;
  from: Date;
  to: Date;
  interval: ReportInterval;
  timeZone: string;
  /** The workspace's own time zone, in which its kept days are cut (dailyFigures.ts). */
  workspaceTimeZone: string;
  assigneeUserId: string | null;
  teamId: string | null;
  tagId: string | null;
  channel: string | null;
};

export async function reportScope(ctx: Context, input: ReportInput): Promise<ReportScope> {
  const { workspaceId } = requireActor(ctx);
  const parsed = parseInput(reportInput, input);
  const teamId = parsed.team_id ?? null;
  const assigneeUserId = parsed.assignee_user_id ?? null;
  const tagId = parsed.tag_id ?? null;
  const inWorkspace = { company_id: workspaceId };
  const [workspace, team, assignee, tag] = await Promise.all([
    ctx.prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { time_zone: true } }),
    teamId ? ctx.prisma.team.findFirst({ where: { id: teamId, ...inWorkspace }, select: { id: true } }) : null,
    assigneeUserId ? ctx.prisma.user.findFirst({ where: { id: assigneeUserId, ...inWorkspace }, select: { id: true } }) : null,
    tagId ? ctx.prisma.tag.findFirst({ where: { id: tagId, ...inWorkspace }, select: { id: true } }) : null,
  ]);
  // A filter is a choice from the workspace's teams, people or tags: an unknown or foreign one is a wrong request, not
  // an empty report (as an assignment to another workspace's user is refused).
  const wrong: Record<string, string> = {};
  if (teamId && !team) wrong['team_id'] = 'must be the id of a team of this workspace';
  if (assigneeUserId && !assignee) wrong['assignee_user_id'] = 'must be the id of a person of this workspace';
  if (tagId && !tag) wrong['tag_id'] = 'must be the id of a tag of this workspace';
  if (Object.keys(wrong).length > 0) throw invalid(wrong);
  return {
    workspaceId,
    from: parsed.from,
    to: parsed.to,
    interval: parsed.interval ?? 'day',
    timeZone: parsed.time_zone ?? workspace.time_zone,
    workspaceTimeZone: workspace.time_zone,
    assigneeUserId,
    teamId,
    tagId,
    channel: parsed.channel ?? null,
  };
}

/** The same scope over the period of equal length just before it (the "change from the previous period"). */
export function previousPeriod(scope: ReportScope): ReportScope {
  const length = scope.to.getTime() - scope.from.getTime();
  return { ...scope, from: new Date(scope.from.getTime() - length), to: scope.from };
}

/** The starts of the series' buckets, in the report's time zone (weeks start on Monday, as date_trunc's). */
export function bucketStarts(scope: ReportScope): Date[] {
  const starts: Date[] = [];
  let start = DateTime.fromJSDate(scope.from, { zone: scope.timeZone }).startOf(scope.interval);
  while (start.toMillis() < scope.to.getTime()) {
    starts.push(start.toJSDate());
    start = start.plus({ [scope.interval]: 1 });
  }
  return starts;
}

/** SQL: the start (timestamptz) of the bucket that holds `at`, in the scope's time zone and interval. */
export function bucketOf(scope: ReportScope, at: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(date_trunc(${scope.interval}, ${at} AT TIME ZONE ${scope.timeZone}) AT TIME ZONE ${scope.timeZone})`;
}

/** SQL: whether the user `userId` (a uuid column) is a member of the scope's team now; true without a team filter. */
export function inScopeTeam(scope: ReportScope, userId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${scope.teamId}::uuid IS NULL OR EXISTS (
    SELECT 1 FROM team_members tm WHERE tm.team_id = ${scope.teamId}::uuid AND tm.user_id = ${userId}))`;
}

/** SQL: `scoped`, the workspace's conversations that the filters leave (id, assignee, times, first response). Not
 * materialized: each use is planned with its own conditions, so a fact reads the conversations of its range by index
 * rather than every conversation of the workspace. */
export function scopedConversations(scope: ReportScope): Prisma.Sql {
  return Prisma.sql`scoped AS NOT MATERIALIZED (
    SELECT c.id, c.assigned_user_id, c.status, c.created_at, c.closed_at,
           c.first_inbound_at, c.first_response_at, c.first_responder_type, c.first_responder_id
    FROM conversations c
    WHERE c.company_id = ${scope.workspaceId}::uuid
      AND (${scope.assigneeUserId}::uuid IS NULL OR c.assigned_user_id = ${scope.assigneeUserId}::uuid)
      AND ${inScopeTeam(scope, Prisma.sql`c.assigned_user_id`)}
      AND (${scope.channel}::text IS NULL OR c.provider = ${scope.channel}::text)
      AND (${scope.tagId}::uuid IS NULL OR EXISTS (
        SELECT 1 FROM customer_tags ct WHERE ct.customer_id = c.customer_id AND ct.tag_id = ${scope.tagId}::uuid))
  )`;
}

/** Whether a filter narrows the scope's conversations. */
export function isFiltered(scope: ReportScope): boolean {
  return Boolean(scope.assigneeUserId || scope.teamId || scope.tagId || scope.channel);
}

/** SQL: whether the conversation `conversationId` is one of `scoped`; without filters, every conversation of the
 * workspace is, and a row's own workspace condition says so without a join. */
export function inScopedConversation(scope: ReportScope, conversationId: Prisma.Sql): Prisma.Sql {
  return isFiltered(scope) ? Prisma.sql`EXISTS (SELECT 1 FROM scoped s WHERE s.id = ${conversationId})` : Prisma.sql`TRUE`;
}

/** SQL: first responses — each scoped conversation whose first inbound message ever is in the range, with its first
 * response as kept on the conversation (migration 0040: the first outbound message after it that is not a
 * campaign's), who wrote it, and the seconds between, in calendar time and in business hours (null while
 * unanswered); needs the `clock` (businessClock.ts) defined before it. */
export function firstResponses(scope: ReportScope): Prisma.Sql {
  return Prisma.sql`first_responses (conversation_id, started_at, sender_type, sender_id, seconds, business_seconds) AS (
    SELECT s.id, s.first_inbound_at, s.first_responder_type, s.first_responder_id,
           ${durations(Prisma.sql`s.first_inbound_at`, Prisma.sql`s.first_response_at`)}
    FROM scoped s CROSS JOIN clock k
    WHERE s.first_inbound_at >= ${scope.from} AND s.first_inbound_at < ${scope.to}
  )`;
}

/** SQL aggregates: median and p90 (continuous percentiles, seconds to 3 decimals) of `seconds` where `condition`. */
export function percentiles(seconds: Prisma.Sql, condition: Prisma.Sql, name: string): Prisma.Sql {
  const median = Prisma.raw(`${name}_median_seconds`);
  const p90 = Prisma.raw(`${name}_p90_seconds`);
  return Prisma.sql`
    round((percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds}) FILTER (WHERE ${condition}))::numeric, 3)::float8 AS ${median},
    round((percentile_cont(0.9) WITHIN GROUP (ORDER BY ${seconds}) FILTER (WHERE ${condition}))::numeric, 3)::float8 AS ${p90}`;
}

export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

// The conversations report: opened, closed, reopened, messages in and out, first response and resolution
// times (median, p90, and the conversations they came from; in calendar time and in business hours), for the
// range, for the previous period of equal length, and as a series by interval. Each fact is one dated row
// ("facts" below), bucketed and counted by PostgreSQL; definitions in docs/reports.md.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { businessClock, businessSeconds, clockTable, type BusinessClock } from './businessClock.js';
import {
  bucketOf,
  bucketStarts,
  firstResponses,
  percentiles,
  previousPeriod,
  reportScope,
  scopedConversations,
  type ReportInput,
  type ReportScope,
} from './scope.js';

export type ConversationFigures = {
  conversations_opened: number;
  conversations_closed: number;
  conversations_reopened: number;
  messages_in: number;
  messages_out: number;
  first_response_conversations: number;
  unanswered_conversations: number;
  first_response_median_seconds: number | null;
  first_response_p90_seconds: number | null;
  first_response_business_median_seconds: number | null;
  first_response_business_p90_seconds: number | null;
  resolution_conversations: number;
  resolution_median_seconds: number | null;
  resolution_p90_seconds: number | null;
  resolution_business_median_seconds: number | null;
  resolution_business_p90_seconds: number | null;
};

export type ConversationsReport = {
  from: Date;
  to: Date;
  interval: string;
  time_zone: string;
  totals: ConversationFigures;
  previous: ConversationFigures;
  series: (ConversationFigures & { start: Date })[];
};

type FigureRow = ConversationFigures & { bucket: Date | null };

const EMPTY: ConversationFigures = {
  conversations_opened: 0,
  conversations_closed: 0,
  conversations_reopened: 0,
  messages_in: 0,
  messages_out: 0,
  first_response_conversations: 0,
  unanswered_conversations: 0,
  first_response_median_seconds: null,
  first_response_p90_seconds: null,
  first_response_business_median_seconds: null,
  first_response_business_p90_seconds: null,
  resolution_conversations: 0,
  resolution_median_seconds: null,
  resolution_p90_seconds: null,
  resolution_business_median_seconds: null,
  resolution_business_p90_seconds: null,
};

function figures(row: FigureRow | undefined): ConversationFigures {
  if (!row) return EMPTY;
  const { bucket: _bucket, ...rest } = row;
  return rest;
}

/** One row per bucket and one (bucket null) for the whole range. A fact's `seconds` is its calendar time and
 * `business_seconds` the part of it within business hours. */
async function figureRows(ctx: Context, scope: ReportScope, clock: BusinessClock): Promise<FigureRow[]> {
  const range = (at: Prisma.Sql) => Prisma.sql`${at} >= ${scope.from} AND ${at} < ${scope.to}`;
  return ctx.prisma.$queryRaw<FigureRow[]>`
    WITH ${scopedConversations(scope)},
    ${clockTable(clock)},
    ${firstResponses(scope)},
    facts AS (
      SELECT 'opened' AS kind, s.created_at AS at, NULL::float8 AS seconds, NULL::float8 AS business_seconds
      FROM scoped s WHERE ${range(Prisma.sql`s.created_at`)}
      UNION ALL
      SELECT 'closed', s.closed_at, extract(epoch FROM s.closed_at - s.created_at)::float8,
             ${businessSeconds(Prisma.sql`s.created_at`, Prisma.sql`s.closed_at`)}
      FROM scoped s CROSS JOIN clock k WHERE ${range(Prisma.sql`s.closed_at`)}
      UNION ALL
      SELECT 'reopened', sc.created_at, NULL, NULL FROM conversation_status_changes sc JOIN scoped s ON s.id = sc.conversation_id
      WHERE sc.company_id = ${scope.workspaceId}::uuid AND sc.to_status <> 'closed' AND ${range(Prisma.sql`sc.created_at`)}
      UNION ALL
      SELECT CASE WHEN m.direction = 'inbound' THEN 'message_in' ELSE 'message_out' END, m.created_at, NULL, NULL
      FROM messages m JOIN scoped s ON s.id = m.conversation_id
      WHERE m.company_id = ${scope.workspaceId}::uuid AND ${range(Prisma.sql`m.created_at`)}
      UNION ALL
      SELECT 'first_response', f.started_at, f.seconds, f.business_seconds FROM first_responses f
    ),
    bucketed AS (SELECT ${bucketOf(scope, Prisma.sql`at`)} AS bucket, kind, seconds, business_seconds FROM facts)
    SELECT bucket,
           count(*) FILTER (WHERE kind = 'opened')::int AS conversations_opened,
           count(*) FILTER (WHERE kind = 'closed')::int AS conversations_closed,
           count(*) FILTER (WHERE kind = 'reopened')::int AS conversations_reopened,
           count(*) FILTER (WHERE kind = 'message_in')::int AS messages_in,
           count(*) FILTER (WHERE kind = 'message_out')::int AS messages_out,
           count(seconds) FILTER (WHERE kind = 'first_response')::int AS first_response_conversations,
           count(*) FILTER (WHERE kind = 'first_response' AND seconds IS NULL)::int AS unanswered_conversations,
           ${percentiles(Prisma.sql`seconds`, Prisma.sql`kind = 'first_response'`, 'first_response')},
           ${percentiles(Prisma.sql`business_seconds`, Prisma.sql`kind = 'first_response'`, 'first_response_business')},
           count(*) FILTER (WHERE kind = 'closed')::int AS resolution_conversations,
           ${percentiles(Prisma.sql`seconds`, Prisma.sql`kind = 'closed'`, 'resolution')},
           ${percentiles(Prisma.sql`business_seconds`, Prisma.sql`kind = 'closed'`, 'resolution_business')}
    FROM bucketed
    GROUP BY GROUPING SETS ((bucket), ())`;
}

export async function conversationsReport(ctx: Context, input: ReportInput): Promise<ConversationsReport> {
  const scope = await reportScope(ctx, input);
  const previous = previousPeriod(scope);
  // One clock for both periods: it spans every instant either can meet.
  const clock = await businessClock(ctx, scope.workspaceId, previous.from, scope.to);
  const [rows, previousRows] = await Promise.all([figureRows(ctx, scope, clock), figureRows(ctx, previous, clock)]);
  const byBucket = new Map(rows.filter((row) => row.bucket).map((row) => [row.bucket!.getTime(), row]));
  return {
    from: scope.from,
    to: scope.to,
    interval: scope.interval,
    time_zone: scope.timeZone,
    totals: figures(rows.find((row) => row.bucket === null)),
    previous: figures(previousRows.find((row) => row.bucket === null)),
    series: bucketStarts(scope).map((start) => ({ start, ...figures(byBucket.get(start.getTime())) })),
  };
}

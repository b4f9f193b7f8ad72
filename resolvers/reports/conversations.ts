// The conversations report: opened, closed, reopened, messages in and out, first response and resolution
// times (median, p90, and the conversations they came from; in calendar time and in business hours), for the
// range, for the previous period of equal length, and as a series by interval. Each fact is one dated row
// ("facts" below), bucketed and counted by PostgreSQL; definitions in docs/reports.md.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { businessClock, clockTable, durations, type BusinessClock } from './businessClock.js';
import {
  bucketOf,
  bucketStarts,
  firstResponses,
  inScopedConversation,
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

/** One row per bucket and one (bucket null) for the whole range. A fact is `n` events of a kind in a bucket: the
 * counted kinds come counted per bucket (the year's messages are not sorted one by one), the timed kinds (closed,
 * first response) one row each, with `seconds` its calendar time and `business_seconds` the part of it within
 * business hours. */
async function figureRows(ctx: Context, scope: ReportScope, clock: BusinessClock): Promise<FigureRow[]> {
  const range = (at: Prisma.Sql) => Prisma.sql`${at} >= ${scope.from} AND ${at} < ${scope.to}`;
  const bucket = (at: Prisma.Sql) => bucketOf(scope, at);
  return ctx.prisma.$queryRaw<FigureRow[]>`
    WITH ${scopedConversations(scope)},
    ${clockTable(clock)},
    ${firstResponses(scope)},
    facts AS (
      SELECT 'opened' AS kind, ${bucket(Prisma.sql`s.created_at`)} AS bucket, count(*) AS n,
             NULL::float8 AS seconds, NULL::float8 AS business_seconds
      FROM scoped s WHERE ${range(Prisma.sql`s.created_at`)} GROUP BY 2
      UNION ALL
      SELECT 'closed', ${bucket(Prisma.sql`s.closed_at`)}, 1, ${durations(Prisma.sql`s.created_at`, Prisma.sql`s.closed_at`)}
      FROM scoped s CROSS JOIN clock k WHERE ${range(Prisma.sql`s.closed_at`)}
      UNION ALL
      SELECT 'reopened', ${bucket(Prisma.sql`sc.created_at`)}, count(*), NULL, NULL
      FROM conversation_status_changes sc
      WHERE sc.company_id = ${scope.workspaceId}::uuid AND sc.to_status <> 'closed' AND ${range(Prisma.sql`sc.created_at`)}
        AND ${inScopedConversation(scope, Prisma.sql`sc.conversation_id`)}
      GROUP BY 2
      UNION ALL
      SELECT CASE WHEN m.direction = 'inbound' THEN 'message_in' ELSE 'message_out' END, ${bucket(Prisma.sql`m.created_at`)},
             count(*), NULL, NULL
      FROM messages m
      WHERE m.company_id = ${scope.workspaceId}::uuid AND ${range(Prisma.sql`m.created_at`)} AND ${inScopedConversation(scope, Prisma.sql`m.conversation_id`)}
      GROUP BY 1, 2
      UNION ALL
      SELECT 'first_response', ${bucket(Prisma.sql`f.started_at`)}, 1, f.seconds, f.business_seconds FROM first_responses f
    )
    SELECT bucket,
           coalesce(sum(n) FILTER (WHERE kind = 'opened'), 0)::int AS conversations_opened,
           coalesce(sum(n) FILTER (WHERE kind = 'closed'), 0)::int AS conversations_closed,
           coalesce(sum(n) FILTER (WHERE kind = 'reopened'), 0)::int AS conversations_reopened,
           coalesce(sum(n) FILTER (WHERE kind = 'message_in'), 0)::int AS messages_in,
           coalesce(sum(n) FILTER (WHERE kind = 'message_out'), 0)::int AS messages_out,
           count(seconds) FILTER (WHERE kind = 'first_response')::int AS first_response_conversations,
           count(*) FILTER (WHERE kind = 'first_response' AND seconds IS NULL)::int AS unanswered_conversations,
           ${percentiles(Prisma.sql`seconds`, Prisma.sql`kind = 'first_response'`, 'first_response')},
           ${percentiles(Prisma.sql`business_seconds`, Prisma.sql`kind = 'first_response'`, 'first_response_business')},
           count(*) FILTER (WHERE kind = 'closed')::int AS resolution_conversations,
           ${percentiles(Prisma.sql`seconds`, Prisma.sql`kind = 'closed'`, 'resolution')},
           ${percentiles(Prisma.sql`business_seconds`, Prisma.sql`kind = 'closed'`, 'resolution_business')}
    FROM facts
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

// The conversations report: opened, closed, reopened, messages in and out, first response and resolution
// times (median, p90, and the conversations they came from; in calendar time and in business hours), for the
// range, for the previous period of equal length, and as a series by interval. A period in whole days of the
// workspace's time zone without filters is merged from kept days (dailyFigures.ts); any other is counted by
// PostgreSQL from the facts (conversationFacts.ts). Definitions in docs/reports.md.
import { DateTime } from 'luxon';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { businessClock, type BusinessClock } from './businessClock.js';
import { conversationFacts, type ConversationFigures } from './conversationFacts.js';
import { figuresOfDays, keptDays, readsKeptDays, type DayFigures } from './dailyFigures.js';
import { bucketStarts, percentiles, previousPeriod, reportScope, type ReportInput, type ReportScope } from './scope.js';

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

/** The figures of a period or bucket with nothing in it. */
const EMPTY: ConversationFigures = figuresOfDays([]);

function figures(row: FigureRow | undefined): ConversationFigures {
  if (!row) return EMPTY;
  const { bucket: _bucket, ...rest } = row;
  return rest;
}

/** The figures counted from the facts: one row per bucket and one (bucket null) for the whole range. */
async function figureRows(ctx: Context, scope: ReportScope, clock: BusinessClock): Promise<FigureRow[]> {
  return ctx.prisma.$queryRaw<FigureRow[]>`
    WITH ${conversationFacts(scope, clock)}
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

/** A period's figures: for the whole range and per bucket start (epoch ms). */
type PeriodFigures = { totals: ConversationFigures; byBucket: Map<number, ConversationFigures> };

async function countedPeriod(ctx: Context, scope: ReportScope): Promise<PeriodFigures> {
  const clock = await businessClock(ctx, scope.workspaceId, scope.from, scope.to);
  const rows = await figureRows(ctx, scope, clock);
  return {
    totals: figures(rows.find((row) => row.bucket === null)),
    byBucket: new Map(rows.filter((row) => row.bucket).map((row) => [row.bucket!.getTime(), figures(row)])),
  };
}

async function mergedPeriod(ctx: Context, scope: ReportScope): Promise<PeriodFigures> {
  const days = await keptDays(ctx, scope);
  const buckets = new Map<number, DayFigures[]>();
  for (const [day, dayFigures] of days) {
    const start = DateTime.fromISO(day, { zone: scope.timeZone }).startOf(scope.interval).toMillis();
    buckets.set(start, [...(buckets.get(start) ?? []), dayFigures]);
  }
  return {
    totals: figuresOfDays([...days.values()]),
    byBucket: new Map([...buckets].map(([start, inBucket]) => [start, figuresOfDays(inBucket)])),
  };
}

function period(ctx: Context, scope: ReportScope): Promise<PeriodFigures> {
  return readsKeptDays(scope) ? mergedPeriod(ctx, scope) : countedPeriod(ctx, scope);
}

export async function conversationsReport(ctx: Context, input: ReportInput): Promise<ConversationsReport> {
  const scope = await reportScope(ctx, input);
  const [current, previous] = await Promise.all([period(ctx, scope), period(ctx, previousPeriod(scope))]);
  return {
    from: scope.from,
    to: scope.to,
    interval: scope.interval,
    time_zone: scope.timeZone,
    totals: current.totals,
    previous: previous.totals,
    series: bucketStarts(scope).map((start) => ({ start, ...(current.byBucket.get(start.getTime()) ?? EMPTY) })),
  };
}

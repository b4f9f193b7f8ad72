// Conversation and message metrics of the caller's workspace over [from, to), computed by the database in
// one aggregate query (GROUPING SETS give the totals, each assignee's row and the status counts at once)
// plus one count of messages by direction and status. Definitions (docs/api-decisions.md):
// - active conversations: with at least one message in the range; opened: created in it; closed: closed_at in it.
// - first response: from a conversation's first inbound message in the range to the first outbound after it.
// - resolution: from a conversation's creation to its closed_at, for conversations closed in the range.
// - delivery rate: outbound messages delivered or read / outbound; read rate: read / delivered or read.
// Per-assignee rows follow each conversation's current assigned_user_id (null: unassigned).
import { z } from 'zod';
import { type Context, requireActor } from '../shared/context.js';
import { dateRange, parseInput } from '../shared/validation.js';

export const analyticsRange = dateRange(366);

export type AnalyticsMetrics = {
  conversations_active: number;
  conversations_opened: number;
  conversations_closed: number;
  messages_inbound: number;
  messages_outbound: number;
  messages_delivered: number;
  messages_read: number;
  messages_failed: number;
  delivery_rate: number | null;
  read_rate: number | null;
  conversations_with_inbound: number;
  first_responses: number;
  first_response_avg_seconds: number | null;
  first_response_median_seconds: number | null;
  resolution_avg_seconds: number | null;
  resolution_median_seconds: number | null;
};

export type AssigneeMetrics = AnalyticsMetrics & {
  assignee_user_id: string | null;
  assignee_name: string | null;
  assignee_email: string | null;
};

export type AnalyticsSummary = {
  from: Date;
  to: Date;
  totals: AnalyticsMetrics;
  conversations_by_status: { status: string; count: number }[];
  messages_by_status: { direction: string; status: string; count: number }[];
  assignees: AssigneeMetrics[];
};

type MetricRow = Omit<AnalyticsMetrics, 'delivery_rate' | 'read_rate'> & {
  grouping: 'total' | 'assignee' | 'status';
  status: string | null;
  assignee_user_id: string | null;
  assignee_name: string | null;
  assignee_email: string | null;
};

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

function metricsOf(row: MetricRow | undefined): AnalyticsMetrics {
  const counts = {
    conversations_active: row?.conversations_active ?? 0,
    conversations_opened: row?.conversations_opened ?? 0,
    conversations_closed: row?.conversations_closed ?? 0,
    messages_inbound: row?.messages_inbound ?? 0,
    messages_outbound: row?.messages_outbound ?? 0,
    messages_delivered: row?.messages_delivered ?? 0,
    messages_read: row?.messages_read ?? 0,
    messages_failed: row?.messages_failed ?? 0,
    conversations_with_inbound: row?.conversations_with_inbound ?? 0,
    first_responses: row?.first_responses ?? 0,
  };
  return {
    ...counts,
    delivery_rate: ratio(counts.messages_delivered, counts.messages_outbound),
    read_rate: ratio(counts.messages_read, counts.messages_delivered),
    first_response_avg_seconds: row?.first_response_avg_seconds ?? null,
    first_response_median_seconds: row?.first_response_median_seconds ?? null,
    resolution_avg_seconds: row?.resolution_avg_seconds ?? null,
    resolution_median_seconds: row?.resolution_median_seconds ?? null,
  };
}

export async function analyticsSummary(ctx: Context, input: z.input<typeof analyticsRange>): Promise<AnalyticsSummary> {
  const { workspaceId } = requireActor(ctx);
  const { from, to } = parseInput(analyticsRange, input);
  const rows = await ctx.prisma.$queryRaw<MetricRow[]>`
    WITH per_conversation_messages AS (
      SELECT m.conversation_id,
             min(m.created_at) FILTER (WHERE m.direction = 'inbound') AS first_inbound_at,
             count(*) FILTER (WHERE m.direction = 'inbound') AS inbound_count,
             count(*) FILTER (WHERE m.direction = 'outbound') AS outbound_count,
             count(*) FILTER (WHERE m.direction = 'outbound' AND m.status IN ('delivered', 'read')) AS delivered_count,
             count(*) FILTER (WHERE m.direction = 'outbound' AND m.status = 'read') AS read_count,
             count(*) FILTER (WHERE m.direction = 'outbound' AND m.status = 'failed') AS failed_count
      FROM messages m
      WHERE m.company_id = ${workspaceId}::uuid AND m.created_at >= ${from} AND m.created_at < ${to}
      GROUP BY m.conversation_id
    ),
    conversations_in_range AS (
      SELECT c.id, c.status, c.assigned_user_id, c.created_at, c.closed_at, pcm.*,
             pcm.conversation_id IS NOT NULL AS active,
             c.created_at >= ${from} AND c.created_at < ${to} AS opened,
             coalesce(c.closed_at >= ${from} AND c.closed_at < ${to}, false) AS closed
      FROM conversations c
      LEFT JOIN per_conversation_messages pcm ON pcm.conversation_id = c.id
      WHERE c.company_id = ${workspaceId}::uuid
        AND (pcm.conversation_id IS NOT NULL
             OR (c.created_at >= ${from} AND c.created_at < ${to})
             OR (c.closed_at >= ${from} AND c.closed_at < ${to}))
    ),
    timed AS (
      SELECT cir.*,
             extract(epoch FROM (
               SELECT min(o.created_at) FROM messages o
               WHERE o.conversation_id = cir.id AND o.direction = 'outbound' AND o.created_at > cir.first_inbound_at
             ) - cir.first_inbound_at) AS first_response_seconds,
             CASE WHEN cir.closed THEN extract(epoch FROM cir.closed_at - cir.created_at) END AS resolution_seconds
      FROM conversations_in_range cir
    ),
    grouped AS (
      SELECT CASE WHEN grouping(assigned_user_id, status) = 3 THEN 'total'
                  WHEN grouping(status) = 1 THEN 'assignee'
                  ELSE 'status' END AS grouping,
             status, assigned_user_id,
             count(*) FILTER (WHERE active)::int AS conversations_active,
             count(*) FILTER (WHERE opened)::int AS conversations_opened,
             count(*) FILTER (WHERE closed)::int AS conversations_closed,
             coalesce(sum(inbound_count), 0)::int AS messages_inbound,
             coalesce(sum(outbound_count), 0)::int AS messages_outbound,
             coalesce(sum(delivered_count), 0)::int AS messages_delivered,
             coalesce(sum(read_count), 0)::int AS messages_read,
             coalesce(sum(failed_count), 0)::int AS messages_failed,
             count(first_inbound_at)::int AS conversations_with_inbound,
             count(first_response_seconds)::int AS first_responses,
             round(avg(first_response_seconds), 3)::float8 AS first_response_avg_seconds,
             round((percentile_cont(0.5) WITHIN GROUP (ORDER BY first_response_seconds))::numeric, 3)::float8 AS first_response_median_seconds,
             round(avg(resolution_seconds), 3)::float8 AS resolution_avg_seconds,
             round((percentile_cont(0.5) WITHIN GROUP (ORDER BY resolution_seconds))::numeric, 3)::float8 AS resolution_median_seconds
      FROM timed
      GROUP BY GROUPING SETS ((), (assigned_user_id), (status))
    )
    SELECT grouped.*, grouped.assigned_user_id::text AS assignee_user_id, u.name AS assignee_name, u.email AS assignee_email
    FROM grouped LEFT JOIN users u ON u.id = grouped.assigned_user_id
    ORDER BY grouped.grouping, u.name NULLS LAST, u.email, grouped.status`;

  const byDirectionAndStatus = await ctx.prisma.$queryRaw<{ direction: string; status: string; count: number }[]>`
    SELECT direction, status, count(*)::int AS count
    FROM messages
    WHERE company_id = ${workspaceId}::uuid AND created_at >= ${from} AND created_at < ${to}
    GROUP BY direction, status
    ORDER BY direction, status`;

  return {
    from,
    to,
    totals: metricsOf(rows.find((row) => row.grouping === 'total')),
    conversations_by_status: rows
      .filter((row) => row.grouping === 'status' && row.conversations_active > 0)
      .map((row) => ({ status: row.status ?? '', count: row.conversations_active })),
    messages_by_status: byDirectionAndStatus,
    assignees: rows
      .filter((row) => row.grouping === 'assignee')
      .map((row) => ({
        assignee_user_id: row.assignee_user_id,
        assignee_name: row.assignee_name,
        assignee_email: row.assignee_email,
        ...metricsOf(row),
      })),
  };
}

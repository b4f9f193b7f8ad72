// The analytics summary as CSV (RFC 4180, CRLF, header row): one row for the whole workspace, then one
// per assignee (and one for unassigned conversations), with every metric as a column. Returned as text
// with a file name and content type; cells that a spreadsheet would run as formulas are escaped.
import { stringify } from 'csv-stringify/sync';
import type { z } from 'zod';
import type { Context } from '../shared/context.js';
import { analyticsSummary, type analyticsRange, type AnalyticsMetrics } from './analytics.js';

const METRIC_COLUMNS: (keyof AnalyticsMetrics)[] = [
  'conversations_active',
  'conversations_opened',
  'conversations_closed',
  'messages_inbound',
  'messages_outbound',
  'messages_delivered',
  'messages_read',
  'messages_failed',
  'delivery_rate',
  'read_rate',
  'conversations_with_inbound',
  'first_responses',
  'first_response_avg_seconds',
  'first_response_median_seconds',
  'resolution_avg_seconds',
  'resolution_median_seconds',
];

const COLUMNS = ['scope', 'assignee_user_id', 'assignee_name', 'assignee_email', ...METRIC_COLUMNS];

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export async function analyticsExport(ctx: Context, input: z.input<typeof analyticsRange>) {
  const summary = await analyticsSummary(ctx, input);
  const rows = [
    { scope: 'all', assignee_user_id: null, assignee_name: null, assignee_email: null, ...summary.totals },
    ...summary.assignees.map((row) => ({ scope: row.assignee_user_id ? 'assignee' : 'unassigned', ...row })),
  ];
  const content = stringify(rows, {
    header: true,
    columns: COLUMNS,
    record_delimiter: 'windows',
    escape_formulas: true,
  });
  return {
    filename: `analytics_${day(summary.from)}_${day(summary.to)}.csv`,
    content_type: 'text/csv; charset=utf-8',
    content,
  };
}

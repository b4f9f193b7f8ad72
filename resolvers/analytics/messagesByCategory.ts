// What messages cost, by day: the outbound messages of the caller's workspace created in [from, to) whose provider
// reported their pricing, counted by the day they were created — in the workspace's time zone (workspaces.time_zone,
// UTC unless set) — and by pricing category, with how many of them are billable (docs/api-decisions.md).
import type { z } from 'zod';
import { type Context, requireActor } from '../shared/context.js';
import { parseInput } from '../shared/validation.js';
import { analyticsRange } from './analytics.js';

export type CategoryCount = { category: string; messages: number; billable: number };
export type CategoryDay = CategoryCount & { day: string };

export type MessagesByCategory = {
  from: Date;
  to: Date;
  /** The IANA time zone the days are in. */
  time_zone: string;
  /** One row per day and category that has messages, by day then category. */
  days: CategoryDay[];
  /** The same over the whole range, by category. */
  totals: CategoryCount[];
};

export async function messagesByCategory(ctx: Context, input: z.input<typeof analyticsRange>): Promise<MessagesByCategory> {
  const { workspaceId } = requireActor(ctx);
  const { from, to } = parseInput(analyticsRange, input);
  const { time_zone } = await ctx.prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { time_zone: true } });
  const days = await ctx.prisma.$queryRaw<CategoryDay[]>`
    SELECT to_char(created_at AT TIME ZONE ${time_zone}, 'YYYY-MM-DD') AS day, pricing->>'category' AS category,
      count(*)::int AS messages, count(*) FILTER (WHERE (pricing->>'billable')::boolean)::int AS billable
    FROM messages
    WHERE company_id = ${workspaceId}::uuid AND direction = 'outbound' AND pricing IS NOT NULL
      AND created_at >= ${from}::timestamptz AND created_at < ${to}::timestamptz
    GROUP BY 1, 2 ORDER BY 1, 2`;
  const totals = new Map<string, CategoryCount>();
  for (const row of days) {
    const total = totals.get(row.category) ?? { category: row.category, messages: 0, billable: 0 };
    total.messages += row.messages;
    total.billable += row.billable;
    totals.set(row.category, total);
  }
  return { from, to, time_zone, days, totals: [...totals.values()].sort((a, b) => a.category.localeCompare(b.category)) };
}

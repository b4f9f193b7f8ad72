// The run log of a rule, newest first: each run's event, whether the conditions matched, each action's outcome
// and how long it took.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { columnPage } from '../shared/pagination.js';
import { limit, parseInput, uuid } from '../shared/validation.js';
import { findRule } from './rules.js';

type Query = { select?: Prisma.AutomationRunSelect; include?: Prisma.AutomationRunInclude };

const listInput = z.object({ id: uuid, limit: limit(20), cursor: uuid.nullish() });

export async function listRuns(ctx: Context, input: z.input<typeof listInput>, query: Query = {}) {
  const args = parseInput(listInput, input);
  const rule = await findRule(ctx, args.id, { select: { id: true } });
  return columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    ctx.prisma.automationRun.findMany({ ...query, where: { rule_id: rule.id, ...after }, orderBy, take }),
  );
}

/** The newest run of each of these rules, and how many runs each has (the console's list). */
export async function runSummaries(ctx: Context, ruleIds: string[]) {
  const rows = await ctx.prisma.automationRun.groupBy({
    by: ['rule_id'],
    where: { rule_id: { in: ruleIds } },
    _count: { _all: true },
    _max: { started_at: true },
  });
  return new Map(rows.map((row) => [row.rule_id, { run_count: row._count._all, last_run_at: row._max.started_at }]));
}

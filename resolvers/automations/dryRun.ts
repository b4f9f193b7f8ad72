// A rule's dry run: its trigger and conditions checked against the workspace's last 100 events it could start on
// (or one given event), reporting which would match and the actions that would be done, without doing any of
// them and without recording a run: only reads.
import { z } from 'zod';
import type { Context } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { parseInput, uuid } from '../shared/validation.js';
import { EVENT_ID_PREFIX } from '../shared/outbox.js';
import { conditionsHold } from './conditions.js';
import { chainAllows, TRIGGERS_OF_EVENT } from './run.js';
import type { Action, ConditionGroup } from './ruleInput.js';
import { findRule } from './rules.js';
import { subjectOf } from './subject.js';

export const DRY_RUN_EVENTS = 100;

const testInput = z.object({
  id: uuid,
  event_id: z
    .string()
    .regex(/^evt_[0-9a-f-]{36}$/, { message: 'must be an event id (evt_…)' })
    .nullish(),
});

export type DryRunResult = {
  event_id: string;
  event_type: string;
  created_at: Date;
  matched: boolean;
  actions: Action[];
};

export async function dryRunRule(ctx: Context, input: z.input<typeof testInput>) {
  const args = parseInput(testInput, input);
  const rule = await findRule(ctx, args.id);
  const eventTypes = Object.entries(TRIGGERS_OF_EVENT)
    .filter(([, triggers]) => triggers.includes(rule.trigger_event))
    .map(([type]) => type);
  const events = await ctx.prisma.event.findMany({
    where: {
      company_id: rule.company_id,
      ...(args.event_id ? { id: args.event_id.slice(EVENT_ID_PREFIX.length) } : { type: { in: eventTypes } }),
    },
    orderBy: { id: 'desc' },
    take: DRY_RUN_EVENTS,
    select: { id: true, type: true, body: true, automation_chain: true, created_at: true },
  });
  if (args.event_id && events.length === 0) throw notFound('Event');
  const results: DryRunResult[] = [];
  for (const event of events) {
    // Business hours as they were when the event happened; a throttle (once_per_conversation_hours) is not applied.
    const subject = await subjectOf(ctx.prisma, rule.company_id, event, event.created_at);
    const applies = subject !== null && subject.triggers.includes(rule.trigger_event) && chainAllows(subject, rule.id);
    const matched = applies && conditionsHold(subject, rule.conditions as ConditionGroup);
    results.push({
      event_id: `${EVENT_ID_PREFIX}${event.id}`,
      event_type: event.type,
      created_at: event.created_at,
      matched,
      actions: matched ? (rule.actions as Action[]) : [],
    });
  }
  return { evaluated: results.length, matched: results.filter((result) => result.matched).length, results };
}

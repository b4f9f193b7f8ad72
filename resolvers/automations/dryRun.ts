// A rule's dry run: its trigger and conditions checked against what it could start on, reporting which would match
// and the actions that would be done, without doing any of them and without recording a run: only reads.
// What it could start on depends on the trigger: an event trigger, the workspace's last 100 events of its kind (or one
// given event); conversation.waiting, the conversations waiting now at least its minutes, also those that fell due
// before the rule was saved (which the worker leaves alone), so that a new rule can be tried on today's inbox; a
// schedule, its next due minutes, with business hours as they will be then (docs/api-decisions.md, "Automation triggers").
import { z } from 'zod';
import type { Context } from '../shared/context.js';
import { invalid, notFound } from '../shared/errors.js';
import { parseInput, uuid } from '../shared/validation.js';
import { EVENT_ID_PREFIX } from '../shared/outbox.js';
import { businessHoursOf } from '../workspace/businessHoursSettings.js';
import { conditionsHold } from './conditions.js';
import { chainAllows, eventOccasion, scheduleOccasion, TRIGGERS_OF_EVENT, waitingOccasion, type Occasion } from './run.js';
import type { Action, ConditionGroup } from './ruleInput.js';
import { findRule } from './rules.js';
import { dueWaits, nextScheduledMinutes } from './timeTriggers.js';
import { SCHEDULE_TRIGGER, WAITING_TRIGGER, type ScheduleTrigger, type WaitingTrigger } from './triggers.js';

/** At most this many events or waiting conversations are tried. */
export const DRY_RUN_EVENTS = 100;
/** A schedule is tried on its next due minutes. */
export const DRY_RUN_SCHEDULED_MINUTES = 10;

const testInput = z.object({
  id: uuid,
  event_id: z
    .string()
    .regex(/^evt_[0-9a-f-]{36}$/, { message: 'must be an event id (evt_…)' })
    .nullish(),
});

export type DryRunResult = {
  /** The event's id (evt_…), or the occasion of a time trigger (waiting:<message id>, schedule:<minute>), as a run records it. */
  event_id: string;
  event_type: string;
  /** When the event happened, the wait started, or the schedule falls due. */
  created_at: Date;
  matched: boolean;
  actions: Action[];
};

/** One thing the rule is tried on: its occasion, what it is, when it happened, and the instant its conditions are read at. */
type Trial = { occasion: Occasion; type: string; happenedAt: Date; readAt: Date };

type Rule = Awaited<ReturnType<typeof findRule>>;

async function eventTrials(ctx: Context, rule: Rule, eventId: string | null | undefined): Promise<Trial[]> {
  const eventTypes = Object.entries(TRIGGERS_OF_EVENT)
    .filter(([, triggers]) => triggers.includes(rule.trigger_event))
    .map(([type]) => type);
  const events = await ctx.prisma.event.findMany({
    where: { company_id: rule.company_id, ...(eventId ? { id: eventId.slice(EVENT_ID_PREFIX.length) } : { type: { in: eventTypes } }) },
    orderBy: { id: 'desc' },
    take: DRY_RUN_EVENTS,
    select: { id: true, type: true, body: true, automation_chain: true, created_at: true },
  });
  if (eventId && events.length === 0) throw notFound('Event');
  // Business hours as they were when the event happened.
  return events.map((event) => ({
    occasion: eventOccasion(rule.company_id, event),
    type: event.type,
    happenedAt: event.created_at,
    readAt: event.created_at,
  }));
}

async function timeTrials(ctx: Context, rule: Rule): Promise<Trial[]> {
  const hours = await businessHoursOf(ctx.prisma, rule.company_id);
  const now = new Date();
  if (rule.trigger_event === WAITING_TRIGGER) {
    const waits = await dueWaits(ctx.prisma, rule, rule.trigger as WaitingTrigger, hours, now, new Date(0));
    return waits.map((wait) => ({
      occasion: waitingOccasion(rule.company_id, wait),
      type: WAITING_TRIGGER,
      happenedAt: wait.waitingSince,
      readAt: now,
    }));
  }
  const minutes = nextScheduledMinutes(rule.trigger as ScheduleTrigger, hours.time_zone, now, DRY_RUN_SCHEDULED_MINUTES);
  return minutes.map((minute) => ({
    occasion: scheduleOccasion(rule.company_id, minute),
    type: SCHEDULE_TRIGGER,
    happenedAt: minute,
    readAt: minute,
  }));
}

export async function dryRunRule(ctx: Context, input: z.input<typeof testInput>) {
  const args = parseInput(testInput, input);
  const rule = await findRule(ctx, args.id);
  const timed = rule.trigger_event === WAITING_TRIGGER || rule.trigger_event === SCHEDULE_TRIGGER;
  if (timed && args.event_id)
    throw invalid({ event_id: `a ${rule.trigger_event} rule starts on time, not on an event: leave event_id out` });
  const trials = timed ? await timeTrials(ctx, rule) : await eventTrials(ctx, rule, args.event_id);
  const results: DryRunResult[] = [];
  for (const { occasion, type, happenedAt, readAt } of trials) {
    // A throttle (once_per_conversation_hours) is not applied.
    const subject = await occasion.subject(ctx.prisma, readAt);
    const applies = subject !== null && subject.triggers.includes(rule.trigger_event) && chainAllows(subject, rule.id);
    const matched = applies && conditionsHold(subject, rule.conditions as ConditionGroup);
    results.push({
      event_id: occasion.key,
      event_type: type,
      created_at: happenedAt,
      matched,
      actions: matched ? (rule.actions as Action[]) : [],
    });
  }
  return { evaluated: results.length, matched: results.filter((result) => result.matched).length, results };
}

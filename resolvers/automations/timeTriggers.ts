// The occasions of the time-based triggers, found by each worker round from what is stored, so they survive
// restarts: the conversations a conversation.waiting rule has waited on long enough (the first inbound message
// after the last outbound one, N minutes ago, or N business minutes), and a schedule rule's latest due minute in
// the workspace's time zone. Only what fell due after the rule was last saved counts. The run's unique key
// (run.ts) makes each fire once across instances and restarts.
import { CronExpressionParser } from 'cron-parser';
import type { Db } from '../shared/context.js';
import { businessMinutesBetween, type BusinessHours } from '../workspace/businessHours.js';
import { scheduleOccasion, type Occasion } from './run.js';
import type { ScheduleTrigger, WaitingTrigger } from './triggers.js';

/** The waits one round looks at per rule; the others are found by the next rounds. */
const WAITS_PER_ROUND = 100;

type TimedRule = { id: string; company_id: string; updated_at: Date };

/** A conversation waiting since its inbound message `messageId` (the first one after its last answer). */
export type Wait = { conversationId: string; messageId: string; waitingSince: Date };

/** Conversations (not closed) whose wait started at least `minutes` ago and fell due after `since`, not yet run on. */
function waitsOlderThan(db: Db, rule: TimedRule, minutes: number, now: Date, since: Date): Promise<Wait[]> {
  return db.$queryRaw<Wait[]>`
    SELECT c.id::text AS "conversationId", wait.id::text AS "messageId", wait.created_at AS "waitingSince"
    FROM conversations c
    CROSS JOIN LATERAL (
      SELECT m.id, m.created_at FROM messages m
      WHERE m.conversation_id = c.id AND m.direction = 'inbound'
        AND m.id > COALESCE(
          (SELECT answer.id FROM messages answer
           WHERE answer.conversation_id = c.id AND answer.direction = 'outbound' ORDER BY answer.id DESC LIMIT 1),
          '00000000-0000-0000-0000-000000000000'::uuid)
      ORDER BY m.id LIMIT 1) wait
    WHERE c.company_id = ${rule.company_id}::uuid AND c.status <> 'closed'
      AND wait.created_at <= ${now}::timestamptz - ${minutes}::int * interval '1 minute'
      AND wait.created_at >= ${since}::timestamptz - ${minutes}::int * interval '1 minute'
      AND NOT EXISTS (SELECT 1 FROM automation_runs run WHERE run.rule_id = ${rule.id}::uuid AND run.event_id = 'waiting:' || wait.id::text)
    ORDER BY wait.id LIMIT ${WAITS_PER_ROUND}::int`;
}

/** The waits of a conversation.waiting rule due at `now` that fell due after `since` (the worker: when the rule was last
 * saved; a dry run: ever). With business_hours, only business minutes count. */
export async function dueWaits(
  db: Db,
  rule: TimedRule,
  trigger: WaitingTrigger,
  hours: BusinessHours,
  now: Date,
  since: Date = rule.updated_at,
): Promise<Wait[]> {
  const waits = await waitsOlderThan(db, rule, trigger.minutes, now, since);
  return trigger.business_hours ? waits.filter((wait) => businessMinutesBetween(hours, wait.waitingSince, now) >= trigger.minutes) : waits;
}

/** The schedule's latest due minute at `now` in the time zone, when it fell due after the rule was last saved. */
export function dueMinute(trigger: ScheduleTrigger, timeZone: string, rule: TimedRule, now: Date): Date | null {
  const minuteStart = Math.floor(now.getTime() / 60_000) * 60_000;
  const expression = CronExpressionParser.parse(trigger.cron, { tz: timeZone, currentDate: new Date(minuteStart + 1_000) });
  const due = expression.prev().toDate();
  return due.getTime() >= rule.updated_at.getTime() ? due : null;
}

/** The schedule's next `count` minutes after `now` in the time zone. */
export function nextScheduledMinutes(trigger: ScheduleTrigger, timeZone: string, now: Date, count: number): Date[] {
  const expression = CronExpressionParser.parse(trigger.cron, { tz: timeZone, currentDate: now });
  return Array.from({ length: count }, () => expression.next().toDate());
}

/** The schedule's occasion due at `now`, if any (a missed minute, after a restart, fires once, late). */
export function dueSchedule(rule: TimedRule, trigger: ScheduleTrigger, hours: BusinessHours, now: Date): Occasion[] {
  const due = dueMinute(trigger, hours.time_zone, rule, now);
  return due ? [scheduleOccasion(rule.company_id, due)] : [];
}

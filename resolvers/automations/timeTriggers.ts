// The occasions of the time-based triggers, found by each worker round from what is stored, so they survive
// restarts: the conversations a conversation.waiting rule has waited on long enough (the first inbound message
// after the last outbound one, N minutes ago, or N business minutes), and a schedule rule's latest due minute in
// the workspace's time zone. Only what fell due after the rule was last saved counts. The run's unique key
// (run.ts) makes each fire once across instances and restarts.
import { CronExpressionParser } from 'cron-parser';
import type { Db } from '../shared/context.js';
import { businessMinutesBetween, type BusinessHours } from '../workspace/businessHours.js';
import { waitingOccasion, scheduleOccasion, type Occasion } from './run.js';
import type { ScheduleTrigger, WaitingTrigger } from './triggers.js';

/** The waits one round looks at per rule; the others are found by the next rounds. */
const WAITS_PER_ROUND = 100;

type TimedRule = { id: string; company_id: string; updated_at: Date };

type Wait = { conversation_id: string; message_id: string; waiting_since: Date };

/** Conversations (not closed) whose wait started at least `minutes` ago and fell due after `since`, not yet run on. */
function waitsOlderThan(db: Db, rule: TimedRule, minutes: number, now: Date): Promise<Wait[]> {
  return db.$queryRaw<Wait[]>`
    SELECT c.id::text AS conversation_id, wait.id::text AS message_id, wait.created_at AS waiting_since
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
      AND wait.created_at >= ${rule.updated_at}::timestamptz - ${minutes}::int * interval '1 minute'
      AND NOT EXISTS (SELECT 1 FROM automation_runs run WHERE run.rule_id = ${rule.id}::uuid AND run.event_id = 'waiting:' || wait.id::text)
    ORDER BY wait.id LIMIT ${WAITS_PER_ROUND}::int`;
}

/** The waits of a conversation.waiting rule due at `now`. With business_hours, only business minutes count: a wait
 * that started earlier has counted at least as many, so the oldest that is not due ends the list. */
export async function dueWaits(db: Db, rule: TimedRule, trigger: WaitingTrigger, hours: BusinessHours, now: Date): Promise<Occasion[]> {
  const waits = await waitsOlderThan(db, rule, trigger.minutes, now);
  const due = trigger.business_hours
    ? waits.filter((wait) => businessMinutesBetween(hours, wait.waiting_since, now) >= trigger.minutes)
    : waits;
  return due.map((wait) => waitingOccasion(rule.company_id, { conversationId: wait.conversation_id, messageId: wait.message_id }));
}

/** The schedule's latest due minute at `now` in the time zone, when it fell due after the rule was last saved. */
export function dueMinute(trigger: ScheduleTrigger, timeZone: string, rule: TimedRule, now: Date): Date | null {
  const minuteStart = Math.floor(now.getTime() / 60_000) * 60_000;
  const expression = CronExpressionParser.parse(trigger.cron, { tz: timeZone, currentDate: new Date(minuteStart + 1_000) });
  const due = expression.prev().toDate();
  return due.getTime() >= rule.updated_at.getTime() ? due : null;
}

/** The schedule's occasion due at `now`, if any (a missed minute, after a restart, fires once, late). */
export function dueSchedule(rule: TimedRule, trigger: ScheduleTrigger, hours: BusinessHours, now: Date): Occasion[] {
  const due = dueMinute(trigger, hours.time_zone, rule, now);
  return due ? [scheduleOccasion(rule.company_id, due)] : [];
}

// One run of one rule on one occasion (an outbox event, a conversation's wait, a schedule's due minute), exactly
// once: the run's row, unique per (rule_id, event_id: the occasion's key), is inserted first in the run's own transaction, so a second worker (or the same event again after a crash) finds it and does
// nothing, and a run that never committed left no row. Conditions are read inside the transaction; each action
// runs behind a savepoint, so a failing one is rolled back alone and recorded with its error while the others
// commit. The transaction names the rule chain (crm.automation_chain), which every event it records carries, so
// a rule never runs on what its own actions caused and a chain stops at MAX_CHAIN_DEPTH.
import { v7 as uuidv7 } from 'uuid';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db, Services } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import type { AutomationEventType } from '../shared/outbox.js';
import { performAction, type AfterCommit } from './actions.js';
import { conditionsHold } from './conditions.js';
import type { Action, ConditionGroup } from './ruleInput.js';
import { scheduleSubject, subjectOf, waitingSubject, type StoredEvent, type Subject } from './subject.js';
import { mayActOn } from './throttle.js';

/** Rules caused by rules caused by rules: the third link's events start no further rule. */
export const MAX_CHAIN_DEPTH = 3;

export type RuleRow = {
  id: string;
  company_id: string;
  trigger_event: string;
  conditions: Prisma.JsonValue;
  actions: Prisma.JsonValue;
  once_per_conversation_hours: number | null;
};
/** `skipped`: the conditions held but the rule already acted on the conversation within once_per_conversation_hours. */
export type ActionOutcome = { type: string; status: 'done' | 'failed' | 'skipped'; error?: string };

/** Posts a webhook action's body (through the guarded outbound client, which the worker owns). */
export type WebhookPoster = (url: string, body: string) => Promise<void>;

/** The trigger events a stored event may start (a first message also counts as conversation.created). */
export const TRIGGERS_OF_EVENT: Record<string, readonly string[]> = {
  'message.received': ['message.received', 'conversation.created'],
  'conversation.updated': ['conversation.updated'],
  'contact.created': ['contact.created'],
  'tag.added': ['tag.added'],
} satisfies Record<AutomationEventType, readonly string[]>;

/** What a rule runs on: `key` is the run's event_id (at most one run per rule and key); `subject` reads it in the run's
 * transaction, null when it no longer applies (the conversation was answered meanwhile). */
export type Occasion = { key: string; subject: (db: Db, now: Date) => Promise<Subject | null> };

export function eventOccasion(workspaceId: string, event: StoredEvent): Occasion {
  return { key: `evt_${event.id}`, subject: (db, now) => subjectOf(db, workspaceId, event, now) };
}

/** A conversation waiting since its inbound message `messageId`: once per wait (a later answer starts another). */
export function waitingOccasion(workspaceId: string, wait: { conversationId: string; messageId: string }): Occasion {
  return { key: `waiting:${wait.messageId}`, subject: (db, now) => waitingSubject(db, workspaceId, wait, now) };
}

/** A schedule's due minute: once per minute, whichever worker comes first. */
export function scheduleOccasion(workspaceId: string, dueMinute: Date): Occasion {
  return { key: `schedule:${dueMinute.toISOString()}`, subject: (db, now) => scheduleSubject(db, workspaceId, dueMinute, now) };
}

/** Whether the chain that caused an event lets this rule run on it. */
export function chainAllows(subject: Subject, ruleId: string): boolean {
  return !subject.chain.includes(ruleId) && subject.chain.length < MAX_CHAIN_DEPTH;
}

function errorText(error: unknown): string {
  if (error instanceof DomainError) return error.message;
  return 'internal error';
}

/** Runs the rule on the occasion unless it already ran; returns the run's id, or null when it had run before or may not.
 * `now` is the worker's clock: business hours, throttles and snoozes are read against it. */
export async function runRule(
  services: Services,
  rule: RuleRow,
  occasion: Occasion,
  postWebhook: WebhookPoster,
  now: Date = new Date(),
): Promise<string | null> {
  const startedAt = new Date();
  const afterCommit: { index: number; work: AfterCommit }[] = [];
  const runId = uuidv7();
  const ran = await services.prisma.$transaction(
    async (tx) => {
      const claimed = await tx.$executeRaw`
        INSERT INTO automation_runs (id, company_id, rule_id, event_id, matched, actions, started_at, duration_ms)
        VALUES (${runId}::uuid, ${rule.company_id}::uuid, ${rule.id}::uuid, ${occasion.key}, false, '[]'::jsonb, ${startedAt}, 0)
        ON CONFLICT (rule_id, event_id) DO NOTHING`;
      if (claimed === 0) return false;
      const subject = await occasion.subject(tx, now);
      if (!subject || !subject.triggers.includes(rule.trigger_event) || !chainAllows(subject, rule.id)) {
        await tx.automationRun.delete({ where: { id: runId } });
        return false;
      }
      const matched = conditionsHold(subject, rule.conditions as ConditionGroup);
      const outcomes: ActionOutcome[] = [];
      const ruleActions = rule.actions as Action[];
      if (matched && subject.conversation && !(await mayActOn(tx, rule, subject.conversation.id, now))) {
        outcomes.push(...ruleActions.map((action) => ({ type: action.type, status: 'skipped' as const })));
      } else if (matched) {
        await tx.$executeRaw`SELECT set_config('crm.automation_chain', ${[...subject.chain, rule.id].join(',')}, true)`;
        const scope = { tx, services, workspaceId: rule.company_id, ruleId: rule.id, subject, now };
        for (const [index, action] of ruleActions.entries()) {
          await tx.$executeRawUnsafe('SAVEPOINT automation_action');
          try {
            const work = await performAction(scope, action, postWebhook);
            await tx.$executeRawUnsafe('RELEASE SAVEPOINT automation_action');
            if (work) afterCommit.push({ index, work });
            outcomes.push({ type: action.type, status: 'done' });
          } catch (error) {
            await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT automation_action');
            outcomes.push({ type: action.type, status: 'failed', error: errorText(error) });
          }
        }
      }
      await tx.automationRun.update({
        where: { id: runId },
        data: {
          matched,
          conversation_id: subject.conversation?.id ?? null,
          actions: outcomes,
          duration_ms: Date.now() - startedAt.getTime(),
        },
      });
      return true;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
  if (!ran) return null;
  await finishAfterCommit(services, runId, afterCommit);
  return runId;
}

/** Sends what the run recorded; an error there is written onto its action's outcome. */
async function finishAfterCommit(services: Services, runId: string, work: { index: number; work: AfterCommit }[]) {
  const failures: { index: number; error: string }[] = [];
  for (const item of work) {
    try {
      await item.work();
    } catch (error) {
      failures.push({ index: item.index, error: error instanceof Error ? error.message : String(error) });
    }
  }
  if (failures.length === 0) return;
  const run = await services.prisma.automationRun.findUniqueOrThrow({ where: { id: runId }, select: { actions: true } });
  const outcomes = run.actions as ActionOutcome[];
  for (const failure of failures) outcomes[failure.index] = { ...outcomes[failure.index]!, status: 'failed', error: failure.error };
  await services.prisma.automationRun.update({ where: { id: runId }, data: { actions: outcomes } });
}

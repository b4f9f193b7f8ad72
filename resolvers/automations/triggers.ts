// The triggers a rule starts on, with their parameters, and what each gives the rule to read and act on: a rule
// whose condition reads, or whose action changes, something its trigger has not (a reply on a schedule, which has
// no conversation) is refused when saved, with the path of the field at fault (docs/api-decisions.md,
// "Automation triggers").
import { z } from 'zod';
import { CronExpressionParser } from 'cron-parser';
import { invalid } from '../shared/errors.js';
import type { Action, ConditionGroup, Condition } from './ruleInput.js';

/** Triggers that are outbox events (or derived from one: a first inbound message is conversation.created). */
export const EVENT_TRIGGERS = ['message.received', 'conversation.created', 'conversation.updated', 'contact.created', 'tag.added'] as const;
export const WAITING_TRIGGER = 'conversation.waiting';
export const SCHEDULE_TRIGGER = 'schedule';
export const TRIGGER_EVENTS = [...EVENT_TRIGGERS, WAITING_TRIGGER, SCHEDULE_TRIGGER] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/** A week: the longest a conversation.waiting rule waits. */
export const MAX_WAITING_MINUTES = 10_080;

/** Why a cron expression is refused (five fields, minute to weekday), or null when it is a good one. */
export function cronError(cron: string): string | null {
  if (cron.trim().split(/\s+/).length !== 5) return 'must have five fields: minute hour day-of-month month day-of-week';
  try {
    CronExpressionParser.parse(cron);
    return null;
  } catch (error) {
    return `must be a valid cron expression (${(error as Error).message})`;
  }
}

const eventTrigger = z.object({ event: z.enum(EVENT_TRIGGERS) }).strict();
const waitingTrigger = z
  .object({
    event: z.literal(WAITING_TRIGGER),
    minutes: z
      .number({ message: `must be a whole number of minutes from 1 to ${MAX_WAITING_MINUTES}` })
      .int({ message: `must be a whole number of minutes from 1 to ${MAX_WAITING_MINUTES}` })
      .min(1, { message: `must be a whole number of minutes from 1 to ${MAX_WAITING_MINUTES}` })
      .max(MAX_WAITING_MINUTES, { message: `must be a whole number of minutes from 1 to ${MAX_WAITING_MINUTES}` }),
    business_hours: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .strict();
const scheduleTrigger = z
  .object({
    event: z.literal(SCHEDULE_TRIGGER),
    cron: z
      .string({ message: 'is required' })
      .max(200, { message: 'must be at most 200 characters' })
      .superRefine((cron, issues) => {
        const error = cronError(cron);
        if (error) issues.addIssue({ code: 'custom', message: error });
      }),
  })
  .strict();

export const trigger = z.discriminatedUnion('event', [eventTrigger, waitingTrigger, scheduleTrigger], {
  message: `must be one of ${TRIGGER_EVENTS.join(', ')}`,
});
export type Trigger = z.infer<typeof trigger>;
export type WaitingTrigger = z.infer<typeof waitingTrigger>;
export type ScheduleTrigger = z.infer<typeof scheduleTrigger>;

/** What a run of a trigger has to read and act on. */
type Part = 'message' | 'conversation' | 'contact' | 'tag';

const PARTS_OF_TRIGGER: Record<TriggerEvent, readonly Part[]> = {
  'message.received': ['message', 'conversation', 'contact'],
  'conversation.created': ['message', 'conversation', 'contact'],
  'conversation.updated': ['conversation', 'contact'],
  'conversation.waiting': ['message', 'conversation', 'contact'],
  'contact.created': ['contact'],
  'tag.added': ['contact', 'tag'],
  schedule: [],
};

const PART_OF_ACTION: Record<Action['type'], Part | null> = {
  add_tag: 'contact',
  remove_tag: 'contact',
  set_contact_field: 'contact',
  assign: 'conversation',
  set_status: 'conversation',
  reply: 'conversation',
  send_template: 'conversation',
  agent: 'conversation',
  note: 'conversation',
  webhook: null,
};

const ARTICLE: Record<Part, string> = { message: 'a message', conversation: 'a conversation', contact: 'a contact', tag: 'a tag' };

function partOfField(field: string): Part | null {
  const head = field.split('.')[0];
  return head === 'message' || head === 'conversation' || head === 'contact' || head === 'tag' ? head : null;
}

/** Each condition of the group with its path (conditions.all.1.any.0). */
function* conditionsWithPaths(group: ConditionGroup, path: string): Generator<[Condition, string]> {
  const [key, items] = 'all' in group ? ['all', group.all] : ['any', group.any];
  for (const [index, item] of items.entries()) {
    const at = `${path}.${key}.${index}`;
    if ('field' in item) yield [item, at];
    else yield* conditionsWithPaths(item, at);
  }
}

export type RuleShape = {
  trigger: Trigger;
  conditions: ConditionGroup;
  actions: Action[];
  once_per_conversation_hours?: number | null;
};

/** Refuses (400, naming each field at fault) a rule that reads or acts on what its trigger does not give it. */
export function assertRuleFitsTrigger(rule: RuleShape): void {
  const event = rule.trigger.event;
  const parts = PARTS_OF_TRIGGER[event];
  const lacks = (part: Part | null) => part !== null && !parts.includes(part);
  const reasons: Record<string, string> = {};
  for (const [condition, path] of conditionsWithPaths(rule.conditions, 'conditions')) {
    const part = partOfField(condition.field);
    if (lacks(part)) reasons[`${path}.field`] = `reads ${ARTICLE[part!]}, which trigger ${event} has not`;
  }
  for (const [index, action] of rule.actions.entries()) {
    const part = PART_OF_ACTION[action.type];
    if (lacks(part)) reasons[`actions.${index}.type`] = `needs ${ARTICLE[part!]}, which trigger ${event} has not`;
  }
  if (rule.once_per_conversation_hours && lacks('conversation'))
    reasons['once_per_conversation_hours'] = `needs a conversation, which trigger ${event} has not`;
  if (Object.keys(reasons).length > 0) throw invalid(reasons);
}

// The shape of an automation rule, {name, enabled, trigger, conditions, actions}, the same on every surface
// (docs/api-decisions.md, "Automations"): zod schemas whose failures name the path at fault (conditions.all.0.value).
// Limits: 10 conditions and 10 actions per rule; a `matches` pattern must compile under RE2 (no backtracking, so
// no pattern can stall the worker).
import { z } from 'zod';
import { RE2JS } from 're2js';
import { Duration } from 'luxon';
import { uuid } from '../shared/validation.js';
import { teamCapacity } from '../people/teams.js';

export const MAX_CONDITIONS = 10;
export const MAX_ACTIONS = 10;
export const MAX_RULES_PER_WORKSPACE = 100;

const text = (max: number) =>
  z
    .string({ message: 'is required' })
    .trim()
    .min(1, { message: 'is required' })
    .max(max, { message: `must be at most ${max} characters` });

/** The fields a condition reads; `contact.metadata.<path>` names a path of its own. `tag.name`: the tag a tag.added rule starts on. */
export const CONDITION_FIELDS = [
  'message.text',
  'message.language',
  'message.first_of_conversation',
  'contact.tags',
  'contact.name',
  'contact.email',
  'contact.phone_number',
  'conversation.status',
  'conversation.assigned_user_id',
  'conversation.channel',
  'conversation.changes',
  'tag.name',
  'business_hours',
] as const;
const METADATA_FIELD = /^contact\.metadata\.[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

export const OPERATORS = ['contains', 'equals', 'matches', 'in', 'not_in', 'is'] as const;

/** The values of the `business_hours` condition (operator `is`), against the workspace's hours when the rule runs. */
export const BUSINESS_HOURS_VALUES = ['within', 'outside'] as const;

const scalar = z.union([z.string().max(500, { message: 'must be at most 500 characters' }), z.number(), z.boolean()], {
  message: 'must be a string, number or boolean',
});

const condition = z
  .object({
    field: z.string().refine((field) => (CONDITION_FIELDS as readonly string[]).includes(field) || METADATA_FIELD.test(field), {
      message: `must be one of ${CONDITION_FIELDS.join(', ')}, or contact.metadata.<path>`,
    }),
    operator: z.enum(OPERATORS, { message: `must be one of ${OPERATORS.join(', ')}` }),
    value: z.union([scalar, z.array(scalar).max(50, { message: 'must have at most 50 values' })]),
  })
  .strict()
  .superRefine((rule, issues) => {
    const list = Array.isArray(rule.value);
    if ((rule.operator === 'in' || rule.operator === 'not_in') !== list) {
      issues.addIssue({
        code: 'custom',
        path: ['value'],
        message: list ? `must be a single value for ${rule.operator}` : `must be a list for ${rule.operator}`,
      });
    }
    if (rule.field === 'business_hours' && (rule.operator !== 'is' || !BUSINESS_HOURS_VALUES.includes(rule.value as never))) {
      issues.addIssue({ code: 'custom', path: ['value'], message: 'business_hours takes operator is with value within or outside' });
    }
    if (rule.operator === 'matches') {
      try {
        RE2JS.compile(String(rule.value));
      } catch (error) {
        issues.addIssue({
          code: 'custom',
          path: ['value'],
          message: `must be a valid RE2 regular expression (${(error as Error).message})`,
        });
      }
    }
  });
export type Condition = z.infer<typeof condition>;

const group = <Item extends z.ZodType>(item: Item) =>
  z
    .object({ all: z.array(item).optional(), any: z.array(item).optional() }, { message: 'must be {"all": [...]} or {"any": [...]}' })
    .strict()
    .refine((value) => (value.all === undefined) !== (value.any === undefined), { message: 'must be {"all": [...]} or {"any": [...]}' })
    .transform((value) => (value.all ? { all: value.all } : { any: value.any! }));

const isCondition = (value: unknown) => value !== null && typeof value === 'object' && 'field' in value;

/** A condition inside a group of a group: groups nest one level only. */
const innerCondition = z.unknown().transform((value, context) => {
  if (isCondition(value)) return reported(condition, value, context);
  context.addIssue({ code: 'custom', message: 'must be a condition {field, operator, value}: groups nest one level only' });
  return z.NEVER;
});

/** A condition, or a group of conditions: told apart by `field`, so that a bad one is reported at its own path. */
const conditionOrGroup = z
  .unknown()
  .transform((value, context) =>
    isCondition(value) ? reported(condition, value, context) : reported(group(innerCondition), value, context),
  );

/** The value parsed by `schema`, or its issues reported at their own paths under the caller's. */
function reported<Schema extends z.ZodType>(schema: Schema, value: unknown, context: z.core.$RefinementCtx): z.infer<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
}

/** Conditions: all or any of a list, whose items may be groups themselves once (no deeper). */
export const conditions = group(conditionOrGroup)
  .optional()
  .transform((value) => value ?? { all: [] })
  .refine((value) => countConditions(value) <= MAX_CONDITIONS, { message: `must have at most ${MAX_CONDITIONS} conditions` });
export type ConditionGroup = { all: (Condition | ConditionGroup)[] } | { any: (Condition | ConditionGroup)[] };

function countConditions(node: Condition | ConditionGroup): number {
  if ('field' in node) return 1;
  return ('all' in node ? node.all : node.any).reduce((sum, item) => sum + countConditions(item), 0);
}

export const CONTACT_FIELDS = ['name', 'email', 'notes'] as const;

const MAX_SNOOZE_DAYS = 90;

/** How long a snooze lasts from the run: an ISO 8601 duration (PT30M, PT2H, P1D), 1 minute to 90 days. */
const snoozeLength = z.string().refine(
  (text) => {
    const minutes = Duration.fromISO(text).as('minutes');
    return Number.isFinite(minutes) && minutes >= 1 && minutes <= MAX_SNOOZE_DAYS * 24 * 60;
  },
  { message: `must be an ISO 8601 duration from PT1M to P${MAX_SNOOZE_DAYS}D, such as PT2H` },
);

/** A rule acting at most once per conversation in this many hours (its out-of-hours reply, say); null: every time. */
export const oncePerConversationHours = z
  .number({ message: 'must be a whole number of hours' })
  .int({ message: 'must be a whole number of hours' })
  .min(1, { message: 'must be between 1 and 720' })
  .max(720, { message: 'must be between 1 and 720' });

export const action = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('add_tag'), tag: text(100) }).strict(),
    z.object({ type: z.literal('remove_tag'), tag: text(100) }).strict(),
    z
      .object({
        type: z.literal('assign'),
        user_id: uuid.optional(),
        team_id: uuid.optional(),
        strategy: z.literal('round_robin', { message: 'must be round_robin' }).optional(),
        capacity: teamCapacity.optional(),
      })
      .strict()
      .superRefine((assign, issues) => {
        if ((assign.user_id === undefined) === (assign.team_id === undefined))
          issues.addIssue({ code: 'custom', path: ['user_id'], message: 'give either user_id, or team_id with strategy round_robin' });
        if (assign.team_id !== undefined && assign.strategy === undefined)
          issues.addIssue({ code: 'custom', path: ['strategy'], message: 'must be round_robin with team_id' });
        if (assign.team_id === undefined && (assign.strategy !== undefined || assign.capacity !== undefined))
          issues.addIssue({ code: 'custom', path: ['team_id'], message: 'is required with strategy and capacity' });
      }),
    z
      .object({
        type: z.literal('set_status'),
        status: z.enum(['active', 'pending', 'closed', 'snoozed'], { message: 'must be active, pending, closed or snoozed' }),
        until: snoozeLength.optional(),
      })
      .strict()
      .superRefine((change, issues) => {
        if ((change.status === 'snoozed') !== (change.until !== undefined))
          issues.addIssue({
            code: 'custom',
            path: ['until'],
            message: change.status === 'snoozed' ? 'is required to snooze' : 'is only for status snoozed',
          });
      }),
    z.object({ type: z.literal('reply'), text: text(4096) }).strict(),
    z
      .object({
        type: z.literal('send_template'),
        name: text(512),
        language: text(20),
        parameters: z.array(z.string().max(1024)).max(20).default([]),
      })
      .strict(),
    z.object({ type: z.literal('agent'), enabled: z.boolean({ message: 'must be true or false' }) }).strict(),
    z.object({ type: z.literal('note'), body: text(4000) }).strict(),
    z.object({ type: z.literal('webhook'), url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }) }).strict(),
    z
      .object({
        type: z.literal('set_contact_field'),
        field: z.enum(CONTACT_FIELDS, { message: `must be one of ${CONTACT_FIELDS.join(', ')}` }),
        value: z.string().max(1000),
      })
      .strict(),
  ],
  {
    message:
      'must name a known action type: add_tag, remove_tag, assign, set_status, reply, send_template, agent, note, webhook, set_contact_field',
  },
);
export type Action = z.infer<typeof action>;

export const actions = z
  .array(action)
  .min(1, { message: 'must have at least 1 action' })
  .max(MAX_ACTIONS, { message: `must have at most ${MAX_ACTIONS} actions` });

export const ruleName = text(200);

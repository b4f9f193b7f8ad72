// Automations: rules as data ({name, enabled, trigger, conditions, actions}, the JSON of docs/api-decisions.md,
// "Automations", as JSON scalars so REST, GraphQL and MCP take the same document), their run log and their dry run.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { pageType } from '../shared/page.js';
import { limitArg } from '../shared/pageLimit.js';
import { createRule, deleteRule, getRule, listRules, updateRule } from '../../resolvers/automations/rules.js';
import { listRuns, runSummaries } from '../../resolvers/automations/runs.js';
import { dryRunRule, DRY_RUN_EVENTS, DRY_RUN_SCHEDULED_MINUTES, type DryRunResult } from '../../resolvers/automations/dryRun.js';
import { MAX_ACTIONS, MAX_CONDITIONS, MAX_RULES_PER_WORKSPACE } from '../../resolvers/automations/ruleInput.js';

const TRIGGER =
  'When the rule runs: {"event": "message.received" | "conversation.created" | "conversation.updated" | "contact.created" | "tag.added"}, {"event": "conversation.waiting", "minutes": 1-10080, "business_hours"?: true} (an inbound message unanswered that long, once per wait), or {"event": "schedule", "cron": "0 9 * * 1-5"} (five fields, in the workspace\'s time zone, once per due minute). contact.created and tag.added have no conversation and schedule has nothing: actions and conditions on what the trigger has not are refused.';
const CONDITIONS = `{"all": [...]} or {"any": [...]} of {field, operator, value} (a group may hold one level of groups), at most ${MAX_CONDITIONS}; {"all": []} always holds. {"field": "business_hours", "operator": "is", "value": "within" | "outside"} reads the workspace's business hours.`;
const ACTIONS = `What the rule does, in order, 1 to ${MAX_ACTIONS}: add_tag {tag}, remove_tag {tag}, assign {user_id} or {team_id, strategy: "round_robin", capacity?}, set_status {status} or {status: "snoozed", until: ISO 8601 duration}, reply {text}, send_template {name, language, parameters}, agent {enabled}, note {body}, webhook {url}, set_contact_field {field, value}.`;
const THROTTLE =
  'When set (1 to 720), the rule acts at most once per conversation in this many hours; later matches record their actions as skipped. null: every time.';

const AutomationRun = builder.prismaObject('AutomationRun', {
  description: 'One run of a rule on one event.',
  fields: (t) => ({
    id: t.exposeID('id'),
    rule_id: t.exposeID('rule_id'),
    event_id: t.exposeString('event_id'),
    conversation_id: t.exposeID('conversation_id', { nullable: true }),
    matched: t.exposeBoolean('matched', { description: 'Whether the conditions held; the actions ran only then.' }),
    actions: t.expose('actions', { type: 'JSONList', description: 'Each action\'s outcome: {type, status: "done" | "failed", error?}.' }),
    started_at: t.expose('started_at', { type: 'DateTime' }),
    duration_ms: t.exposeInt('duration_ms'),
  }),
});

const Automation = builder.prismaObject('AutomationRule', {
  name: 'Automation',
  description: 'A rule: when the trigger happens and the conditions hold, the actions are done.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    enabled: t.exposeBoolean('enabled'),
    trigger: t.expose('trigger', { type: 'JSON', description: TRIGGER }),
    conditions: t.expose('conditions', { type: 'JSON', description: CONDITIONS }),
    actions: t.expose('actions', { type: 'JSONList', description: ACTIONS }),
    once_per_conversation_hours: t.exposeInt('once_per_conversation_hours', { nullable: true, description: THROTTLE }),
    run_count: t.int({
      description: 'How many times the rule ran.',
      resolve: async (rule, _args, ctx) => (await runSummaries(ctx, [rule.id])).get(rule.id)?.run_count ?? 0,
    }),
    last_run_at: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: async (rule, _args, ctx) => (await runSummaries(ctx, [rule.id])).get(rule.id)?.last_run_at ?? null,
    }),
    matched_count: t.relationCount('runs', {
      where: { matched: true },
      description: 'How many of its runs matched (their conditions held, so the actions ran).',
    }),
    last_run: t.field({
      type: AutomationRun,
      nullable: true,
      description: "The newest run: whether it matched and each action's outcome (the console's list shows it).",
      select: { runs: { orderBy: { id: 'desc' }, take: 1 } },
      resolve: (rule) => rule.runs[0] ?? null,
    }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

const AutomationList = pageType('AutomationList', Automation);
const AutomationRunList = pageType('AutomationRunList', AutomationRun);

const DryRunItem = builder.objectRef<DryRunResult>('AutomationTestResult').implement({
  description: 'What the rule would have done on one event.',
  fields: (t) => ({
    event_id: t.exposeString('event_id'),
    event_type: t.exposeString('event_type'),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    matched: t.exposeBoolean('matched'),
    actions: t.expose('actions', { type: 'JSONList', description: 'The actions that would be done (none when not matched).' }),
  }),
});

const DryRun = builder.objectRef<{ evaluated: number; matched: number; results: DryRunResult[] }>('AutomationTest').implement({
  description: 'A dry run: nothing is done and no run is recorded.',
  fields: (t) => ({
    evaluated: t.exposeInt('evaluated'),
    matched: t.exposeInt('matched'),
    results: t.field({ type: [DryRunItem], resolve: (test) => test.results }),
  }),
});

const ruleArgs = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0], required: boolean) => ({
  name: t.arg.string({ required }),
  enabled: t.arg.boolean({ required: false }),
  trigger: t.arg({ type: 'JSON', required, description: TRIGGER }),
  conditions: t.arg({ type: 'JSON', required: false, description: CONDITIONS }),
  actions: t.arg({ type: 'JSONList', required, description: ACTIONS }),
  once_per_conversation_hours: t.arg.int({ required: false, description: THROTTLE }),
});

builder.queryFields((t) => ({
  automations: t.field({
    type: AutomationList,
    description: "The workspace's automations, newest first. `cursor` is the id of the last one seen.",
    authScopes: { permission: 'automations' },
    args: { limit: limitArg(t.arg, 50), cursor: t.arg.id({ required: false }) },
    resolve: (_root, args, ctx, info) =>
      listRules(ctx, { ...args, cursor: args.cursor?.toString() }, queryFromInfo({ context: ctx, info, path: ['data'] })),
  }),
  automation: t.prismaField({
    type: Automation,
    authScopes: { permission: 'automations' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getRule(ctx, { id: String(args.id) }, query),
  }),
  automationRuns: t.field({
    type: AutomationRunList,
    description: "The rule's runs, newest first.",
    authScopes: { permission: 'automations' },
    args: { id: t.arg.id({ required: true }), limit: limitArg(t.arg, 20), cursor: t.arg.id({ required: false }) },
    resolve: (_root, args, ctx, info) =>
      listRuns(
        ctx,
        { ...args, id: String(args.id), cursor: args.cursor?.toString() },
        queryFromInfo({ context: ctx, info, path: ['data'] }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  automationCreate: t.prismaField({
    type: Automation,
    description: `Adds a rule (at most ${MAX_RULES_PER_WORKSPACE} per workspace).`,
    authScopes: { permission: 'automations' },
    args: ruleArgs(t, true),
    resolve: (query, _root, args, ctx) => createRule(ctx, args, query),
  }),
  automationUpdate: t.prismaField({
    type: Automation,
    description: 'Changes what is given; the trigger, conditions and actions are replaced whole.',
    authScopes: { permission: 'automations' },
    args: { id: t.arg.id({ required: true }), ...ruleArgs(t, false) },
    resolve: (query, _root, args, ctx) => updateRule(ctx, { ...args, id: String(args.id) }, query),
  }),
  automationDelete: t.prismaField({
    type: Automation,
    description: 'Deletes a rule and its run log, and returns it.',
    authScopes: { permission: 'automations' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => deleteRule(ctx, { id: String(args.id) }, query),
  }),
  automationTest: t.field({
    type: DryRun,
    description: `Dry run: checks the rule against the workspace's last ${DRY_RUN_EVENTS} events it could start on, or the one event given (a conversation.waiting rule: the conversations waiting now; a schedule: its next ${DRY_RUN_SCHEDULED_MINUTES} due minutes), and reports what it would do, doing nothing.`,
    authScopes: { permission: 'automations' },
    args: { id: t.arg.id({ required: true }), event_id: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => dryRunRule(ctx, { id: String(args.id), event_id: args.event_id }),
  }),
}));

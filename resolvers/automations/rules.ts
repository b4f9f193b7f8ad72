// Automation rules of the caller's workspace: create, list, get, update, delete, each rule checked whole
// (ruleInput.ts; an update as it will be stored, against its trigger: triggers.ts) and at most MAX_RULES_PER_WORKSPACE per workspace (counted under a lock on the workspace's row,
// so two concurrent creations cannot pass the limit together).
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { columnPage } from '../shared/pagination.js';
import { idInput, limit, parseInput, uuid } from '../shared/validation.js';
import {
  actions,
  conditions,
  MAX_RULES_PER_WORKSPACE,
  oncePerConversationHours,
  ruleName,
  type Action,
  type ConditionGroup,
} from './ruleInput.js';
import { assertRuleFitsTrigger, trigger, type Trigger } from './triggers.js';

type Query = { select?: Prisma.AutomationRuleSelect; include?: Prisma.AutomationRuleInclude };

const enabled = z.boolean({ message: 'must be true or false' });
const createInput = z.object({
  name: ruleName,
  enabled: enabled.nullish(),
  trigger,
  conditions,
  actions,
  once_per_conversation_hours: oncePerConversationHours.nullish(),
});
const updateInput = z.object({
  id: uuid,
  name: ruleName.nullish(),
  enabled: enabled.nullish(),
  trigger: trigger.nullish(),
  conditions: conditions.nullish(),
  actions: actions.nullish(),
  /** null clears the throttle; left out keeps it. */
  once_per_conversation_hours: oncePerConversationHours.nullish(),
});
const listInput = z.object({ limit: limit(50), cursor: uuid.nullish() });

export async function findRule(ctx: Context, id: string, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const rule = await ctx.prisma.automationRule.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!rule) throw notFound('Automation');
  return rule;
}

export async function createRule(ctx: Context, input: Record<string, unknown>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const rule = parseInput(createInput, input);
  assertRuleFitsTrigger(rule);
  const { id } = await ctx.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM workspaces WHERE id = ${workspaceId}::uuid FOR UPDATE`;
    if ((await tx.automationRule.count({ where: { company_id: workspaceId } })) >= MAX_RULES_PER_WORKSPACE) {
      throw new DomainError('CONFLICT', `A workspace has at most ${MAX_RULES_PER_WORKSPACE} automations`, {
        limit: MAX_RULES_PER_WORKSPACE,
      });
    }
    return tx.automationRule.create({
      data: {
        company_id: workspaceId,
        name: rule.name,
        enabled: rule.enabled ?? true,
        trigger: rule.trigger,
        trigger_event: rule.trigger.event,
        conditions: rule.conditions,
        actions: rule.actions,
        once_per_conversation_hours: rule.once_per_conversation_hours ?? null,
      },
      select: { id: true },
    });
  });
  return ctx.prisma.automationRule.findUniqueOrThrow({ ...query, where: { id } });
}

export async function listRules(ctx: Context, input: z.input<typeof listInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  return columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    ctx.prisma.automationRule.findMany({ ...query, where: { company_id: workspaceId, ...after }, orderBy, take }),
  );
}

export function getRule(ctx: Context, input: { id: string }, query: Query = {}) {
  const { id } = parseInput(idInput, input);
  return findRule(ctx, id, query);
}

export async function updateRule(ctx: Context, input: Record<string, unknown>, query: Query = {}) {
  const { id, ...changes } = parseInput(updateInput, input);
  const stored = await findRule(ctx, id);
  assertRuleFitsTrigger({
    trigger: changes.trigger ?? (stored.trigger as Trigger),
    conditions: changes.conditions ?? (stored.conditions as ConditionGroup),
    actions: changes.actions ?? (stored.actions as Action[]),
    once_per_conversation_hours:
      changes.once_per_conversation_hours === undefined ? stored.once_per_conversation_hours : changes.once_per_conversation_hours,
  });
  await ctx.prisma.automationRule.update({
    where: { id },
    data: {
      name: changes.name ?? undefined,
      enabled: changes.enabled ?? undefined,
      trigger: changes.trigger ?? undefined,
      trigger_event: changes.trigger?.event,
      conditions: changes.conditions ?? undefined,
      actions: changes.actions ?? undefined,
      once_per_conversation_hours: changes.once_per_conversation_hours,
    },
  });
  return ctx.prisma.automationRule.findUniqueOrThrow({ ...query, where: { id } });
}

export async function deleteRule(ctx: Context, input: { id: string }, query: Query = {}) {
  const { id } = parseInput(idInput, input);
  const rule = await findRule(ctx, id, query);
  await ctx.prisma.automationRule.delete({ where: { id } });
  return rule;
}

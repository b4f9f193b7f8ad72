// Writing templates here (issue 36): create checks Meta's rules (templateRules.ts), submits the template to the
// integration's provider and keeps it with its review's state; update submits new components (and category) for
// review again; delete deletes it at the provider and here. A template is named by the provider's id (the list's
// Template.id); only templates written here can be changed this way. The provider is asked first, so a refusal
// writes nothing; what it answered is stored with the template.status event in one transaction.
import { z } from 'zod';
import type { Integration, MessageTemplate } from '../../prisma/generated/prisma/client.js';
import type { DefinitionComponent, ParameterFormat, TemplateCategory } from '../../adapters/providers/types.js';
import type { Context } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { providerFailure } from '../shared/providerFailure.js';
import { parseInput } from '../shared/validation.js';
import { connectedIntegration, conversationIntegration, providerIntegration } from '../workspace/integrations.js';
import { checkedComponents, templateFields } from './templateRules.js';
import { recordTemplateEvent } from './templateStatus.js';
import { templateOfRow } from './tracked.js';

const createInput = z.object({
  provider: z.string().trim().min(1).max(64).nullish(),
  ...templateFields,
});
const updateInput = z.object({
  id: z
    .string()
    .trim()
    .regex(/^\d{1,32}$/, { message: 'must be a template id' }),
  category: templateFields.category.nullish(),
  components: templateFields.components.nullish(),
});
const deleteInput = updateInput.pick({ id: true });

async function provided<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw providerFailure(error);
  }
}

function providerOf(ctx: Context, integration: Integration) {
  return ctx.messaging.for(providerIntegration(ctx.secrets, integration));
}

export async function createTemplate(ctx: Context, raw: z.input<typeof createInput>) {
  const input = parseInput(createInput, raw);
  const format: ParameterFormat = input.parameter_format;
  const components = checkedComponents(input.components, format);
  const { workspaceId } = requireActor(ctx);
  const integration = await connectedIntegration(ctx.prisma, workspaceId, input.provider);
  const existing = await ctx.prisma.messageTemplate.findUnique({
    where: { integration_id_name_language: { integration_id: integration.id, name: input.name, language: input.language } },
    select: { provider_template_id: true },
  });
  if (existing) {
    throw new DomainError('CONFLICT', `Template ${input.name} (${input.language}) already exists`, {
      name: 'a template of this name and language exists',
      id: existing.provider_template_id,
    });
  }
  const definition = { name: input.name, language: input.language, category: input.category, parameter_format: format, components };
  const submitted = await provided(providerOf(ctx, integration).createTemplate(definition));
  const now = new Date();
  const row = await ctx.prisma.$transaction(async (tx) => {
    const created = await tx.messageTemplate.create({
      data: {
        company_id: workspaceId,
        integration_id: integration.id,
        provider_template_id: submitted.id,
        name: input.name,
        language: input.language,
        category: submitted.category,
        parameter_format: format,
        components,
        status: submitted.status,
        status_history: [{ status: submitted.status, reason: null, at: now.toISOString() }],
        review_due_at: submitted.reviewDueAt ?? null,
      },
    });
    await recordTemplateEvent(tx, created, 'submitted', null);
    return created;
  });
  return templateOfRow(row);
}

async function writtenHere(ctx: Context, id: string): Promise<{ row: MessageTemplate; integration: Integration }> {
  const { workspaceId } = requireActor(ctx);
  const row = await ctx.prisma.messageTemplate.findFirst({ where: { company_id: workspaceId, provider_template_id: id } });
  if (!row) throw notFound('Template written here');
  return { row, integration: await conversationIntegration(ctx.prisma, workspaceId, row.integration_id) };
}

export async function updateTemplate(ctx: Context, raw: z.input<typeof updateInput>) {
  const input = parseInput(updateInput, raw);
  const { row, integration } = await writtenHere(ctx, input.id);
  if (row.status === 'PENDING') {
    throw new DomainError('CONFLICT', 'The template is under review; it can be edited once the provider has decided', {
      status: row.status,
    });
  }
  const category = (input.category ?? row.category) as TemplateCategory;
  const components = input.components
    ? checkedComponents(input.components, row.parameter_format as ParameterFormat)
    : (row.components as DefinitionComponent[]);
  const edited = await provided(providerOf(ctx, integration).editTemplate(row.provider_template_id, { category, components }));
  const now = new Date();
  const updated = await ctx.prisma.$transaction(async (tx) => {
    const history = [...(row.status_history as object[]), { status: 'PENDING', reason: null, at: now.toISOString() }];
    const changed = await tx.messageTemplate.update({
      where: { id: row.id },
      data: {
        category,
        components,
        status: 'PENDING',
        rejected_reason: null,
        status_history: history,
        review_due_at: edited.reviewDueAt ?? null,
      },
    });
    await recordTemplateEvent(tx, changed, 'submitted', row.status);
    return changed;
  });
  return templateOfRow(updated);
}

export async function deleteTemplate(ctx: Context, raw: z.input<typeof deleteInput>) {
  const input = parseInput(deleteInput, raw);
  const { row, integration } = await writtenHere(ctx, input.id);
  await provided(providerOf(ctx, integration).deleteTemplate({ id: row.provider_template_id, name: row.name }));
  await ctx.prisma.messageTemplate.delete({ where: { id: row.id } });
  return templateOfRow(row);
}

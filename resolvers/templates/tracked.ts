// The templates written here as the spec's Template: their stored row (what was submitted and what the provider
// decided since) read into the form the provider's list has, which it overlays (adapters/providers/registry.ts).
import type { MessageTemplate } from '../../prisma/generated/prisma/client.js';
import { templateOfDefinition } from '../../adapters/providers/templateDefinition.js';
import type {
  DefinitionComponent,
  ParameterFormat,
  ProviderIntegration,
  Template,
  TemplateCategory,
  TemplateStatus,
  TemplateStatusChange,
} from '../../adapters/providers/types.js';
import type { Db } from '../shared/context.js';

export function templateOfRow(row: MessageTemplate): Template {
  const template = templateOfDefinition(
    {
      id: row.provider_template_id,
      name: row.name,
      language: row.language,
      status: row.status as TemplateStatus,
      category: row.category as TemplateCategory,
      ...(row.quality_score
        ? { quality_score: { score: row.quality_score, date: Math.floor((row.quality_updated_at ?? row.updated_at).getTime() / 1000) } }
        : {}),
      ...(row.rejected_reason ? { rejected_reason: row.rejected_reason } : {}),
    },
    row.components as DefinitionComponent[],
  );
  return {
    ...template,
    parameter_format: row.parameter_format as ParameterFormat,
    status_history: row.status_history as TemplateStatusChange[],
  };
}

/** The templates written here for one integration (the sandbox's business account, the overlay of any list). */
export async function trackedTemplates(db: Db, integration: Pick<ProviderIntegration, 'id'>): Promise<Template[]> {
  const rows = await db.messageTemplate.findMany({ where: { integration_id: integration.id }, orderBy: { id: 'asc' } });
  return rows.map(templateOfRow);
}

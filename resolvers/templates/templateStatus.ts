// What the provider decides about a template written here, stored on it and recorded as a template.status event
// in the same transaction: a review's status with its reason (message_template_status_update), a quality score
// (message_template_quality_update) or a new category (template_category_update). The provider's webhooks and
// the sandbox's review (decided by workers/templates/reviewer.ts when due) both come through applyTemplateChange.
// A change about a template not written here has nothing to update and is ignored.
import type { MessageTemplate } from '../../prisma/generated/prisma/client.js';
import { sandboxReview } from '../../adapters/providers/sandbox.js';
import type { DefinitionComponent, TemplateCategory, TemplateStatus, TemplateStatusChange } from '../../adapters/providers/types.js';
import type { Db, Services } from '../shared/context.js';
import { recordEvent } from '../shared/outbox.js';
import { templateOfRow } from './tracked.js';

export type TemplateChange =
  | { kind: 'status'; status: TemplateStatus; reason: string | null }
  | { kind: 'quality'; score: string }
  | { kind: 'category'; category: TemplateCategory };

/** What the change writes on the row. */
function changedColumns(row: MessageTemplate, change: TemplateChange, at: Date) {
  switch (change.kind) {
    case 'status': {
      const entry: TemplateStatusChange = { status: change.status, reason: change.reason, at: at.toISOString() };
      return {
        status: change.status,
        rejected_reason: change.status === 'REJECTED' ? (change.reason ?? 'UNKNOWN') : null,
        status_history: [...(row.status_history as TemplateStatusChange[]), entry],
      };
    }
    case 'quality':
      return { quality_score: change.score, quality_updated_at: at };
    case 'category':
      return { category: change.category };
  }
}

/** Records the template's template.status event: the template as it now stands, what changed and what it was. */
export async function recordTemplateEvent(db: Db, row: MessageTemplate, change: TemplateChange['kind'] | 'submitted', previous: unknown) {
  await recordEvent(db, {
    workspaceId: row.company_id,
    type: 'template.status',
    data: { template: templateOfRow(row), change, previous },
  });
}

/** Applies one change to the template the provider names by id, in `db`'s transaction; false when none is written here. */
export async function applyTemplateChange(
  db: Db,
  target: { integrationId: string; providerTemplateId: string },
  change: TemplateChange,
  at = new Date(),
): Promise<boolean> {
  const row = await db.messageTemplate.findUnique({
    where: {
      integration_id_provider_template_id: { integration_id: target.integrationId, provider_template_id: target.providerTemplateId },
    },
  });
  if (!row) return false;
  const previous = change.kind === 'status' ? row.status : change.kind === 'quality' ? row.quality_score : row.category;
  const updated = await db.messageTemplate.update({ where: { id: row.id }, data: changedColumns(row, change, at) });
  await recordTemplateEvent(db, updated, change.kind, previous);
  return true;
}

/**
 * Decides the sandbox reviews that are due, each in its own transaction: the row is claimed by clearing its due
 * time (so two workers never decide one review twice) and the decision applied as a webhook's would be. Returns
 * how many it decided.
 */
export async function decideDueSandboxReviews(services: Pick<Services, 'prisma'>, limit: number, now = new Date()): Promise<number> {
  const due = await services.prisma.messageTemplate.findMany({
    where: { review_due_at: { lte: now } },
    select: { id: true, review_due_at: true },
    orderBy: { review_due_at: 'asc' },
    take: limit,
  });
  for (const { id, review_due_at: dueAt } of due) {
    await services.prisma.$transaction(async (tx) => {
      const claimed = await tx.messageTemplate.updateMany({ where: { id, review_due_at: dueAt }, data: { review_due_at: null } });
      if (claimed.count !== 1) return;
      const row = await tx.messageTemplate.findUniqueOrThrow({ where: { id } });
      const decision = sandboxReview(row.components as DefinitionComponent[]);
      await applyTemplateChange(
        tx,
        { integrationId: row.integration_id, providerTemplateId: row.provider_template_id },
        { kind: 'status', status: decision.status, reason: decision.reason },
      );
    });
  }
  return due.length;
}

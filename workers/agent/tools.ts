// Runs the llm agent's tools (adapters/agent/tools.ts) as GraphQL operations under the run's agent actor, whose
// scopes the workspace chose (tool_scopes): a tool outside them gets INSUFFICIENT_SCOPE back, like any key. The
// contact is the conversation's own; results and refusals go back to the model as JSON.
import type { Actor } from '../../resolvers/shared/context.js';
import { isAgentToolName } from '../../adapters/agent/tools.js';
import { operationOutcome, type OperationOutcome, type RunOperation } from './operations.js';

const DAY_MS = 86_400_000;
const MAX_SLOTS = 20;

type ToolRun = { runOperation: RunOperation; actor: Actor; contactId: string };

const call = (run: ToolRun, name: string, variables: Record<string, unknown>) =>
  operationOutcome(run.runOperation, { actor: run.actor, name, variables });

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

function reported(outcome: OperationOutcome): unknown {
  return outcome.ok ? outcome.data : { error: { code: outcome.code, message: outcome.message, details: outcome.details } };
}

async function freeSlots(run: ToolRun, args: Record<string, unknown>): Promise<unknown> {
  const typeId = text(args['appointment_type_id']);
  if (!typeId) return reported(await call(run, 'AppointmentTypesList', { active: true }));
  const from = text(args['from']) ?? new Date().toISOString();
  const days = typeof args['days'] === 'number' && args['days'] >= 1 && args['days'] <= 14 ? Math.floor(args['days']) : 7;
  const start = new Date(from);
  if (Number.isNaN(start.getTime())) return { error: { code: 'VALIDATION_ERROR', message: 'from must be an ISO 8601 date-time' } };
  const outcome = await call(run, 'CalendarSlotsList', {
    appointment_type_id: typeId,
    from: start.toISOString(),
    to: new Date(start.getTime() + days * DAY_MS).toISOString(),
  });
  if (!outcome.ok) return reported(outcome);
  const slots = (outcome.data as { slots: unknown[] }).slots;
  return { ...(outcome.data as object), slots: slots.slice(0, MAX_SLOTS), more: slots.length > MAX_SLOTS };
}

async function tagContact(run: ToolRun, args: Record<string, unknown>): Promise<unknown> {
  const name = text(args['tag']);
  if (!name) return { error: { code: 'VALIDATION_ERROR', message: 'tag is required' } };
  const listed = await call(run, 'Tags', {});
  if (!listed.ok) return reported(listed);
  const tags = (listed.data as { tags: { id: string; name: string }[] }).tags;
  let tagId = tags.find((tag) => tag.name.toLowerCase() === name.toLowerCase())?.id;
  if (!tagId) {
    const created = await call(run, 'TagCreate', { name });
    if (!created.ok) return reported(created);
    tagId = (created.data as { id: string }).id;
  }
  return reported(await call(run, 'TagAssign', { customer_id: run.contactId, tag_id: tagId }));
}

/** Runs one tool call of the model; unknown tools and bad arguments come back as errors the model can read. */
export async function runAgentTool(run: ToolRun, name: string, args: Record<string, unknown>): Promise<unknown> {
  if (!isAgentToolName(name)) return { error: { code: 'VALIDATION_ERROR', message: `There is no tool named ${name}` } };
  switch (name) {
    case 'free_slots':
      return freeSlots(run, args);
    case 'book_appointment':
      return reported(
        await call(run, 'AppointmentBook', {
          customer_id: run.contactId,
          appointment_type_id: text(args['appointment_type_id']) ?? '',
          start_at: text(args['start_at']) ?? '',
          notes: text(args['notes']) ?? null,
        }),
      );
    case 'update_contact': {
      const variables = { id: run.contactId, name: text(args['name']), email: text(args['email']), notes: text(args['notes']) };
      return reported(await call(run, 'ContactUpdate', variables));
    }
    case 'tag_contact':
      return tagContact(run, args);
    case 'hand_off':
      // The agent itself turns hand_off into its decision; it never reaches here.
      return { error: { code: 'VALIDATION_ERROR', message: 'hand_off ends the reply' } };
  }
}

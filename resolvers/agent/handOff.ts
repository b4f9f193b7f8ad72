// Handing a conversation from the AI agent to people: service_enabled turns off, the conversation is assigned
// (to the workspace's hand-off user, else to its active members in turn), a note records why, and a
// conversation.handoff event goes to the outbox, all in one transaction. The agent runner calls it for every
// rule (keyword, replies in a row, no confident answer, model failure, budget) and for the model's own
// hand_off tool call.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { Db } from '../shared/context.js';
import { recordEvent } from '../shared/outbox.js';
import { agentSettingsOf } from './settings.js';

export const HANDOFF_REASONS = [
  'keyword',
  'consecutive_replies',
  'no_confident_answer',
  'model_failure',
  'provider_failure',
  'budget',
  'model_request',
  'agent_failure',
] as const;
export type HandOffReason = (typeof HANDOFF_REASONS)[number];

export type HandOff = { workspaceId: string; conversationId: string; runId: string; reason: HandOffReason; detail: string };

export type HandOffEventData = {
  conversation_id: string;
  run_id: string;
  reason: HandOffReason;
  detail: string;
  assigned_user_id: string | null;
};

/** The member who takes the conversation: the configured one while active, else the next active member after the last. */
async function assignee(tx: Db, workspaceId: string): Promise<string | null> {
  const settings = await agentSettingsOf(tx, workspaceId);
  if (settings.handoff_user_id) {
    const fixed = await tx.user.findFirst({
      where: { id: settings.handoff_user_id, company_id: workspaceId, status: 'active' },
      select: { id: true },
    });
    if (fixed) return fixed.id;
  }
  const members = await tx.user.findMany({
    where: { company_id: workspaceId, status: 'active' },
    orderBy: { id: 'asc' },
    select: { id: true },
  });
  if (members.length === 0) return null;
  const last = settings.last_handoff_user_id;
  const next = members.find((member) => last !== null && member.id > last) ?? members[0]!;
  await tx.agentSettings.upsert({
    where: { company_id: workspaceId },
    create: { company_id: workspaceId, last_handoff_user_id: next.id },
    update: { last_handoff_user_id: next.id },
  });
  return next.id;
}

export function handOffConversation(prisma: PrismaClient, handOff: HandOff): Promise<HandOffEventData> {
  return prisma.$transaction(async (tx) => {
    // The conversation's row lock: concurrent hand-offs of one conversation take turns.
    await tx.$queryRaw`SELECT id FROM conversations WHERE id = ${handOff.conversationId}::uuid FOR UPDATE`;
    const assigned_user_id = await assignee(tx, handOff.workspaceId);
    await tx.conversation.update({ where: { id: handOff.conversationId }, data: { service_enabled: false, assigned_user_id } });
    await tx.note.create({
      data: {
        company_id: handOff.workspaceId,
        conversation_id: handOff.conversationId,
        body: `The AI agent handed this conversation over (${handOff.reason}): ${handOff.detail}`,
      },
    });
    const data: HandOffEventData = {
      conversation_id: handOff.conversationId,
      run_id: handOff.runId,
      reason: handOff.reason,
      detail: handOff.detail,
      assigned_user_id,
    };
    await recordEvent(tx, { workspaceId: handOff.workspaceId, type: 'conversation.handoff', data });
    return data;
  });
}

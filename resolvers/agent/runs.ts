// Agent runs: one per inbound message on a conversation with service_enabled on, created in the transaction
// that stores the message (enqueueAgentRun), worked by workers/agent, listed by agentRuns (a conversation's or the workspace's).
// The steps below are the runner's writes; each is fenced by the attempt number the claim gave, so a worker
// whose lease ran out (and whose run another worker took over) changes nothing.
import { z } from 'zod';
import type { AgentRun, Prisma, PrismaClient } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { columnPage } from '../shared/pagination.js';
import { limit, parseInput, uuid } from '../shared/validation.js';
import type { AgentPassage } from '../../adapters/agent/types.js';

/** What a reply was drawn from (adapters/agent/types.ts AnswerSource), as stored on the run. */
export type AnswerSourceRecord = { kind: string } & Record<string, unknown>;
/** Answer sources that mean the agent had no answer: a second one in a row hands off. */
export const MISS_KINDS: readonly string[] = ['no_answer', 'language'];

export const RUN_STATUSES = ['pending', 'running', 'replied', 'handed_off', 'skipped', 'failed'] as const;
export type FinalRunStatus = 'replied' | 'handed_off' | 'skipped' | 'failed';

export type ToolCallRecord = { name: string; arguments: unknown; result: unknown };

/** A run as the runner claimed it: `attempt_count` fences its writes. */
export type ClaimedRun = AgentRun;

export async function enqueueAgentRun(tx: Db, run: { workspaceId: string; conversationId: string; messageId: string }): Promise<void> {
  await tx.agentRun.create({ data: { company_id: run.workspaceId, conversation_id: run.conversationId, message_id: run.messageId } });
}

const listInput = z.object({
  conversation_id: uuid.nullish(),
  status: z.enum(RUN_STATUSES, { message: `must be one of ${RUN_STATUSES.join(', ')}` }).nullish(),
  limit: limit(20),
  cursor: uuid.nullish(),
});

/** The conversation's runs, or without one the workspace's, newest first; optionally of one status. */
export async function listAgentRuns(
  ctx: Context,
  input: Omit<z.input<typeof listInput>, 'status'> & { status?: string | null },
  query: { select?: Prisma.AgentRunSelect } = {},
) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  if (args.conversation_id) {
    const conversation = await ctx.prisma.conversation.findFirst({
      where: { id: args.conversation_id, company_id: workspaceId },
      select: { id: true },
    });
    if (!conversation) throw notFound('Conversation');
  }
  const where = {
    company_id: workspaceId,
    ...(args.conversation_id ? { conversation_id: args.conversation_id } : {}),
    ...(args.status ? { status: args.status } : {}),
  };
  return columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    ctx.prisma.agentRun.findMany({ ...query, where: { ...where, ...after }, orderBy, take }),
  );
}

const fence = (run: ClaimedRun) => ({ id: run.id, status: 'running', attempt_count: run.attempt_count });

/** Records what the run learned so far (passages, tool calls, usage); false if the run is no longer this worker's. */
export async function recordRunProgress(
  prisma: PrismaClient,
  run: ClaimedRun,
  progress: {
    kind?: string;
    passages?: AgentPassage[];
    answerSource?: AnswerSourceRecord | null;
    explanation?: string;
    toolCalls?: ToolCallRecord[];
    modelCalls?: number;
    promptTokens?: number;
    completionTokens?: number;
  },
): Promise<boolean> {
  const { count } = await prisma.agentRun.updateMany({
    where: fence(run),
    data: {
      ...(progress.kind ? { kind: progress.kind } : {}),
      ...(progress.passages ? { passages: progress.passages } : {}),
      ...(progress.answerSource ? { answer_source: progress.answerSource as Prisma.InputJsonValue } : {}),
      ...(progress.explanation ? { explanation: progress.explanation } : {}),
      ...(progress.toolCalls ? { tool_calls: progress.toolCalls as Prisma.InputJsonValue } : {}),
      ...(progress.modelCalls !== undefined ? { model_calls: progress.modelCalls } : {}),
      ...(progress.promptTokens !== undefined ? { prompt_tokens: progress.promptTokens } : {}),
      ...(progress.completionTokens !== undefined ? { completion_tokens: progress.completionTokens } : {}),
    },
  });
  return count > 0;
}

/** Whether the run is still this worker's (no other worker took it over after its lease ran out). */
export async function stillClaimed(prisma: PrismaClient, run: ClaimedRun): Promise<boolean> {
  return (await prisma.agentRun.count({ where: fence(run) })) > 0;
}

/** Keeps the reply before it is sent: a run resumed after a crash sends this text (under the same key) instead of asking again. */
export async function recordDecidedReply(prisma: PrismaClient, run: ClaimedRun, reply: string): Promise<boolean> {
  const { count } = await prisma.agentRun.updateMany({ where: fence(run), data: { reply } });
  return count > 0;
}

export async function finishRun(
  prisma: PrismaClient,
  run: ClaimedRun,
  outcome: {
    status: FinalRunStatus;
    replyMessageId?: string | null;
    handoffReason?: string | null;
    error?: string | null;
    latencyMs: number;
  },
): Promise<boolean> {
  const { count } = await prisma.agentRun.updateMany({
    where: fence(run),
    data: {
      status: outcome.status,
      reply_message_id: outcome.replyMessageId ?? null,
      handoff_reason: outcome.handoffReason ?? null,
      error: outcome.error ?? null,
      // A reply's explanation was recorded with it; any other end explains itself.
      ...(outcome.status === 'replied'
        ? {}
        : { explanation: outcome.handoffReason ? `handed off (${outcome.handoffReason}): ${outcome.error}` : outcome.error }),
      latency_ms: outcome.latencyMs,
      lease_until: null,
      finished_at: new Date(),
    },
  });
  return count > 0;
}

/** Gives a run that failed in a way that may pass back to the queue, due again at `retryAt`. */
export async function retryRunLater(prisma: PrismaClient, run: ClaimedRun, retryAt: Date, error: string): Promise<void> {
  await prisma.agentRun.updateMany({ where: fence(run), data: { status: 'pending', lease_until: null, next_attempt_at: retryAt, error } });
}

/** Model calls and tokens the workspace's runs used since `since` (the start of the UTC day). */
export async function agentUsageSince(db: Db, workspaceId: string, since: Date): Promise<{ modelCalls: number; tokens: number }> {
  const usage = await db.agentRun.aggregate({
    where: { company_id: workspaceId, created_at: { gte: since } },
    _sum: { model_calls: true, prompt_tokens: true, completion_tokens: true },
  });
  return {
    modelCalls: usage._sum.model_calls ?? 0,
    tokens: (usage._sum.prompt_tokens ?? 0) + (usage._sum.completion_tokens ?? 0),
  };
}

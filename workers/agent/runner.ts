// Works one claimed agent run (workers/agent/queue.ts): gathers what the agent knows (resolvers/agent), applies
// the rules that need no model (the agent still on, the conversation open, the 24-hour window, the hand-off
// keywords, the run of agent replies in a row, the daily budget), asks the workspace's agent, and carries its
// decision out: the reply through MessageSend under the agent's actor with the Idempotency-Key `agent-run-<id>`,
// or the hand-off (resolvers/agent/handOff.ts).
//
// At most one reply per inbound message, also across a crash: the reply text is stored on the run before it is
// sent, so a run taken over after its worker died sends that same text under the same key. If the first send
// completed, the key replays it (no second message); if the worker died inside the send, the key is still in use
// and the run fails as REPLY_OUTCOME_UNKNOWN rather than risk a second message.
import type { Logger } from 'pino';
import type { AgentSettings } from '../../prisma/generated/prisma/client.js';
import type { Services } from '../../resolvers/shared/context.js';
import { agentSettingsOf } from '../../resolvers/agent/settings.js';
import { messagingWindow } from '../../resolvers/messaging/window.js';
import { agentConversation, type AgentConversation } from '../../resolvers/agent/conversationContext.js';
import { retrieveKnowledge } from '../../resolvers/agent/retrieval.js';
import { handOffConversation, type HandOffReason } from '../../resolvers/agent/handOff.js';
import {
  agentUsageSince,
  finishRun,
  recordDecidedReply,
  recordRunProgress,
  retryRunLater,
  stillClaimed,
  type ClaimedRun,
} from '../../resolvers/agent/runs.js';
import { createChatClient } from '../../adapters/agent/chatClient.js';
import { createOutboundClient } from '../../infra/net/outbound.js';
import { knowledgeAgent } from '../../adapters/agent/knowledgeAgent.js';
import { llmAgent } from '../../adapters/agent/llmAgent.js';
import { PERSON_WORDS } from '../../adapters/agent/phrases.js';
import type { AgentDecision, ConversationAgent } from '../../adapters/agent/types.js';
import { agentActor, operationOutcome, type RunOperation } from './operations.js';
import { runAgentTool } from './tools.js';
import type { AgentWorkerOptions } from './options.js';

/** The agent's sends need only this scope; its tools get the workspace's tool_scopes. */
const SEND_SCOPES = ['messages'];

type Outcome =
  | { status: 'replied'; replyMessageId: string }
  | { status: 'handed_off'; reason: HandOffReason; detail: string }
  | { status: 'skipped' | 'failed'; error: string };

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Whether the message holds one of the keywords as a word of its own, in any case. */
export function mentionsKeyword(body: string, keywords: readonly string[]): string | null {
  const words = body.toLowerCase();
  return (
    keywords.find((keyword) => {
      const escaped = keyword.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(words);
    }) ?? null
  );
}

export function createAgentRunner(services: Services, runOperation: RunOperation, options: AgentWorkerOptions, logger: Logger) {
  const { prisma } = services;
  // The saved model URL is judged again at every call, where it connects: by the guard its host was saved under.
  const modelHttp = createOutboundClient({ guard: services.webhookTargets, userAgent: `MessagingCRM-Agent/${services.version}` });

  async function agentFor(run: ClaimedRun, settings: AgentSettings, seen: AgentConversation): Promise<ConversationAgent | HandOffReason> {
    if (settings.kind !== 'llm' || !settings.llm_base_url || !settings.llm_model) {
      return knowledgeAgent({ threshold: settings.knowledge_threshold });
    }
    const used = await agentUsageSince(prisma, run.company_id, startOfUtcDay(options.clock()));
    const callsLeft = settings.daily_model_calls - used.modelCalls;
    const tokensLeft = settings.daily_tokens - used.tokens;
    if (callsLeft <= 0 || tokensLeft <= 0) return 'budget';
    const client = createChatClient(
      modelHttp,
      {
        baseUrl: settings.llm_base_url,
        model: settings.llm_model,
        apiKey: settings.llm_api_key ? services.secrets.open(settings.llm_api_key) : null,
        temperature: settings.temperature,
        maxTokens: settings.max_tokens,
        timeoutMs: settings.call_timeout_ms,
      },
      options.chat,
    );
    const toolRun = { runOperation, actor: agentActor(run.company_id, run.id, settings.tool_scopes), contactId: seen.contact.id };
    return llmAgent({
      client,
      systemPrompt: settings.system_prompt,
      maxToolCalls: settings.max_tool_calls,
      maxModelCalls: Math.min(callsLeft, settings.max_tool_calls + 2),
      tokensLeft,
      runTool: (name, args) => runAgentTool(toolRun, name, args),
    });
  }

  async function send(run: ClaimedRun, body: string): Promise<Outcome> {
    const outcome = await operationOutcome(runOperation, {
      actor: agentActor(run.company_id, run.id, SEND_SCOPES),
      name: 'MessageSend',
      variables: { conversation_id: run.conversation_id, body },
      idempotencyKey: `agent-run-${run.id}`,
    });
    if (outcome.ok) return { status: 'replied', replyMessageId: (outcome.data as { message: { id: string } }).message.id };
    switch (outcome.code) {
      case 'IDEMPOTENCY_KEY_IN_USE':
      case 'IDEMPOTENCY_KEY_REUSED':
        return { status: 'failed', error: 'REPLY_OUTCOME_UNKNOWN: an earlier attempt was cut off while sending; not sent again' };
      case 'PROVIDER_ERROR':
      case 'INTEGRATION_NOT_FOUND':
        return { status: 'handed_off', reason: 'provider_failure', detail: outcome.message };
      default:
        return { status: 'skipped', error: `${outcome.code}: ${outcome.message}` };
    }
  }

  async function decide(run: ClaimedRun, settings: AgentSettings, seen: AgentConversation): Promise<AgentDecision | Outcome> {
    const keyword = mentionsKeyword(seen.message.body, [...settings.handoff_keywords, ...PERSON_WORDS]);
    if (keyword) return { status: 'handed_off', reason: 'keyword', detail: `the contact wrote "${keyword}" (asked for a person)` };
    if (seen.agentRepliesInARow >= settings.max_consecutive_replies) {
      return { status: 'handed_off', reason: 'consecutive_replies', detail: `${seen.agentRepliesInARow} agent replies in a row` };
    }
    const previousQuestion = seen.recent.filter((line) => line.from === 'contact').at(-2)?.body ?? null;
    const { passages, ...knowledge } = await retrieveKnowledge(prisma, run.company_id, {
      question: seen.message.body,
      previousQuestion,
      defaultLanguage: settings.default_language,
    });
    await recordRunProgress(prisma, run, { kind: settings.kind, passages });
    const agent = await agentFor(run, settings, seen);
    if (typeof agent === 'string') return { status: 'handed_off', reason: agent, detail: "the workspace's daily model budget is used up" };
    return agent.decide({
      question: seen.message.body,
      recent: seen.recent.map((line) => ({ from: line.from, body: line.body })),
      contact: seen.contact,
      passages,
      knowledge,
      missedBefore: seen.lastAnswerMissed,
      greeting: seen.agentHasReplied ? null : settings.greeting,
    });
  }

  async function work(run: ClaimedRun): Promise<Outcome> {
    const seen = await agentConversation(prisma, run.message_id);
    if (!seen) return { status: 'skipped', error: 'the message is gone' };
    if (!seen.conversation.service_enabled) return { status: 'skipped', error: 'the agent is switched off on this conversation' };
    if (seen.conversation.status === 'closed') return { status: 'skipped', error: 'the conversation is closed' };
    if (!messagingWindow(seen.conversation, options.clock().getTime()).open) {
      return { status: 'skipped', error: 'the 24-hour window is closed' };
    }
    if (run.reply !== null) return send(run, run.reply);
    const settings = await agentSettingsOf(prisma, run.company_id);
    const decision = await decide(run, settings, seen);
    if ('status' in decision) return decision;
    await recordRunProgress(prisma, run, {
      toolCalls: decision.toolCalls,
      modelCalls: decision.usage.modelCalls,
      promptTokens: decision.usage.promptTokens,
      completionTokens: decision.usage.completionTokens,
    });
    if (decision.kind === 'handoff') return { status: 'handed_off', reason: decision.reason, detail: decision.detail };
    await recordRunProgress(prisma, run, { answerSource: decision.source, explanation: decision.explanation });
    if (!(await recordDecidedReply(prisma, run, decision.text))) return { status: 'failed', error: 'the run was taken over' };
    return send(run, decision.text);
  }

  async function conclude(run: ClaimedRun, outcome: Outcome, started: number): Promise<void> {
    const latencyMs = Date.now() - started;
    if (outcome.status === 'handed_off') {
      // A run that no longer holds its claim hands nothing off: its successor decides.
      if (!(await stillClaimed(prisma, run))) return;
      await handOffConversation(prisma, {
        workspaceId: run.company_id,
        conversationId: run.conversation_id,
        runId: run.id,
        reason: outcome.reason,
        detail: outcome.detail,
      });
      await finishRun(prisma, run, { status: 'handed_off', handoffReason: outcome.reason, error: outcome.detail, latencyMs });
      return;
    }
    if (outcome.status === 'replied')
      await finishRun(prisma, run, { status: 'replied', replyMessageId: outcome.replyMessageId, latencyMs });
    else await finishRun(prisma, run, { status: outcome.status, error: outcome.error, latencyMs });
  }

  return {
    /** Works the run to its end; an unexpected failure is retried with back-off, and after the last attempt handed to people. */
    async process(run: ClaimedRun): Promise<void> {
      const started = Date.now();
      try {
        if (run.attempt_count > options.maxAttempts) {
          await conclude(
            run,
            { status: 'handed_off', reason: 'agent_failure', detail: `the run failed ${options.maxAttempts} times` },
            started,
          );
          return;
        }
        await conclude(run, await work(run), started);
      } catch (error) {
        logger.error({ err: error, run_id: run.id, attempt: run.attempt_count }, 'agent run failed; it will be retried');
        const message = error instanceof Error ? error.message : String(error);
        if (run.attempt_count >= options.maxAttempts) {
          await conclude(run, { status: 'handed_off', reason: 'agent_failure', detail: message }, started).catch((err: unknown) =>
            logger.error({ err, run_id: run.id }, 'agent run could not be handed off; its lease runs out and it is taken over'),
          );
          return;
        }
        const retryAt = new Date(options.clock().getTime() + options.retryDelayMs * 2 ** (run.attempt_count - 1));
        await retryRunLater(prisma, run, retryAt, message).catch((err: unknown) =>
          logger.error({ err, run_id: run.id }, 'agent run not released; its lease runs out and it is taken over'),
        );
      }
    },
  };
}

export type AgentRunner = ReturnType<typeof createAgentRunner>;

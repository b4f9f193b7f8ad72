// The AI agent tests' world: the messaging world on the sandbox provider (model endpoints on 127.0.0.1 allowed,
// as WEBHOOK_ALLOWED_HOSTS allows them in development), an agent worker polling fast, the fake
// OpenAI-compatible server, and helpers to open a conversation with the agent on and play the contact.
import { LOCAL_RECEIVER_HOSTS } from './webhookReceiver.js';
import { afterAll, expect } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMessagingWorld, type MessagingWorkspace } from './messaging.js';
import { inboundPayload } from './whatsappPayloads.js';
import { startFakeModel } from './fakeModel.js';
import { takeTurnsWithOtherWorkerFiles } from './webhooks.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { createLogger } from '../../infra/observability/logger.js';
import { startAgentWorker } from '../../workers/agent/worker.js';
import { agentOperations } from '../../app/backgroundWork.js';
import type { AgentWorkerOptions } from '../../workers/agent/options.js';

/** Files that run agent workers take turns on a shared PostgreSQL (a worker would claim another file's runs). */
export const AGENT_WORKER_LOCK = 7_340_112_977;

export const FAST_AGENT_OPTIONS: AgentWorkerOptions = {
  pollMs: 20,
  leaseMs: 10_000,
  concurrency: 4,
  maxAttempts: 3,
  retryDelayMs: 50,
  chat: { retries: 2, backoffMs: 10 },
  clock: () => new Date(),
};

export async function openAgentWorld() {
  takeTurnsWithOtherWorkerFiles(AGENT_WORKER_LOCK);
  const world = await openMessagingWorld('sandbox', { webhookTargets: createTargetGuard({ allowedHosts: LOCAL_RECEIVER_HOSTS }) });
  const model = await startFakeModel();
  const worker = startAgentWorker(
    world.harness.services,
    agentOperations(world.harness.services),
    FAST_AGENT_OPTIONS,
    createLogger(process.env['AGENT_TEST_LOG'] === '1' ? 'error' : 'silent'),
  );
  afterAll(() => worker.stop());
  const { harness } = world;
  const prisma = harness.db.prisma;

  async function gql<Data = Record<string, any>>(key: string, query: string, variables: Record<string, unknown> = {}): Promise<Data> {
    const { body } = await harness.graphql<Data>(key, query, variables);
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data as Data;
  }

  /** A workspace whose agent has these settings, and a contact whose conversation has the agent switched on. */
  async function conversation(settings: Record<string, unknown> = {}) {
    const ws = await world.workspace();
    const from = `1555${randomInt(1_000_000, 9_999_999)}`;
    await world.webhook(inboundPayload(ws.phoneNumberId, { from, text: 'Hi' }), ws.appSecret);
    const { id } = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId }, select: { id: true } });
    await gql(ws.apiKey, 'mutation($id: ID!) { conversationUpdate(id: $id, service_enabled: true) { id } }', { id });
    if (Object.keys(settings).length > 0) await configure(ws, settings);
    return { ws, from, conversationId: id, say: (text: string) => say(ws, from, text) };
  }

  async function configure(ws: MessagingWorkspace, settings: Record<string, unknown>) {
    const names = Object.keys(settings);
    const declared = names.map((name) => `$${name}: ${SETTING_TYPES[name]}`).join(', ');
    const passed = names.map((name) => `${name}: $${name}`).join(', ');
    return gql(ws.apiKey, `mutation(${declared}) { agentSettingsUpdate(${passed}) { kind } }`, settings);
  }

  async function say(ws: MessagingWorkspace, from: string, text: string) {
    const response = await world.webhook(inboundPayload(ws.phoneNumberId, { from, text }), ws.appSecret);
    expect(response.status).toBe(200);
  }

  /** The conversation's runs once none is pending or running, oldest first. */
  async function settledRuns(conversationId: string, count: number) {
    await expect
      .poll(() => prisma.agentRun.count({ where: { conversation_id: conversationId, status: { notIn: ['pending', 'running'] } } }), {
        timeout: 15_000,
      })
      .toBe(count);
    return prisma.agentRun.findMany({ where: { conversation_id: conversationId }, orderBy: { id: 'asc' } });
  }

  /** The messages sent on the conversation (outbound), oldest first. */
  const outbound = (conversationId: string) =>
    prisma.message.findMany({ where: { conversation_id: conversationId, direction: 'outbound' }, orderBy: { id: 'asc' } });

  /** Settings that point the workspace's agent at the fake model, under a model name of the test's own. */
  const llm = (name: string, extra: Record<string, unknown> = {}) => ({
    kind: 'llm',
    llm_base_url: model.url,
    llm_model: name,
    llm_api_key: model.apiKey,
    ...extra,
  });

  return { world, harness, prisma, model, gql, conversation, configure, settledRuns, outbound, llm };
}

const SETTING_TYPES: Record<string, string> = {
  kind: 'String',
  llm_base_url: 'String',
  llm_model: 'String',
  llm_api_key: 'String',
  system_prompt: 'String',
  temperature: 'Float',
  max_tokens: 'Int',
  greeting: 'String',
  knowledge_threshold: 'Float',
  handoff_keywords: '[String!]',
  max_consecutive_replies: 'Int',
  handoff_user_id: 'ID',
  tool_scopes: '[String!]',
  daily_model_calls: 'Int',
  daily_tokens: 'Int',
  call_timeout_ms: 'Int',
  max_tool_calls: 'Int',
};

// The automations tests' world: the messaging world on the sandbox provider, an automations worker polling fast
// (on a shared PostgreSQL, files running automation workers take turns), and helpers to write a rule, play the
// contact on the provider callback and read a rule's runs.
import { afterAll, expect } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMessagingWorld, type MessagingWorkspace } from './messaging.js';
import { inboundPayload } from './whatsappPayloads.js';
import { takeTurnsWithOtherWorkerFiles } from './webhooks.js';
import { createLogger } from '../../infra/observability/logger.js';
import { startAutomationWorker, type AutomationWorkerOptions } from '../../workers/automations/worker.js';
import { postJson } from './restFixtures.js';

/** Files that run automation workers take turns on a shared PostgreSQL (a worker runs every workspace's rules). */
export const AUTOMATION_WORKER_LOCK = 7_340_113_037;

export const FAST_AUTOMATION_OPTIONS: AutomationWorkerOptions = {
  pollMs: 25,
  leaseMs: 10_000,
  batchSize: 50,
  timeTriggersMs: 1_000,
  userAgent: 'messaging-crm/test',
};

export async function openAutomationWorld(options: Partial<AutomationWorkerOptions> = {}) {
  takeTurnsWithOtherWorkerFiles(AUTOMATION_WORKER_LOCK);
  const world = await openMessagingWorld('sandbox', { rateLimitPerMinute: 1000 });
  const { harness } = world;
  const prisma = harness.db.prisma;
  const logger = createLogger(process.env['AUTOMATION_TEST_LOG'] === '1' ? 'error' : 'silent');

  function startWorker(overrides: Partial<AutomationWorkerOptions> = {}) {
    const worker = startAutomationWorker(harness.services, { ...FAST_AUTOMATION_OPTIONS, ...options, ...overrides }, logger);
    afterAll(() => worker.stop());
    return worker;
  }

  async function rule(ws: MessagingWorkspace, body: Record<string, unknown>): Promise<{ id: string }> {
    const created = await postJson(harness, '/api/v1/automations', ws.apiKey, { name: 'A rule', ...body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: string };
  }

  /** A new contact's phone number. */
  const contact = () => `1555${randomInt(1_000_000, 9_999_999)}`;

  /** The contact writes (through the provider callback); `id` repeats a delivery of the same provider message, `at` is when it was sent. */
  async function say(ws: MessagingWorkspace, from: string, text: string, sent: { id?: string; at?: Date } = {}) {
    const response = await world.webhook(inboundPayload(ws.phoneNumberId, { from, text, ...sent }), ws.appSecret);
    expect(response.status).toBe(200);
  }

  const runs = (ruleId: string) => prisma.automationRun.findMany({ where: { rule_id: ruleId }, orderBy: { id: 'asc' } });

  /** The conversation of the contact with this phone number. */
  const conversationOf = (ws: MessagingWorkspace, from: string) =>
    prisma.conversation.findFirstOrThrow({
      where: { company_id: ws.workspaceId, customer: { wa_id: from } },
      include: { customer: { include: { tags: { include: { tag: true } } } } },
    });

  return { world, harness, prisma, startWorker, rule, contact, say, runs, conversationOf };
}

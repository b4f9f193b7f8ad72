// The automations worker: every pollMs (workers/loop.ts, nudged by new events) it takes a batch of outbox events
// and runs each enabled rule of the event's workspace whose trigger the event is, one rule at a time
// (resolvers/automations/run.ts: exactly once per rule and event). Any number of workers may share the database.
// Webhook actions go out through the guarded outbound client (infra/net/outbound.ts) under the SSRF guard. Each
// round also wakes snoozed conversations whose time came and assigns conversations waiting for a round-robin slot.
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { createOutboundClient } from '../../infra/net/outbound.js';
import { runRule, TRIGGERS_OF_EVENT, type WebhookPoster } from '../../resolvers/automations/run.js';
import { assignWaitingConversations } from '../../resolvers/automations/roundRobin.js';
import { wakeSnoozedConversations } from '../../resolvers/automations/snooze.js';
import { startLoop } from '../loop.js';
import { claimEvents, markEventsDone, type ClaimedEvent } from './queue.js';

export type AutomationWorkerOptions = {
  pollMs: number;
  leaseMs: number;
  batchSize: number;
  userAgent: string;
  /** The rules' clock (business hours, throttles, snoozes, round-robin turns); tests set it. */
  clock?: () => Date;
};

export type AutomationWorker = { nudge(): void; stop(): Promise<void> };

const WEBHOOK_TIMEOUT_MS = 10_000;

export function startAutomationWorker(services: Services, options: AutomationWorkerOptions, logger: Logger): AutomationWorker {
  const now = options.clock ?? (() => new Date());
  const client = createOutboundClient({ guard: services.webhookTargets, userAgent: options.userAgent });
  const postWebhook: WebhookPoster = async (url, body) => {
    const response = await client.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxResponseBytes: 64 * 1024,
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`the receiver answered ${response.status}`);
  };

  async function runRulesOf(event: ClaimedEvent) {
    const triggers = TRIGGERS_OF_EVENT[event.type];
    if (!triggers) return;
    const rules = await services.prisma.automationRule.findMany({
      where: { company_id: event.company_id, enabled: true, trigger_event: { in: [...triggers] } },
      select: { id: true, company_id: true, trigger_event: true, conditions: true, actions: true, once_per_conversation_hours: true },
      orderBy: { id: 'asc' },
    });
    for (const rule of rules) await runRule(services, rule, event, postWebhook, now());
  }

  const loop = startLoop({
    name: 'automations worker',
    pollMs: options.pollMs,
    logger,
    round: async () => {
      const events = await claimEvents(services.prisma, { limit: options.batchSize, leaseMs: options.leaseMs });
      for (const event of events) await runRulesOf(event);
      if (events.length > 0)
        await markEventsDone(
          services.prisma,
          events.map((event) => event.id),
        );
      await wakeSnoozedConversations(services.prisma, now());
      await assignWaitingConversations(services.prisma, now());
      return events.length === options.batchSize;
    },
  });
  return {
    nudge: loop.nudge,
    async stop() {
      await loop.stop();
      client.close();
    },
  };
}

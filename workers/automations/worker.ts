// The automations worker: every pollMs (workers/loop.ts, nudged by new events) it takes a batch of outbox events
// and runs each enabled rule of the event's workspace whose trigger the event is, one rule at a time
// (resolvers/automations/run.ts: exactly once per rule and occasion). Any number of workers may share the database.
// Webhook actions go out through the guarded outbound client (infra/net/outbound.ts) under the SSRF guard. Each
// round also wakes snoozed conversations whose time came and assigns conversations waiting for a round-robin slot;
// every timeTriggersMs it runs the time-based rules (conversation.waiting, schedule) on what fell due.
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { createOutboundClient } from '../../infra/net/outbound.js';
import {
  eventOccasion,
  runRule,
  waitingOccasion,
  TRIGGERS_OF_EVENT,
  type Occasion,
  type WebhookPoster,
} from '../../resolvers/automations/run.js';
import { dueSchedule, dueWaits } from '../../resolvers/automations/timeTriggers.js';
import { SCHEDULE_TRIGGER, WAITING_TRIGGER, type ScheduleTrigger, type WaitingTrigger } from '../../resolvers/automations/triggers.js';
import { businessHoursOf } from '../../resolvers/workspace/businessHoursSettings.js';
import { assignWaitingConversations } from '../../resolvers/automations/roundRobin.js';
import { wakeSnoozedConversations } from '../../resolvers/automations/snooze.js';
import { startLoop } from '../loop.js';
import { claimEvents, markEventsDone, type ClaimedEvent } from './queue.js';
import { AUTOMATION_EVENT_TYPES } from '../../resolvers/shared/outbox.js';

export type AutomationWorkerOptions = {
  pollMs: number;
  leaseMs: number;
  batchSize: number;
  userAgent: string;
  /** How often the time-based rules look for what fell due (a schedule fires within this of its minute). */
  timeTriggersMs: number;
  /** The rules' clock (business hours, throttles, snoozes, round-robin turns, waits and schedules); tests set it. */
  clock?: () => Date;
};

const RULE_SELECT = {
  id: true,
  company_id: true,
  trigger: true,
  trigger_event: true,
  conditions: true,
  actions: true,
  once_per_conversation_hours: true,
  updated_at: true,
} as const;

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
      select: RULE_SELECT,
      orderBy: { id: 'asc' },
    });
    for (const rule of rules) await runRule(services, rule, eventOccasion(event.company_id, event), postWebhook, now());
  }

  async function runTimeTriggers() {
    const rules = await services.prisma.automationRule.findMany({
      where: { enabled: true, trigger_event: { in: [WAITING_TRIGGER, SCHEDULE_TRIGGER] } },
      select: RULE_SELECT,
      orderBy: { id: 'asc' },
    });
    for (const rule of rules) {
      const at = now();
      const hours = await businessHoursOf(services.prisma, rule.company_id);
      const occasions: Occasion[] =
        rule.trigger_event === WAITING_TRIGGER
          ? (await dueWaits(services.prisma, rule, rule.trigger as WaitingTrigger, hours, at)).map((wait) =>
              waitingOccasion(rule.company_id, wait),
            )
          : dueSchedule(rule, rule.trigger as ScheduleTrigger, hours, at);
      for (const occasion of occasions) await runRule(services, rule, occasion, postWebhook, at);
    }
  }

  let timeTriggersCheckedAt = 0;

  const loop = startLoop({
    name: 'automations worker',
    pollMs: options.pollMs,
    logger,
    round: async () => {
      const { taken, events } = await claimEvents(services.prisma, {
        limit: options.batchSize,
        leaseMs: options.leaseMs,
        followed: AUTOMATION_EVENT_TYPES,
      });
      for (const event of events) await runRulesOf(event);
      if (events.length > 0)
        await markEventsDone(
          services.prisma,
          events.map((event) => event.id),
        );
      await wakeSnoozedConversations(services.prisma, now());
      await assignWaitingConversations(services.prisma, now());
      if (Date.now() - timeTriggersCheckedAt >= options.timeTriggersMs) {
        timeTriggersCheckedAt = Date.now();
        await runTimeTriggers();
      }
      return taken === options.batchSize;
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

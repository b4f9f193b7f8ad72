// The background workers of a process, started together and stopped through the shutdown registry: webhook
// delivery with the event pruner, the report day keeper and the sandbox's template reviews, campaigns, AI agent runs and automations, each
// when asked for. The server runs them in process (WEBHOOK_WORKERS, CAMPAIGN_WORKERS, AGENT_WORKERS,
// AUTOMATION_WORKERS) and `npm run worker` alone.
import type { Logger } from 'pino';
import type { Settings } from '../infra/config/settings.js';
import type { ShutdownRegistry } from '../infra/shutdown.js';
import type { Context, Services } from '../resolvers/shared/context.js';
import { runInProcess } from '../facades/core/gateway.js';
import { deliveryOptionsFrom } from '../workers/webhooks/options.js';
import { startDeliveryWorker } from '../workers/webhooks/worker.js';
import { campaignOptionsFrom } from '../workers/campaigns/options.js';
import { startCampaignWorker } from '../workers/campaigns/worker.js';
import { agentOptionsFrom } from '../workers/agent/options.js';
import { startAgentWorker } from '../workers/agent/worker.js';
import type { RunOperation } from '../workers/agent/operations.js';
import { startEventPruner } from '../workers/events/pruner.js';
import { startAutomationWorker } from '../workers/automations/worker.js';
import { startTemplateReviewer } from '../workers/templates/reviewer.js';
import { startDayKeeper } from '../workers/reports/dayKeeper.js';

/** The agent's way to the facades' operations: the gateway's in-process runner, under the call's actor (whose
 * scopes the schema checks as for any key) and its Idempotency-Key. Workers import no schema and no facade. */
export function agentOperations(services: Services): RunOperation {
  return (call) => {
    const context: Context = {
      ...services,
      actor: call.actor,
      requestId: `req_${call.actor.keyPrefix}`,
      idempotencyKey: call.idempotencyKey ?? null,
    };
    return runInProcess(context, call.name, call.variables);
  };
}

/** How often due sandbox template reviews are looked for: a review takes SANDBOX_TEMPLATE_REVIEW_MS, give or take this. */
const TEMPLATE_REVIEW_POLL_MS = 500;

/** How often the time-based automations (waits, schedules) look for what fell due: a schedule fires within 15 s of its minute. */
const AUTOMATION_TIME_TRIGGERS_MS = 15_000;

export type BackgroundWork = { webhooks: boolean; campaigns: boolean; agents: boolean; automations: boolean };

export function startBackgroundWork(
  work: BackgroundWork,
  context: { services: Services; settings: Settings; version: string; logger: Logger; shutdown: ShutdownRegistry },
): void {
  const { services, settings, logger, shutdown } = context;
  if (work.webhooks) {
    const webhookWorker = startDeliveryWorker(services, deliveryOptionsFrom(settings, context.version), logger);
    shutdown.register({ name: 'webhook workers', stage: 'drain', stop: () => webhookWorker.stop() });
    const eventPruner = startEventPruner(
      services,
      { retentionDays: settings.EVENT_RETENTION_DAYS, pollMs: settings.EVENT_PRUNE_INTERVAL_MS },
      logger,
    );
    shutdown.register({ name: 'event pruner', stage: 'drain', stop: () => eventPruner.stop() });
    const dayKeeper = startDayKeeper(services, { pollMs: settings.REPORT_DAYS_INTERVAL_MS }, logger);
    shutdown.register({ name: 'report day keeper', stage: 'drain', stop: () => dayKeeper.stop() });
    // The sandbox's template reviews are decided as its webhooks would be: with the webhook workers.
    const templateReviewer = startTemplateReviewer(services, { pollMs: TEMPLATE_REVIEW_POLL_MS }, logger);
    shutdown.register({ name: 'template reviewer', stage: 'drain', stop: () => templateReviewer.stop() });
    logger.info({ concurrency: settings.WEBHOOK_CONCURRENCY }, 'webhook delivery worker started');
  }
  if (work.campaigns) {
    const campaignWorker = startCampaignWorker(services, campaignOptionsFrom(settings), logger);
    shutdown.register({ name: 'campaign workers', stage: 'drain', stop: () => campaignWorker.stop() });
    logger.info({ send_rate_per_minute: settings.CAMPAIGN_SEND_RATE_PER_MINUTE }, 'campaign worker started');
  }
  if (work.agents) {
    const agentWorker = startAgentWorker(services, agentOperations(services), agentOptionsFrom(settings), logger);
    shutdown.register({ name: 'agent workers', stage: 'drain', stop: () => agentWorker.stop() });
    logger.info({ concurrency: settings.AGENT_CONCURRENCY }, 'agent worker started');
  }
  if (work.automations) {
    const automationWorker = startAutomationWorker(
      services,
      {
        pollMs: settings.AUTOMATION_POLL_MS,
        leaseMs: settings.AUTOMATION_LEASE_MS,
        batchSize: 50,
        timeTriggersMs: AUTOMATION_TIME_TRIGGERS_MS,
        userAgent: `messaging-crm/${context.version}`,
      },
      logger,
    );
    shutdown.register({ name: 'automations worker', stage: 'drain', stop: () => automationWorker.stop() });
    logger.info({ poll_ms: settings.AUTOMATION_POLL_MS }, 'automations worker started');
  }
}

// `npm run worker`: webhook delivery workers, campaign workers unless CAMPAIGN_WORKERS=0 and AI agent workers
// unless AGENT_WORKERS=0, without the HTTP server, for deployments that scale them separately (run the servers
// with WEBHOOK_WORKERS=0, CAMPAIGN_WORKERS=0 and AGENT_WORKERS=0). Like the server it serves its Prometheus metrics on METRICS_HOST:METRICS_PORT (a port
// of its own when it shares a host with a server) and stops through the shutdown registry: SIGTERM drains the
// workers, then closes the database and the metrics listener. It needs PostgreSQL (DATABASE_URL): the embedded
// database belongs to one process, so with it the server's in-process workers are the only option.
import { loadSettings } from '../infra/config/settings.js';
import { createLogger, exitAfterLogs } from '../infra/observability/logger.js';
import { startMetricsServer } from '../infra/observability/metricsServer.js';
import { shutdown, stopOnSignals } from '../infra/shutdown.js';
import { openRuntime, VERSION } from './runtime.js';
import { startBackgroundWork } from './backgroundWork.js';
import { listenedOrExit } from './portTaken.js';

const settings = loadSettings();
const logger = createLogger(settings.LOG_LEVEL);
if (!settings.DATABASE_URL) {
  logger.fatal(
    'npm run worker needs DATABASE_URL: the embedded database can be opened by one process only (the server runs the workers itself)',
  );
  await exitAfterLogs(logger, 1);
}
/** A listen refused because its port is taken stops the process the way a signal does. */
const stopping = { logger, stop: stopOnSignals(shutdown, { timeoutMs: settings.SHUTDOWN_TIMEOUT_MS, logger }) };

const runtime = await openRuntime(settings, { migrate: settings.MIGRATE_ON_START, logger });
shutdown.register({ name: 'database', stage: 'close', stop: () => runtime.close() });

// Before any work is claimed: a metrics port already taken (two processes on one host) stops the start here.
const metrics = await listenedOrExit(startMetricsServer(settings.METRICS_HOST, settings.METRICS_PORT), stopping, {
  setting: 'METRICS_PORT',
  port: settings.METRICS_PORT,
  host: settings.METRICS_HOST,
  process: 'npm run worker',
});
shutdown.register({ name: 'metrics server', stage: 'close', stop: () => metrics.close() });
logger.info({ metrics_port: metrics.port }, `metrics on http://${settings.METRICS_HOST}:${metrics.port}/metrics`);

startBackgroundWork(
  { webhooks: true, campaigns: settings.CAMPAIGN_WORKERS, agents: settings.AGENT_WORKERS, automations: settings.AUTOMATION_WORKERS },
  { services: runtime.services, settings, version: VERSION, logger, shutdown },
);

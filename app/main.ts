// `npm start`: opens the database (embedded unless DATABASE_URL is set, then owned by this process and open to the
// CLI on a socket in DATA_DIR), applies migrations and serves HTTPS only on PORT, with Prometheus metrics on
// METRICS_PORT, until SIGTERM drains and stops it.
// Webhook delivery workers run in this process unless WEBHOOK_WORKERS=0, campaign workers unless
// CAMPAIGN_WORKERS=0, AI agent workers unless AGENT_WORKERS=0 (then `npm run worker` runs them).
import { loadSettings } from '../infra/config/settings.js';
import { startMetricsServer } from '../infra/observability/metricsServer.js';
import { loadCertificate } from '../infra/transport/certificate.js';
import { createHttpsOnlyServer } from '../infra/transport/httpsOnlyServer.js';
import { nodeListener, withResponseDeadline } from '../infra/transport/responseDeadline.js';
import { createApp } from './createApp.js';
import { createEdge } from './edge.js';
import { createLogger, exitAfterLogs } from '../infra/observability/logger.js';
import { connectRedis } from '../infra/redis.js';
import { openRuntime, VERSION } from './runtime.js';
import { deliveryOptionsFrom } from '../workers/webhooks/options.js';
import { startDeliveryWorker } from '../workers/webhooks/worker.js';
import { campaignOptionsFrom } from '../workers/campaigns/options.js';
import { startCampaignWorker } from '../workers/campaigns/worker.js';
import { agentOptionsFrom } from '../workers/agent/options.js';
import { startAgentWorker } from '../workers/agent/worker.js';
import { startEventPruner } from '../workers/events/pruner.js';
import { shutdown, stopOnSignals } from '../infra/shutdown.js';
import { createSessionStore } from '../infra/mcp/sessionStore.js';
import { randomUUID } from 'node:crypto';
import { issueSetupToken } from '../resolvers/workspace/signIn.js';
import { setupPageUrl } from '../facades/auth/paths.js';

const settings = loadSettings();
const logger = createLogger(settings.LOG_LEVEL);
stopOnSignals(shutdown, { timeoutMs: settings.SHUTDOWN_TIMEOUT_MS, logger });

// On the embedded database the server must own DATA_DIR: a second server there is refused, with what to do.
const runtime = await openRuntime(settings, {
  migrate: settings.MIGRATE_ON_START,
  logger,
  claim: { role: 'the server', throughOwner: false },
}).catch((error: unknown) => {
  logger.fatal({ err: error }, error instanceof Error ? error.message : String(error));
  return exitAfterLogs(logger, 1);
});
if (runtime.db.socketPath) {
  logger.info({ database_socket: runtime.db.socketPath }, `embedded database open to \`npm run cli\` on ${runtime.db.socketPath}`);
}
shutdown.register({ name: 'database', stage: 'close', stop: () => runtime.close() });

const redis = settings.REDIS_URL ? await connectRedis(settings.REDIS_URL, logger) : null;
if (redis) shutdown.register({ name: 'redis', stage: 'close', stop: () => redis.disconnect() });

const edge = createEdge(settings, { logger, redis });
const { yoga, mcpSessions } = createApp(runtime.services, {
  graphiql: settings.GRAPHIQL,
  logger,
  edge,
  sessionStore: createSessionStore(runtime.db.sql, runtime.db.listen, randomUUID()),
  customersSunset: settings.CUSTOMERS_SUNSET,
  mcp: { allowedOrigins: settings.MCP_ALLOWED_ORIGINS },
});
shutdown.register({ name: 'mcp sessions', stage: 'drain', stop: () => mcpSessions.closeAll() });

if (settings.WEBHOOK_WORKERS) {
  const webhookWorker = startDeliveryWorker(runtime.services, deliveryOptionsFrom(settings, VERSION), logger);
  shutdown.register({ name: 'webhook workers', stage: 'drain', stop: () => webhookWorker.stop() });
  const eventPruner = startEventPruner(
    runtime.services,
    { retentionDays: settings.EVENT_RETENTION_DAYS, pollMs: settings.EVENT_PRUNE_INTERVAL_MS },
    logger,
  );
  shutdown.register({ name: 'event pruner', stage: 'drain', stop: () => eventPruner.stop() });
}

if (settings.CAMPAIGN_WORKERS) {
  const campaignWorker = startCampaignWorker(runtime.services, campaignOptionsFrom(settings), logger);
  shutdown.register({ name: 'campaign workers', stage: 'drain', stop: () => campaignWorker.stop() });
}

if (settings.AGENT_WORKERS) {
  const agentWorker = startAgentWorker(runtime.services, agentOptionsFrom(settings), logger);
  shutdown.register({ name: 'agent workers', stage: 'drain', stop: () => agentWorker.stop() });
}

const certificate = await loadCertificate({
  certFile: settings.TLS_CERT_FILE,
  keyFile: settings.TLS_KEY_FILE,
  dataDir: settings.DATA_DIR,
});
logger.info(
  {
    tls: {
      source: certificate.source,
      cert_file: certificate.certFile,
      fingerprint_sha256: certificate.fingerprint256,
      valid_to: certificate.validTo,
    },
  },
  `TLS certificate (${certificate.source}) ${certificate.certFile}, SHA-256 fingerprint ${certificate.fingerprint256}`,
);

const server = createHttpsOnlyServer({
  tls: certificate,
  trustProxy: settings.TRUST_PROXY,
  requestTimeoutMs: settings.REQUEST_TIMEOUT_MS,
  handler: nodeListener(withResponseDeadline((request, context) => yoga.handleRequest(request, context), settings.REQUEST_TIMEOUT_MS)),
});
const port = await server.listen(settings.PORT, settings.HOST);
shutdown.register({ name: 'https server', stage: 'drain', stop: (deadline) => server.drain(deadline) });
logger.info(
  { port, url: `https://localhost:${port}`, database: runtime.db.kind, trust_proxy: settings.TRUST_PROXY, redis: Boolean(redis) },
  `messaging-crm listening on port ${port} (https only, ${runtime.db.kind} database)`,
);

// While no workspace exists, every start prints a fresh one-time link to the console's first-run page.
const setupToken = await issueSetupToken(runtime.services);
if (setupToken) {
  const setupUrl = setupPageUrl(`https://localhost:${port}`, setupToken);
  logger.info({ setup_url: setupUrl }, `No workspace yet: open ${setupUrl} to create the first one and its owner`);
}

const metrics = await startMetricsServer(settings.METRICS_HOST, settings.METRICS_PORT);
shutdown.register({ name: 'metrics server', stage: 'close', stop: () => metrics.close() });
logger.info({ metrics_port: metrics.port }, `metrics on http://${settings.METRICS_HOST}:${metrics.port}/metrics`);

// Start-up leaves tens of megabytes of garbage (the schema, the routes and the OpenAPI document are built, the
// bundle's modules run once) that V8 may keep for minutes while the service is idle. One full collection now,
// with node's --expose-gc (package.json's node_flags), makes idle memory what is live.
(globalThis as { gc?: () => void }).gc?.();

// `npm start`: opens the database (embedded unless DATABASE_URL is set), applies migrations and serves
// HTTPS only on PORT, with Prometheus metrics on METRICS_PORT, until SIGTERM drains and stops it.
// Webhook delivery workers run in this process unless WEBHOOK_WORKERS=0, campaign workers unless
// CAMPAIGN_WORKERS=0 (then `npm run worker` runs them).
import { loadSettings } from '../config/settings.js';
import { startMetricsServer } from '../observability/metricsServer.js';
import { loadCertificate } from '../transport/certificate.js';
import { createHttpsOnlyServer } from '../transport/httpsOnlyServer.js';
import { nodeListener, withResponseDeadline } from '../transport/responseDeadline.js';
import { createApp } from './createApp.js';
import { createEdge } from './edge.js';
import { createLogger } from './logger.js';
import { connectRedis } from './redis.js';
import { openRuntime, VERSION } from './runtime.js';
import { deliveryOptionsFrom } from '../webhooks/options.js';
import { startDeliveryWorker } from '../webhooks/worker.js';
import { campaignOptionsFrom } from '../campaigns/options.js';
import { startCampaignWorker } from '../campaigns/worker.js';
import { shutdown, stopOnSignals } from './shutdown.js';

const settings = loadSettings();
const logger = createLogger(settings.LOG_LEVEL);
stopOnSignals(shutdown, { timeoutMs: settings.SHUTDOWN_TIMEOUT_MS, logger });

const runtime = await openRuntime(settings, { migrate: settings.MIGRATE_ON_START, logger });
shutdown.register({ name: 'database', stage: 'close', stop: () => runtime.close() });

const redis = settings.REDIS_URL ? await connectRedis(settings.REDIS_URL, logger) : null;
if (redis) shutdown.register({ name: 'redis', stage: 'close', stop: () => redis.disconnect() });

const edge = createEdge(settings, { logger, redis });
const { yoga, mcpSessions } = createApp(runtime.services, {
  graphiql: settings.GRAPHIQL,
  logger,
  edge,
  customersSunset: settings.CUSTOMERS_SUNSET,
  mcp: { allowedOrigins: settings.MCP_ALLOWED_ORIGINS },
});
shutdown.register({ name: 'mcp sessions', stage: 'drain', stop: () => mcpSessions.closeAll() });

if (settings.WEBHOOK_WORKERS) {
  const webhookWorker = startDeliveryWorker(runtime.services, deliveryOptionsFrom(settings, VERSION), logger);
  shutdown.register({ name: 'webhook workers', stage: 'drain', stop: () => webhookWorker.stop() });
}

if (settings.CAMPAIGN_WORKERS) {
  const campaignWorker = startCampaignWorker(runtime.services, campaignOptionsFrom(settings), logger);
  shutdown.register({ name: 'campaign workers', stage: 'drain', stop: () => campaignWorker.stop() });
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

const metrics = await startMetricsServer(settings.METRICS_HOST, settings.METRICS_PORT);
shutdown.register({ name: 'metrics server', stage: 'close', stop: () => metrics.close() });
logger.info({ metrics_port: metrics.port }, `metrics on http://${settings.METRICS_HOST}:${metrics.port}/metrics`);

// `npm start`: opens the database (embedded unless DATABASE_URL is set, then owned by this process and open to the
// CLI on a socket in DATA_DIR), applies migrations and serves HTTPS only on PORT, with Prometheus metrics on
// METRICS_PORT, until SIGTERM drains and stops it.
// Webhook delivery workers run in this process unless WEBHOOK_WORKERS=0, campaign workers unless
// CAMPAIGN_WORKERS=0, AI agent workers unless AGENT_WORKERS=0 (then `npm run worker` runs them), starting a second
// after the server listens.
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
import { startBackgroundWork } from './backgroundWork.js';
import { shutdown, stopOnSignals } from '../infra/shutdown.js';
import { createSessionStore } from '../infra/mcp/sessionStore.js';
import { randomUUID } from 'node:crypto';
import { issueSetupToken } from '../resolvers/people/signIn.js';
import { unreadableIntegrations } from '../resolvers/workspace/integrations.js';
import { setupPageUrl } from '../facades/auth/paths.js';
import { recordServerAddress } from './serverAddress.js';
import { listenedOrExit } from './portTaken.js';

/** From the server listening to its background workers starting. */
const BACKGROUND_START_DELAY_MS = 1000;
/** From the server listening to the collection of what its start left behind (after the workers' start). */
const START_UP_COLLECTION_DELAY_MS = 3000;

const settings = loadSettings();
const logger = createLogger(settings.LOG_LEVEL);
/** A listen refused because its port is taken stops the process the way a signal does. */
const stopping = { logger, stop: stopOnSignals(shutdown, { timeoutMs: settings.SHUTDOWN_TIMEOUT_MS, logger }) };

// On the embedded database the server must own DATA_DIR: a second server there is refused, with what to do.
let ownAddress: string | undefined;
const runtime = await openRuntime(settings, {
  migrate: settings.MIGRATE_ON_START,
  logger,
  claim: { role: 'the server', throughOwner: false },
  ownAddress: () => ownAddress,
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
const port = await listenedOrExit(server.listen(settings.PORT, settings.HOST), stopping, {
  setting: 'PORT',
  port: settings.PORT,
  host: settings.HOST,
  process: 'the server',
});
shutdown.register({ name: 'https server', stage: 'drain', stop: (deadline) => server.drain(deadline) });
ownAddress = `https://localhost:${port}`;
const forgetAddress = recordServerAddress(settings.DATA_DIR, ownAddress);
shutdown.register({ name: 'server address', stage: 'drain', stop: async () => forgetAddress() });
logger.info(
  { port, url: ownAddress, database: runtime.db.kind, trust_proxy: settings.TRUST_PROXY, redis: Boolean(redis) },
  `messaging-crm listening on port ${port} (https only, ${runtime.db.kind} database)`,
);

// The workers start a moment after the server listens: each one's first round is a first read of its tables, which
// on the embedded database (one session, its caches cold) would hold up the first requests by a third of a second.
// A stop before then cancels the start; once started, the workers' own hooks stop them.
const backgroundStart = setTimeout(() => {
  cancelBackgroundStart();
  startBackgroundWork(
    {
      webhooks: settings.WEBHOOK_WORKERS,
      campaigns: settings.CAMPAIGN_WORKERS,
      agents: settings.AGENT_WORKERS,
      automations: settings.AUTOMATION_WORKERS,
    },
    { services: runtime.services, settings, version: VERSION, logger, shutdown },
  );
}, BACKGROUND_START_DELAY_MS);
const cancelBackgroundStart = shutdown.register({ name: 'background start', stage: 'drain', stop: () => clearTimeout(backgroundStart) });

// An integration sealed under another ENCRYPTION_KEY can neither send nor take its callbacks, and each refusal is a
// 409 that the request log keeps at info: the operator is told once, in the error log, which integrations and why.
// After the listen, so that the first requests do not wait for it; before the metrics listener is announced.
await unreadableIntegrations(runtime.services).then(
  (unreadable) => {
    if (unreadable.length === 0) return;
    logger.error(
      { integrations: unreadable.map(({ id, workspaceId, provider }) => ({ id, workspace_id: workspaceId, provider })) },
      `${unreadable.length} connected integration(s) have credentials this ENCRYPTION_KEY cannot read: their sends and ` +
        'provider callbacks are refused until the key they were sealed with is set, or they are connected again',
    );
  },
  (error: unknown) => logger.error({ err: error }, 'reading the integrations’ credentials at start failed'),
);

// While no workspace exists, every start prints a fresh one-time link to the console's first-run page.
const setupToken = await issueSetupToken(runtime.services);
if (setupToken) {
  const setupUrl = setupPageUrl(settings.PUBLIC_BASE_URL ?? ownAddress, setupToken);
  logger.info({ setup_url: setupUrl }, `No workspace yet: open ${setupUrl} to create the first one and its owner`);
}

const metrics = await listenedOrExit(startMetricsServer(settings.METRICS_HOST, settings.METRICS_PORT), stopping, {
  setting: 'METRICS_PORT',
  port: settings.METRICS_PORT,
  host: settings.METRICS_HOST,
  process: 'the server',
});
shutdown.register({ name: 'metrics server', stage: 'close', stop: () => metrics.close() });
logger.info({ metrics_port: metrics.port }, `metrics on http://${settings.METRICS_HOST}:${metrics.port}/metrics`);

// Start-up leaves tens of megabytes of garbage (the schema is built, the bundle's modules run once, the workers'
// first rounds) that V8 may keep for minutes while the service is idle. One full collection once start-up is over,
// with node's --expose-gc (package.json's node_flags), makes idle memory what is live; run as the server began to
// listen, its 50 ms held up the first requests.
setTimeout(() => (globalThis as { gc?: () => void }).gc?.(), START_UP_COLLECTION_DELAY_MS).unref();

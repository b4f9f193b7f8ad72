// `npm start`: opens the database (embedded unless DATABASE_URL is set), applies migrations and serves;
// webhook delivery workers run in this process unless WEBHOOK_WORKERS=0.
import { createServer } from 'node:http';
import { loadSettings } from '../config/settings.js';
import { createApp } from './createApp.js';
import { createLogger } from './logger.js';
import { openRuntime, VERSION } from './runtime.js';
import { deliveryOptionsFrom } from '../webhooks/options.js';
import { startDeliveryWorker } from '../webhooks/worker.js';

const settings = loadSettings();
const logger = createLogger(settings.LOG_LEVEL);
const runtime = await openRuntime(settings, { migrate: settings.MIGRATE_ON_START });
const { yoga } = createApp(runtime.services, { graphiql: settings.GRAPHIQL, logger });
const server = createServer(yoga);
const webhookWorker = settings.WEBHOOK_WORKERS
  ? startDeliveryWorker(runtime.services, deliveryOptionsFrom(settings, VERSION), logger)
  : null;

server.listen(settings.PORT, settings.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.PORT;
  logger.info(
    { port, database: runtime.db.kind, graphql: `/graphql`, health: '/health' },
    `messaging-crm listening on port ${port} (${runtime.db.kind} database)`,
  );
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  server.close();
  server.closeIdleConnections();
  await webhookWorker?.stop();
  await runtime.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// `npm run worker`: webhook delivery workers without the HTTP server, for deployments that scale delivery
// separately (run the servers with WEBHOOK_WORKERS=0). It needs PostgreSQL (DATABASE_URL): the embedded
// database belongs to one process, so with it the server's in-process workers are the only option.
import { loadSettings } from '../config/settings.js';
import { createLogger } from './logger.js';
import { openRuntime, VERSION } from './runtime.js';
import { deliveryOptionsFrom } from '../webhooks/options.js';
import { startDeliveryWorker } from '../webhooks/worker.js';

const settings = loadSettings();
const logger = createLogger(settings.LOG_LEVEL);
if (!settings.DATABASE_URL) {
  logger.fatal('npm run worker needs DATABASE_URL: the embedded database can be opened by one process only (the server delivers webhooks itself)');
  process.exit(1);
}
const runtime = await openRuntime(settings, { migrate: settings.MIGRATE_ON_START });
const worker = startDeliveryWorker(runtime.services, deliveryOptionsFrom(settings, VERSION), logger);
logger.info({ concurrency: settings.WEBHOOK_CONCURRENCY }, 'webhook delivery worker started');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping the webhook delivery worker');
  await worker.stop();
  await runtime.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

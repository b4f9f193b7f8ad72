// `npm run worker`: webhook delivery workers, and campaign workers unless CAMPAIGN_WORKERS=0, without the HTTP
// server, for deployments that scale them separately (run the servers with WEBHOOK_WORKERS=0 and
// CAMPAIGN_WORKERS=0). It needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process, so
// with it the server's in-process workers are the only option.
import { loadSettings } from '../config/settings.js';
import { createLogger } from './logger.js';
import { openRuntime, VERSION } from './runtime.js';
import { deliveryOptionsFrom } from '../webhooks/options.js';
import { startDeliveryWorker } from '../webhooks/worker.js';
import { campaignOptionsFrom } from '../campaigns/options.js';
import { startCampaignWorker } from '../campaigns/worker.js';

const settings = loadSettings();
const logger = createLogger(settings.LOG_LEVEL);
if (!settings.DATABASE_URL) {
  logger.fatal(
    'npm run worker needs DATABASE_URL: the embedded database can be opened by one process only (the server runs the workers itself)',
  );
  process.exit(1);
}
const runtime = await openRuntime(settings, { migrate: settings.MIGRATE_ON_START });
const worker = startDeliveryWorker(runtime.services, deliveryOptionsFrom(settings, VERSION), logger);
logger.info({ concurrency: settings.WEBHOOK_CONCURRENCY }, 'webhook delivery worker started');
const campaignWorker = settings.CAMPAIGN_WORKERS ? startCampaignWorker(runtime.services, campaignOptionsFrom(settings), logger) : null;
if (campaignWorker) logger.info({ send_rate_per_minute: settings.CAMPAIGN_SEND_RATE_PER_MINUTE }, 'campaign worker started');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping the webhook delivery and campaign workers');
  await Promise.all([worker.stop(), campaignWorker?.stop()]);
  await runtime.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

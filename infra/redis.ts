// The Redis connection shared by the instances (REDIS_URL): it holds the rate-limit counts. Commands fail
// fast instead of queueing while Redis is away (the rate limiter then counts in memory), and the client
// keeps reconnecting in the background. Outages are logged once when they start and once when they end.
// ioredis is loaded only when REDIS_URL is set: its modules took 15 ms of every start without it.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

const READY_WAIT_MS = 2000;

export async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000 });
  let available = false;
  redis.on('ready', () => {
    available = true;
    logger.info({ redis: redact(url) }, 'redis connected: rate limits are shared between instances');
  });
  redis.on('error', (error: Error) => {
    if (!available) return;
    available = false;
    logger.warn(
      { redis: redact(url), err: { message: error.message } },
      'redis unavailable: rate limits are counted per instance until it is back',
    );
  });
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), READY_WAIT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready) logger.warn({ redis: redact(url) }, 'redis not reachable at start: rate limits are counted per instance until it is');
  return redis;
}

/** The URL without its password, for logs. */
function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

// The Redis connection shared by the instances (REDIS_URL): it holds the rate-limit counts. Commands fail
// at once instead of queueing while Redis is away (the rate limiter then counts in memory), and the client
// keeps reconnecting in the background. Outages are logged once when they start and once when they end. A
// connection that stays open but stops answering (bytes silently lost) is found by a heartbeat: a PING not
// answered within HEARTBEAT_TIMEOUT_MS drops the connection, logged, so requests count in memory at once rather
// than each waiting for its deadline, and the client reconnects.
// ioredis is loaded only when REDIS_URL is set: its modules took 15 ms of every start without it.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { answerWithin } from './ioDeadline.js';

const READY_WAIT_MS = 2000;
// A safety net so that no command waits forever: callers that must answer sooner set their own deadline (the rate
// limit's, infra/limits/rateLimit.ts), and a connection that stops answering is dropped by the heartbeat before this.
const COMMAND_TIMEOUT_MS = 5000;
const HEARTBEAT_MS = 250;
// Two seconds, not less: on a machine whose cores are all busy, half a second without an answer from a healthy Redis
// was seen (the server and its peers starved of CPU), and every false alarm drops the connection and counts rate
// limits per instance until it is back.
const HEARTBEAT_TIMEOUT_MS = 2000;

export async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS });
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
  let beating = false;
  const heartbeat = setInterval(() => {
    if (redis.status !== 'ready' || beating) return;
    beating = true;
    // The PING's own command time-out is longer; the heartbeat judges lateness itself, after reading waiting I/O.
    void answerWithin(redis.ping(), HEARTBEAT_TIMEOUT_MS)
      .catch(() => 'failed' as const)
      .then((answer) => {
        beating = false;
        if (answer === 'PONG' || redis.status !== 'ready') return;
        available = false;
        logger.warn({ redis: redact(url) }, 'redis stopped answering: rate limits are counted per instance until it is back');
        redis.disconnect(true);
      });
  }, HEARTBEAT_MS);
  heartbeat.unref();
  redis.once('end', () => clearInterval(heartbeat));
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

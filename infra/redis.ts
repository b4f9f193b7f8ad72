// The Redis connection shared by the instances (REDIS_URL): it holds the rate-limit counts. Commands fail
// fast instead of queueing while Redis is away (the rate limiter then counts in memory), and the client
// keeps reconnecting in the background. Outages are logged once when they start and once when they end. A
// connection that stays open but stops answering (bytes silently lost) is found by a heartbeat: a PING not
// answered within HEARTBEAT_TIMEOUT_MS drops the connection, logged, so requests count in memory at once rather
// than each waiting for its command's time-out, and the client reconnects.
// ioredis is loaded only when REDIS_URL is set: its modules took 15 ms of every start without it.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

const READY_WAIT_MS = 2000;
const HEARTBEAT_MS = 250;
const HEARTBEAT_TIMEOUT_MS = 500;

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
  let beating = false;
  const heartbeat = setInterval(() => {
    if (redis.status !== 'ready' || beating) return;
    beating = true;
    let timer: NodeJS.Timeout | undefined;
    // Late only once the I/O waiting at the deadline has been read: a timer runs before the socket's data in the
    // event loop, so a process that was itself held up (a busy CPU, a long synchronous task) would otherwise find an
    // answer that had arrived in time still unread, and drop a healthy connection.
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => setImmediate(() => resolve('late')), HEARTBEAT_TIMEOUT_MS)));
    void Promise.race([redis.ping().catch(() => 'failed' as const), late]).then((answer) => {
      clearTimeout(timer);
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

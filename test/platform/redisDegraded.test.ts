// A degraded Redis (issue 34 point 5): a connection that stays open but stops answering (a relay that stops
// forwarding, closing nothing) is found by the heartbeat and logged within three seconds, and from then on the rate
// limit counts in memory at once instead of every request waiting for its Redis command's time-out; when the
// network is back the client reconnects and says so. Needs the machine's Redis at 127.0.0.1:6379.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectRedis } from '../../infra/redis.js';
import { createLogger } from '../../infra/observability/logger.js';
import { createRateLimiter } from '../../infra/limits/rateLimit.js';
import { pingRedis, startRelay } from '../support/tcpRelay.js';

describe('Redis that stops answering', { timeout: 30_000 }, () => {
  it('is detected and logged within three seconds, and the rate limit falls back to memory', async () => {
    await pingRedis();
    const relay = await startRelay({ host: '127.0.0.1', port: 6379 });
    let captured = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        captured += chunk.toString();
        done();
      },
    });
    const redis = await connectRedis(`redis://127.0.0.1:${relay.port}`, createLogger('info', sink));
    onTestFinished(() => redis.disconnect());
    const limiter = createRateLimiter({ perMinute: 1000, redis, keyPrefix: `crm-degraded-${randomBytes(4).toString('hex')}` });
    expect((await limiter.consume('key')).allowed).toBe(true);

    relay.stall();
    const stalledAt = performance.now();
    await expect.poll(() => captured.includes('redis stopped answering'), { timeout: 4_000, interval: 50 }).toBe(true);
    expect(performance.now() - stalledAt).toBeLessThan(3_000);
    const started = performance.now();
    expect((await limiter.consume('key')).allowed).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);

    relay.resume();
    await expect.poll(() => captured.split('redis connected').length - 1, { timeout: 10_000, interval: 100 }).toBe(2);
  });
});

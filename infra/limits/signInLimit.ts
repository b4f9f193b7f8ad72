// Guessing passwords: failed sign-ins are counted per account (the e-mail address tried, whether or not it
// exists, so the limit reveals nothing) and per client address, in memory or in Redis when REDIS_URL is set.
// Past either limit, sign-in is refused with 429 and Retry-After until the window ends, even with the right
// password; a successful sign-in clears its account's count.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_FAILURES_PER_ACCOUNT = 5;
export const SIGN_IN_FAILURES_PER_ADDRESS = 30;

export type SignInLimiter = {
  /** Seconds until sign-in is allowed again for this account from this address; 0 when it is allowed now. */
  waitSeconds(account: string, address: string): Promise<number>;
  failed(account: string, address: string): Promise<void>;
  succeeded(account: string): Promise<void>;
};

function limiter(name: string, points: number, redis: Redis | null | undefined, prefix: string): RateLimiterAbstract {
  const options = { points, duration: SIGN_IN_WINDOW_SECONDS, keyPrefix: `${prefix}:sign-in:${name}` };
  const memory = new RateLimiterMemory(options);
  return redis ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: memory }) : memory;
}

export function createSignInLimiter(options: { redis?: Redis | null; keyPrefix: string }): SignInLimiter {
  const perAccount = limiter('account', SIGN_IN_FAILURES_PER_ACCOUNT, options.redis, options.keyPrefix);
  const perAddress = limiter('address', SIGN_IN_FAILURES_PER_ADDRESS, options.redis, options.keyPrefix);
  const account = (email: string) => email.trim().toLowerCase();
  const spend = (store: RateLimiterAbstract, key: string) => store.penalty(key, 1).then(() => undefined);
  async function wait(store: RateLimiterAbstract, key: string, points: number): Promise<number> {
    const state = await store.get(key);
    return state && state.consumedPoints >= points ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : 0;
  }
  return {
    async waitSeconds(email, address) {
      const [byAccount, byAddress] = await Promise.all([
        wait(perAccount, account(email), SIGN_IN_FAILURES_PER_ACCOUNT),
        wait(perAddress, address, SIGN_IN_FAILURES_PER_ADDRESS),
      ]);
      return Math.max(byAccount, byAddress);
    },
    async failed(email, address) {
      await Promise.all([spend(perAccount, account(email)), spend(perAddress, address)]);
    },
    async succeeded(email) {
      await perAccount.delete(account(email));
    },
  };
}

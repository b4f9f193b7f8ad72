// Requests per API key: RATE_LIMIT_PER_MINUTE (100) in a fixed 60-second window that starts at the key's
// first request, for everything behind the key (GraphQL, REST, MCP) alike. Counts live in memory, or in
// Redis when REDIS_URL is set so that every instance shares them (an atomic Lua increment). If Redis is
// unreachable, each instance counts in its own memory until Redis is back: the API stays up and the limit
// holds per instance (docs/api-decisions.md, "Production edge").
// Every authenticated response carries the IETF draft headers RateLimit-Policy and RateLimit; the request
// past the limit gets 429 RATE_LIMITED with Retry-After in seconds, and the message says how many.
import type { Plugin } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { errorResponse } from '../app/errorResponse.js';
import { requestState } from '../app/requestState.js';

const WINDOW_SECONDS = 60;

export type RateLimitDecision = { allowed: boolean; remaining: number; resetSeconds: number };

export type RateLimiter = {
  limit: number;
  windowSeconds: number;
  consume(key: string): Promise<RateLimitDecision>;
};

export function createRateLimiter(options: { perMinute: number; redis?: Redis | null; keyPrefix: string }): RateLimiter {
  const memory = new RateLimiterMemory({ points: options.perMinute, duration: WINDOW_SECONDS });
  const store = options.redis
    ? new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix: `${options.keyPrefix}:rate`,
        points: options.perMinute,
        duration: WINDOW_SECONDS,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      })
    : memory;
  return {
    limit: options.perMinute,
    windowSeconds: WINDOW_SECONDS,
    async consume(key) {
      try {
        const result = await store.consume(key);
        return { allowed: true, remaining: result.remainingPoints, resetSeconds: Math.ceil(result.msBeforeNext / 1000) };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return { allowed: false, remaining: 0, resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
    },
  };
}

/** Runs after authentication: only requests with an authenticated key are counted. */
export function useRateLimit(limiter: RateLimiter): Plugin {
  const decisions = new WeakMap<Request, RateLimitDecision>();
  const policy = `"perkey";q=${limiter.limit};w=${limiter.windowSeconds}`;
  return {
    async onRequest({ request, endResponse }) {
      const state = requestState(request);
      if (!state.actor) return;
      const decision = await limiter.consume(state.actor.keyId);
      decisions.set(request, decision);
      if (decision.allowed) return;
      const seconds = decision.resetSeconds;
      endResponse(
        errorResponse(
          429,
          'RATE_LIMITED',
          `Rate limit of ${limiter.limit} requests per ${limiter.windowSeconds} seconds exceeded for this API key; retry in ${seconds} seconds`,
          {
            requestId: state.requestId,
            details: { retry_after_seconds: seconds, limit: limiter.limit, window_seconds: limiter.windowSeconds },
            headers: { 'retry-after': String(seconds) },
          },
        ),
      );
    },
    onResponse({ request, response }) {
      const decision = decisions.get(request);
      if (!decision) return;
      response.headers.set('ratelimit-policy', policy);
      response.headers.set('ratelimit', `"perkey";r=${decision.remaining};t=${decision.resetSeconds}`);
    },
  };
}

// Requests per API key: RATE_LIMIT_PER_MINUTE (100) in a fixed 60-second window that starts at the key's
// first request, for everything behind the key (GraphQL, REST, MCP) alike. A person signed in to the console counts
// per session instead, with a budget of its own (SESSION_RATE_LIMIT_PER_MINUTE, 600): a console page costs 2 to 11
// requests (the session, its queries, one per live subscription), so a person going through conversations would
// spend a key's 100 in a minute of ordinary work. Key-less routes that do work for anyone (the booking page and its
// API) get the key budget per client address. Counts live in memory, or in Redis when REDIS_URL is set so that every
// instance shares them (an atomic Lua increment).
// If Redis is unreachable, each instance counts in its own memory until Redis is back: the API stays up and
// the limit holds per instance (docs/api-decisions.md, "Production edge").
// Every counted response carries the IETF draft headers RateLimit-Policy and RateLimit; the request past
// the limit gets 429 RATE_LIMITED with Retry-After in seconds, and the message says how many.
import type { Plugin } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { answerWithin } from '../ioDeadline.js';
import { errorResponse } from '../http/errorResponse.js';
import { requestState } from '../http/requestState.js';

const WINDOW_SECONDS = 60;
// How long a request waits for Redis's count before counting in memory instead; the deadline passes only after the
// answers already waiting have been read (infra/ioDeadline.ts), so a busy process does not count a timely answer late.
const ANSWER_MS = 1000;

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
        const counted = await answerWithin(store.consume(key), ANSWER_MS);
        const result = counted === 'late' ? await memory.consume(key) : counted;
        return { allowed: true, remaining: result.remainingPoints, resetSeconds: Math.ceil(result.msBeforeNext / 1000) };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return { allowed: false, remaining: 0, resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
    },
  };
}

/** The key-less routes to count, and the client address a request of theirs counts for (infra/limits/clientAddress.ts). */
export type KeylessCounting = { routes: readonly RegExp[]; clientOf: (request: Request, serverContext: unknown) => string };

/** The budgets: per API key (also per client address on key-less routes), and per console session. */
export type RateLimiters = { perKey: RateLimiter; perSession: RateLimiter };

type Counted = { limiter: RateLimiter; policy: string; limiterKey: string; whom: string };

const PER_KEY = '"perkey"';
const PER_SESSION = '"persession"';
const PER_CLIENT = '"perip"';

/** Runs after authentication: a request with an authenticated key counts for its key, a signed-in person's for their
 * session, one to a key-less route for its client address; nothing else is counted. */
export function useRateLimit(limiters: RateLimiters, keyless: KeylessCounting): Plugin {
  const decisions = new WeakMap<Request, { decision: RateLimitDecision; policy: string; limiter: RateLimiter }>();
  const subjectOf = (request: Request, path: string, serverContext: unknown): Counted | null => {
    const actor = requestState(request).actor;
    if (actor?.session)
      return { limiter: limiters.perSession, policy: PER_SESSION, limiterKey: `session:${actor.session.id}`, whom: 'this console session' };
    if (actor) return { limiter: limiters.perKey, policy: PER_KEY, limiterKey: actor.keyId, whom: 'this API key' };
    if (!keyless.routes.some((route) => route.test(path))) return null;
    const limiterKey = `ip:${keyless.clientOf(request, serverContext)}`;
    return { limiter: limiters.perKey, policy: PER_CLIENT, limiterKey, whom: 'this client address' };
  };
  return {
    async onRequest({ request, url, serverContext, endResponse }) {
      const subject = subjectOf(request, url.pathname, serverContext);
      if (!subject) return;
      const { limiter } = subject;
      const decision = await limiter.consume(subject.limiterKey);
      decisions.set(request, { decision, policy: subject.policy, limiter });
      if (decision.allowed) return;
      const seconds = decision.resetSeconds;
      endResponse(
        errorResponse(
          'RATE_LIMITED',
          `Rate limit of ${limiter.limit} requests per ${limiter.windowSeconds} seconds exceeded for ${subject.whom}; retry in ${seconds} seconds`,
          {
            requestId: requestState(request).requestId,
            details: { retry_after_seconds: seconds, limit: limiter.limit, window_seconds: limiter.windowSeconds },
            headers: { 'retry-after': String(seconds) },
          },
        ),
      );
    },
    onResponse({ request, response }) {
      const entry = decisions.get(request);
      if (!entry) return;
      const { decision, policy, limiter } = entry;
      response.headers.set('ratelimit-policy', `${policy};q=${limiter.limit};w=${limiter.windowSeconds}`);
      response.headers.set('ratelimit', `${policy};r=${decision.remaining};t=${decision.resetSeconds}`);
    },
  };
}

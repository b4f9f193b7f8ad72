// The production edge of the HTTP pipeline, built once from the settings: request logs and metrics, the
// body-size limit, how long API keys are remembered, the rate limits (per key, per console session, and per client
// address on key-less routes), failed sign-ins, GraphQL depth and cost limits, and the MCP session cap setting.
// createApp places `beforeAuthentication` and `afterAuthentication` around the API-key check; the
// transport-level parts (HTTPS only, time-outs, draining) live in infra/transport/.
import type { Plugin } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Settings } from '../infra/config/settings.js';
import { useBodySizeLimit } from '../infra/limits/bodySize.js';
import { useGraphQLLimits } from '../infra/limits/graphqlLimits.js';
import { createRateLimiter, useRateLimit } from '../infra/limits/rateLimit.js';
import { clientAddress } from '../infra/limits/clientAddress.js';
import { createSignInLimiter, type SignInLimiter } from '../infra/limits/signInLimit.js';
import { KEYLESS_ROUTES } from '../infra/http/pipeline.js';
import { useRequestTelemetry } from '../infra/observability/requestTelemetry.js';

export type EdgeSettings = Pick<
  Settings,
  | 'MAX_BODY_BYTES'
  | 'API_KEY_CACHE_SECONDS'
  | 'RATE_LIMIT_PER_MINUTE'
  | 'SESSION_RATE_LIMIT_PER_MINUTE'
  | 'REDIS_KEY_PREFIX'
  | 'GRAPHQL_MAX_DEPTH'
  | 'GRAPHQL_MAX_COST'
  | 'MCP_MAX_SESSIONS_PER_KEY'
  | 'MCP_SESSION_IDLE_MS'
  | 'TRUST_PROXY'
>;

export type Edge = {
  beforeAuthentication: Plugin[];
  afterAuthentication: Plugin[];
  /** The MCP session registry's cap per key and idle time. */
  mcpSessions: { maxPerKey: number; idleMs: number };
  /** How long an API key's authentication is remembered (resolvers/workspace/apiKeyAuthenticator.ts). */
  apiKeyCacheMs: number;
  /** Failed sign-ins per account and per client address (facades/auth/routes.ts). */
  signIn: { limiter: SignInLimiter; clientOf: (request: Request, serverContext: unknown) => string };
};

export function createEdge(settings: EdgeSettings, dependencies: { logger: Logger; redis?: Redis | null }): Edge {
  const rateLimiters = {
    perKey: createRateLimiter({
      perMinute: settings.RATE_LIMIT_PER_MINUTE,
      redis: dependencies.redis,
      keyPrefix: settings.REDIS_KEY_PREFIX,
    }),
    perSession: createRateLimiter({
      perMinute: settings.SESSION_RATE_LIMIT_PER_MINUTE,
      redis: dependencies.redis,
      keyPrefix: `${settings.REDIS_KEY_PREFIX}:session`,
    }),
  };
  const clientOf = (request: Request, serverContext: unknown) => clientAddress(request, serverContext, settings.TRUST_PROXY);
  return {
    beforeAuthentication: [useRequestTelemetry(dependencies.logger), useBodySizeLimit(settings.MAX_BODY_BYTES)],
    afterAuthentication: [
      useRateLimit(rateLimiters, {
        routes: KEYLESS_ROUTES,
        clientOf,
      }),
      ...useGraphQLLimits({ maxDepth: settings.GRAPHQL_MAX_DEPTH, maxCost: settings.GRAPHQL_MAX_COST }),
    ],
    mcpSessions: { maxPerKey: settings.MCP_MAX_SESSIONS_PER_KEY, idleMs: settings.MCP_SESSION_IDLE_MS },
    apiKeyCacheMs: settings.API_KEY_CACHE_SECONDS * 1000,
    signIn: { limiter: createSignInLimiter({ redis: dependencies.redis, keyPrefix: settings.REDIS_KEY_PREFIX }), clientOf },
  };
}

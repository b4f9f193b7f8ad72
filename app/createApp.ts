// Assembles the service: one Yoga instance serving GraphQL at /graphql, with the facades mounted in its
// request pipeline so that authentication, error masking and limits apply to every transport alike.
import { createYoga } from 'graphql-yoga';
import type { Logger } from 'pino';
import { schema } from '../schema/index.js';
import { maskError } from '../schema/shared/errors.js';
import { useTransportInput } from '../infra/http/transportInput.js';
import { useVariableCheck } from '../schema/shared/variableCheck.js';
import { useOneGuessPerRequest } from '../schema/people/oneGuessPerRequest.js';
import { usePartialAnswers } from '../infra/graphql/partialAnswers.js';
import { useCompiledExecution } from '../infra/graphql/compiledExecution.js';
import { useSharedLiveResults } from '../infra/graphql/sharedLiveResults.js';
import type { Context, Services } from '../resolvers/shared/context.js';
import { createGateway } from '../facades/core/gateway.js';
import { useHealthRoute } from '../facades/public/health.js';
import { useRestFacade } from '../facades/rest/facade.js';
import { useMcp, type McpOptions } from '../facades/mcp/plugin.js';
import { useCalendarFeedRoute } from '../facades/public/calendar/feedRoute.js';
import { createApiKeyAuthenticator } from '../resolvers/workspace/apiKeyAuthenticator.js';
import { createSessionAuthenticator } from '../resolvers/people/sessions.js';
import { SERVICE_NAME } from '../resolvers/system/health.js';
import { useBookingPage } from '../facades/public/booking/pageRoute.js';
import { useAuthentication, useNotAcceptableBody, useNotFound, useRequestId, useRequestIdOnErrors } from '../infra/http/pipeline.js';
import { requestState } from '../infra/http/requestState.js';
import { corsFor } from '../infra/http/crossOrigin.js';
import { useProviderCallback } from '../facades/public/whatsapp/callback.js';
import { useAuthRoutes } from '../facades/auth/routes.js';
import { useOAuthRoutes } from '../facades/oauth/routes.js';
import { mcpChallenge } from '../facades/oauth/paths.js';
import { ACCESS_TOKEN_PREFIX, authenticateAccessToken } from '../resolvers/oauth/tokens.js';
import { useConsolePages } from '../facades/console/pages.js';
import { useGraphiQLPage } from '../facades/console/graphiql.js';
import { createEdge, type Edge } from './edge.js';
import { loadSettings } from '../infra/config/settings.js';
import type { SessionStore } from '../infra/mcp/sessionStore.js';

/** Without `edge`, the limits of the settings' defaults apply (in-memory rate limit). */
export type AppOptions = {
  graphiql: boolean;
  logger: Logger;
  edge?: Edge;
  customersSunset?: Date | undefined;
  mcp?: Partial<Pick<McpOptions, 'allowedOrigins' | 'sessions'>>;
  /** Where MCP sessions live, shared by every instance on the database. */
  sessionStore: SessionStore;
};

export function createApp(services: Services, options: AppOptions) {
  const gateway = createGateway();
  const defaults = loadSettings({});
  const edge = options.edge ?? createEdge(defaults, { logger: options.logger });
  const authenticators = {
    keys: createApiKeyAuthenticator(services.prisma, { ttlMs: edge.apiKeyCacheMs, changes: services.keyChanges }),
    sessions: createSessionAuthenticator(services.prisma),
    mcpTokens: {
      recognizes: (credential: string) => credential.startsWith(ACCESS_TOKEN_PREFIX),
      authenticate: (token: string) => authenticateAccessToken(services.prisma, token, services.publicUrls.mcpResource()),
      challenge: () => mcpChallenge(services.publicUrls.oauthIssuer()),
    },
  };
  const mcp = useMcp(gateway, {
    allowedOrigins: [],
    sessions: edge.mcpSessions,
    ...options.mcp,
    store: options.sessionStore,
    keyChanges: services.keyChanges,
    onError: (error) => options.logger.error({ err: error }, 'MCP session bookkeeping failed'),
    name: SERVICE_NAME,
    version: services.version,
  });
  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    // Key requests may come from other origins; the console's door and cookie requests never (infra/http/crossOrigin.ts).
    cors: corsFor,
    // Served by useGraphiQLPage after authentication (facades/console/graphiql.ts).
    graphiql: false,
    landingPage: false,
    // Yoga's own probe answers 200 without touching the database: kept as a liveness probe; /health is the spec's.
    healthCheckEndpoint: '/livez',
    logging: false,
    maskedErrors: {
      maskError: (error) => maskError(error, (unexpected) => options.logger.error({ err: unexpected }, 'unexpected error in a resolver')),
    },
    context: ({ request }): Omit<Context, keyof Services> & Services => {
      const state = requestState(request);
      return {
        ...services,
        actor: state.actor,
        requestId: state.requestId,
        idempotencyKey: request.headers.get('idempotency-key'),
        ...(state.oauthDoor ? { oauthDoor: true as const } : {}),
        ...(state.signInDoor ? { signInDoor: { clientAddress: state.signInDoor.clientAddress, attempts: edge.signIn.limiter } } : {}),
      };
    },
    plugins: [
      useRequestId(),
      ...edge.beforeAuthentication,
      gateway.plugin,
      useVariableCheck(schema),
      useOneGuessPerRequest(),
      useCompiledExecution(),
      useSharedLiveResults(),
      usePartialAnswers(),
      useHealthRoute(gateway),
      useProviderCallback(gateway),
      useCalendarFeedRoute(gateway),
      useAuthentication(authenticators, { graphiql: options.graphiql }),
      ...(options.graphiql ? [useGraphiQLPage()] : []),
      ...edge.afterAuthentication,
      useRequestIdOnErrors(),
      useNotAcceptableBody(),
      useAuthRoutes({ gateway, clientOf: edge.signIn.clientOf }),
      useOAuthRoutes({ gateway, issuer: services.publicUrls.oauthIssuer, resource: services.publicUrls.mcpResource }),
      useTransportInput(),
      useBookingPage(gateway),
      useRestFacade({
        gateway,
        schema,
        version: services.version,
        customersSunset: options.customersSunset,
        mediaFiles: services.mediaFiles,
        onUnexpected: (error) => options.logger.error({ err: error }, 'unexpected error in a REST route'),
      }),
      mcp.plugin,
      useConsolePages(),
      useNotFound(),
    ],
  });
  return { yoga, gateway, edge, mcpSessions: mcp.sessions };
}

export type App = ReturnType<typeof createApp>;

// Assembles the service: one Yoga instance serving GraphQL at /graphql, with the facades mounted in its
// request pipeline so that authentication, error masking and limits apply to every transport alike.
import { createYoga } from 'graphql-yoga';
import type { Logger } from 'pino';
import { schema } from '../schema/index.js';
import { maskError } from '../schema/errors.js';
import type { Context, Services } from '../resolvers/context.js';
import { createGateway } from '../facades/gateway.js';
import { useHealthRoute } from '../facades/health.js';
import { useCalendarFeedRoute } from '../calendar/feedRoute.js';
import { useAuthentication, useNotFound, useRequestId, useRequestIdOnErrors } from './plugins.js';
import { requestState } from './requestState.js';

export type AppOptions = { graphiql: boolean; logger: Logger };

export function createApp(services: Services, options: AppOptions) {
  const gateway = createGateway();
  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: options.graphiql ? { title: 'Messaging CRM GraphQL' } : false,
    landingPage: false,
    // Yoga's own probe answers 200 without touching the database: kept as a liveness probe; /health is the spec's.
    healthCheckEndpoint: '/livez',
    logging: false,
    maskedErrors: {
      maskError: (error) =>
        maskError(error, (unexpected) => options.logger.error({ err: unexpected }, 'unexpected error in a resolver')),
    },
    context: ({ request }): Omit<Context, keyof Services> & Services => {
      const state = requestState(request);
      return { ...services, actor: state.actor, requestId: state.requestId };
    },
    plugins: [
      useRequestId(),
      gateway.plugin,
      useHealthRoute(gateway),
      useCalendarFeedRoute(gateway),
      useAuthentication(services, { graphiql: options.graphiql }),
      useRequestIdOnErrors(),
      useNotFound(),
    ],
  });
  return { yoga, gateway };
}

export type App = ReturnType<typeof createApp>;

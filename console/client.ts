// The console's GraphQL client: urql over the public /graphql endpoint with the session cookie and its CSRF token,
// and subscriptions over SSE with graphql-sse (the protocol graphql-yoga serves), so the inbox updates live. The
// console uses only the public GraphQL API, as the spec's internal dashboards do.
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from '@urql/core';
import { createClient as createSseClient } from 'graphql-sse';
import { csrfToken } from './session.js';

const sse = createSseClient({
  url: '/graphql',
  credentials: 'same-origin',
  headers: () => ({ 'x-csrf-token': csrfToken() }),
  retryAttempts: Infinity,
  retry: async (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** retries))),
});

export const client = new Client({
  url: '/graphql',
  // Answers are read fresh after each write: the inbox is shared by the team and updated live.
  requestPolicy: 'cache-and-network',
  fetchOptions: () => ({ credentials: 'same-origin', headers: { 'x-csrf-token': csrfToken() } }),
  exchanges: [
    cacheExchange,
    fetchExchange,
    subscriptionExchange({
      forwardSubscription: (operation) => ({
        subscribe: (sink) => ({ unsubscribe: sse.subscribe({ ...operation, query: operation.query ?? '' }, sink) }),
      }),
    }),
  ],
});

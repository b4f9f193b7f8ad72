// Queries and mutations run on graphql-js's own `execute`. Yoga's default executor (@graphql-tools/executor) sets
// an object's keys as their resolvers settle, so an answer's keys came in a different order from run to run
// whenever a resolver was asynchronous (hayes/pothos#1511); graphql-js keeps the order of the selection, as the
// GraphQL spec asks of serialized maps. Subscriptions keep Yoga's executor.
import { execute } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export function useOrderedExecution(): Plugin {
  return { onExecute: ({ setExecuteFn }) => setExecuteFn(execute) };
}

// Runs GraphQL operations for facades inside Yoga's own pipeline (its envelop plugins, context factory
// and error masking), so REST, MCP and /health see exactly what a GraphQL client would. Subscriptions run the
// same way (MCP resource subscriptions follow the event hub through them, as GraphQL clients do).
// Same technique as @graphql-yoga/plugin-sofa: keep `getEnveloped` from onYogaInit. Callers inside the service
// that answer no HTTP request (the agent worker, also in `npm run worker`, which has no Yoga) run the same named
// operations through runInProcess, under the context app/ builds for them: same schema, scopes and resolvers.
import { execute, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import { schema } from '../../schema/index.js';
import { operation } from './operations.js';

type GetEnveloped = (context: Record<string, unknown>) => {
  contextFactory: (extra?: Record<string, unknown>) => unknown;
  execute: (args: {
    schema: unknown;
    document: DocumentNode;
    contextValue: unknown;
    variableValues?: Record<string, unknown>;
    operationName?: string;
    rootValue?: unknown;
  }) => unknown;
  subscribe: (args: Parameters<GetEnvelopedExecute>[0]) => unknown;
  schema: unknown;
};
type GetEnvelopedExecute = ReturnType<GetEnveloped>['execute'];

export type Gateway = {
  plugin: Plugin;
  /** Runs the named operation of facades/operations for the HTTP request that asked for it. */
  run(request: Request, operationName: string, variables?: Record<string, unknown>): Promise<ExecutionResult>;
  /** Runs the named subscription for the request: its events, or the result that refused it. */
  subscribe(
    request: Request,
    operationName: string,
    variables?: Record<string, unknown>,
  ): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult>;
};

export function createGateway(): Gateway {
  let getEnveloped: GetEnveloped | undefined;
  async function start(
    request: Request,
    operationName: string,
    variables: Record<string, unknown> | undefined,
    how: 'execute' | 'subscribe',
  ) {
    if (!getEnveloped) throw new Error('The gateway plugin is not installed in Yoga.');
    const initial: Partial<YogaInitialContext> = { request, params: { query: '', variables, operationName } };
    const enveloped = getEnveloped(initial);
    const contextValue = await enveloped.contextFactory();
    return enveloped[how]({
      schema: enveloped.schema,
      document: operation(operationName),
      contextValue,
      variableValues: variables,
      operationName,
    });
  }
  return {
    plugin: {
      onYogaInit({ yoga }) {
        getEnveloped = yoga.getEnveloped;
      },
    },
    async run(request, operationName, variables) {
      return (await start(request, operationName, variables, 'execute')) as ExecutionResult;
    },
    async subscribe(request, operationName, variables) {
      return (await start(request, operationName, variables, 'subscribe')) as AsyncGenerator<ExecutionResult> | ExecutionResult;
    },
  };
}

/** Runs the named operation of facades/operations against the schema with a context the caller built (its actor
 * included); an unexpected error stays unmasked in the result (its originalError), for the caller to raise. */
export async function runInProcess(
  contextValue: object,
  operationName: string,
  variables: Record<string, unknown>,
): Promise<ExecutionResult> {
  return execute({ schema, document: operation(operationName), contextValue, variableValues: variables });
}

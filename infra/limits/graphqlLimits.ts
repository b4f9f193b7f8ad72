// Depth and cost limits for GraphQL documents sent by clients to /graphql, checked during validation
// (graphql-armor), so an over-deep or over-expensive query is refused before any resolver runs. A refusal
// is a GraphQL validation error with code VALIDATION_ERROR, answered 400 whatever the Accept header (`spec: false`
// keeps Yoga from answering a validation error 200 to application/json clients, as the README promises the 4xx).
// The facades' own operations are executed
// without validation (facades/core/gateway.ts), so these limits only bind what clients write themselves.
import { GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';

export function useGraphQLLimits(limits: { maxDepth: number; maxCost: number }): Plugin[] {
  const report = (context: ValidationContext | null, error: GraphQLError) =>
    context?.reportError(
      new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
        extensions: { code: 'VALIDATION_ERROR', http: { status: 400, spec: false } },
      }),
    );
  const rejection = { propagateOnRejection: false, onReject: [report] };
  return [maxDepthPlugin({ n: limits.maxDepth, ...rejection }), costLimitPlugin({ maxCost: limits.maxCost, ...rejection })];
}

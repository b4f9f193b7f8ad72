// One sofa-api router per route of the table: sofa matches the path, turns path, query and body values into
// variables and answers with the field's data and the route's status; the document executed is the route's
// selection from the contract (contract.ts), the one the OpenAPI document describes. Execution goes through
// the gateway, inside Yoga's pipeline (authentication, scopes, error masking), as @graphql-yoga/plugin-sofa
// does; failures become the spec's error body.
import { Kind, type DocumentNode, type ExecutionArgs, type ExecutionResult, type execute } from 'graphql';
import { createSofa, createSofaRouter } from 'sofa-api';
import { errorResponse } from '../../app/errorResponse.js';
import { INTERNAL_ERROR_MESSAGE } from '../../schema/errors.js';
import type { Gateway } from '../gateway.js';
import { SELECTION_DEPTH, type RestOperation } from './contract.js';
import { sofaPath } from './paths.js';
import { REST_BASE_PATH } from './routes.js';

/** What the REST facade hands to sofa with each request: the request that Yoga authenticated, and the
 * checked arguments sofa cannot pass on (nulls, custom scalars; see verbatimArguments in inputs.ts). */
export type SofaServerContext = { authenticatedRequest: Request; verbatimArguments: Readonly<Record<string, unknown>> };

export type RouteHandler = (request: Request, context: SofaServerContext) => Promise<Response>;

type ErrorLike = {
  message?: unknown;
  extensions?: { code?: unknown; details?: unknown; http?: { status?: unknown } };
};

/** The spec's error body for the errors of one GraphQL result (or sofa's own request errors). */
function graphqlErrorResponse(errors: ReadonlyArray<unknown>, onUnexpected: (error: unknown) => void): Response {
  const error = (errors[0] ?? {}) as ErrorLike;
  const extensions = typeof error.extensions === 'object' && error.extensions !== null ? error.extensions : null;
  const message = typeof error.message === 'string' ? error.message : INTERNAL_ERROR_MESSAGE;
  if (extensions && typeof extensions.code === 'string') {
    const status = typeof extensions.http?.status === 'number' ? extensions.http.status : 500;
    const details = typeof extensions.details === 'object' && extensions.details !== null ? extensions.details : undefined;
    return errorResponse(status, extensions.code, message, { details: details as Record<string, unknown> | undefined });
  }
  // A GraphQL error without a domain code is a request GraphQL could not run: variables it could not coerce.
  if (extensions) return errorResponse(400, 'VALIDATION_ERROR', message);
  onUnexpected(errors[0]);
  return errorResponse(500, 'INTERNAL', INTERNAL_ERROR_MESSAGE);
}

export function createRouteHandler(operation: RestOperation, gateway: Gateway, onUnexpected: (error: unknown) => void): RouteHandler {
  const { route } = operation;
  // The contract's selection, not sofa's own document: a route may answer with its named operation's selection.
  const selection: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation.selection] };
  const runThroughYoga = (args: ExecutionArgs): Promise<ExecutionResult> => {
    const { authenticatedRequest, verbatimArguments } = args.contextValue as SofaServerContext;
    return gateway.execute({
      request: authenticatedRequest,
      document: selection,
      variables: { ...args.variableValues, ...verbatimArguments },
      operationName: operation.selection.name?.value,
    });
  };
  const sofa = createSofa({
    basePath: REST_BASE_PATH,
    schema: operation.view,
    depthLimit: SELECTION_DEPTH,
    routes: {
      [route.field]: { method: route.method, path: sofaPath(operation.path), responseStatus: route.status ?? 200 },
    },
    context: (serverContext) => serverContext,
    execute: runThroughYoga as unknown as typeof execute,
    errorHandler: ((errors: ReadonlyArray<unknown>) => graphqlErrorResponse(errors, onUnexpected)) as never,
  });
  // No type is a sofa "model": a model nested in another type would be reduced to {id}, and the spec embeds
  // whole records (a conversation's customer).
  const router = createSofaRouter({ ...sofa, models: [] });
  return async (request, context) => router.handleRequest(request, context);
}

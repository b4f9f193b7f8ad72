// GraphQL answers per field: a field that failed is null with its error, and the answer keeps the other fields'
// data (root fields are nullable: rootNullability.ts). Such an answer is a GraphQL response with data, which
// GraphQL-over-HTTP answers 200, so the HTTP status an error carries for REST and MCP (`extensions.http`) is
// dropped from answers that have data; a request refused as a whole (no data) keeps its 4xx.
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

function withoutHttpStatus(error: GraphQLError): GraphQLError {
  if (!error.extensions['http']) return error;
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}

function partial(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length || result.data == null) return result;
  return { ...result, errors: result.errors.map(withoutHttpStatus) };
}

/** On /graphql answers only (as they are written out, after error masking): REST and MCP run their operations
 * through the gateway, which does not come here, and keep the status for their own answers. */
export function usePartialAnswers(): Plugin {
  return {
    onResultProcess: ({ result, setResult }) => {
      if (Symbol.asyncIterator in result) return;
      setResult(Array.isArray(result) ? result.map(partial) : partial(result as ExecutionResult));
    },
  };
}

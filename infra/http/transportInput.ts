// What a malformed /graphql request gets, before any operation runs. Yoga answers a content type it has no
// parser for with an empty 415, and lets its parsers' own failures (variables that are not JSON in a GET query,
// a broken multipart body) escape as unexpected errors, which became 500s. Here the first is the spec's error
// object and the second a GraphQL-over-HTTP 400, as Yoga already answers a body that is not JSON.
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import { errorResponse } from './errorResponse.js';
import { requestState } from './requestState.js';

export function useTransportInput(): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, endResponse }) {
      if (!requestParser) {
        endResponse(
          errorResponse('UNSUPPORTED_MEDIA_TYPE', 'Send GraphQL requests as application/json, or as GET with query parameters', {
            requestId: requestState(request).requestId,
          }),
        );
        return;
      }
      const parse = requestParser;
      setRequestParser(async (incoming) => {
        try {
          return await parse(incoming);
        } catch (error) {
          if (error instanceof GraphQLError) throw error;
          throw createGraphQLError(`The request is malformed: ${error instanceof Error ? error.message : String(error)}`, {
            extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
          });
        }
      });
    },
  };
}

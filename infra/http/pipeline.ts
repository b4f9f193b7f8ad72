// The HTTP pipeline shared by every facade (GraphQL, REST, MCP): request ids, API-key authentication,
// request ids on GraphQL errors, and a JSON 404 for unknown routes.
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { Authenticator } from '../auth/actor.js';
import { errorResponse } from './errorResponse.js';
import { requestState } from './requestState.js';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,128}$/;

/** A request id for an answer that has none yet (the transport answers before the pipeline runs). */
export function newRequestId(): string {
  return `req_${randomUUID()}`;
}

export function useRequestId(): Plugin {
  return {
    onRequest({ request }) {
      const incoming = request.headers.get('x-request-id');
      requestState(request).requestId = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : newRequestId();
    },
    onResponse({ request, response }) {
      response.headers.set('x-request-id', requestState(request).requestId);
    },
  };
}

/** Paths behind the API key. Everything else is public (health, provider webhooks) or unknown (404). */
const PROTECTED = [/^\/graphql(\/|$)/, /^\/api\//, /^\/mcp(\/|$)/];
/** Public routes that do work for anyone without a key: the booking page and its API. A key sent along is
 * ignored there; the edge counts these requests per client address instead (infra/limits/rateLimit.ts). */
export const KEYLESS_ROUTES = [/^\/book\//, /^\/api\/v1\/public\//];
const PUBLIC_UNDER_PROTECTED = [/^\/api\/v1\/openapi\.json$/, ...KEYLESS_ROUTES];

function isGraphiQLPage(request: Request, path: string): boolean {
  return request.method === 'GET' && path === '/graphql' && (request.headers.get('accept') ?? '').includes('text/html');
}

export function useAuthentication(authenticate: Authenticator, options: { graphiql: boolean }): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      const path = url.pathname;
      if (!PROTECTED.some((pattern) => pattern.test(path))) return;
      if (PUBLIC_UNDER_PROTECTED.some((pattern) => pattern.test(path))) return;
      if (options.graphiql && isGraphiQLPage(request, path)) return;
      const header = request.headers.get('authorization') ?? '';
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      const actor = match?.[1] ? await authenticate(match[1]) : null;
      const state = requestState(request);
      if (!actor) {
        endResponse(
          errorResponse(401, 'UNAUTHORIZED', 'Unauthorized', {
            requestId: state.requestId,
            headers: { 'www-authenticate': 'Bearer' },
          }),
        );
        return;
      }
      state.actor = actor;
    },
  };
}

/** Adds the request id to every GraphQL error of a /graphql response, for support. */
export function useRequestIdOnErrors(): Plugin {
  return {
    onResultProcess({ request, result }) {
      const requestId = requestState(request).requestId;
      for (const single of Array.isArray(result) ? result : [result]) {
        const errors = (single as { errors?: readonly { extensions: Record<string, unknown> }[] }).errors;
        for (const error of errors ?? []) error.extensions['request_id'] = requestId;
      }
    },
  };
}

export function useNotFound(): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (url.pathname === '/graphql') return;
      endResponse(
        errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${url.pathname}`, {
          requestId: requestState(request).requestId,
        }),
      );
    },
  };
}

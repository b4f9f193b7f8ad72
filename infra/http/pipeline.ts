// The HTTP pipeline shared by every facade (GraphQL, REST, MCP): request ids, authentication (API keys
// everywhere behind a key; a person's session cookie on GraphQL, the session route and media files only, only
// from this origin, with its CSRF token on every write and on every GraphQL request), request ids on GraphQL
// errors, and a JSON 404 for unknown routes. OAuth access tokens open /mcp only, and a 401 there says where to get one.
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { Authenticator, SessionAuthenticator } from '../auth/actor.js';
import { safeEqual } from '../crypto/tokens.js';
import { errorResponse } from './errorResponse.js';
import { requestState } from './requestState.js';
import { CSRF_HEADER, sessionTokenOf } from './sessionCookie.js';
import { crossOriginRefusal } from './crossOrigin.js';

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
/** Public routes that do work for anyone without a key: the booking page and its API, the console's sign-in door,
 * the OAuth authorization server and its metadata. A key sent along is
 * ignored there; the edge counts these requests per client address instead (infra/limits/rateLimit.ts). */
export const KEYLESS_ROUTES = [/^\/book\//, /^\/api\/v1\/public\//, /^\/auth\//, /^\/oauth\//, /^\/\.well-known\//];
const PUBLIC_UNDER_PROTECTED = [/^\/api\/v1\/openapi\.json$/, ...KEYLESS_ROUTES];

function isGraphiQLPage(request: Request, path: string): boolean {
  return request.method === 'GET' && path === '/graphql' && (request.headers.get('accept') ?? '').includes('text/html');
}

/** Where a session cookie counts: the console and GraphiQL speak GraphQL; REST and MCP are for keys only, but for
 * a message's media file, which the console shows in its transcript (read only: other methods need the CSRF header). */
const COOKIE_PATHS = [/^\/graphql$/, /^\/auth\/session$/, /^\/api\/v1\/messages\/[^/]+\/media$/];
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** OAuth access tokens, which only the MCP server accepts (resolvers/oauth/tokens.ts). */
export type McpTokens = {
  /** Whether a bearer credential has an access token's form; such a credential is never tried as a key. */
  recognizes(credential: string): boolean;
  authenticate: Authenticator;
  /** The WWW-Authenticate challenge of a 401 from /mcp (RFC 9728 §5.1: where the resource's metadata is). */
  challenge(): string;
};

export type Authenticators = { keys: Authenticator; sessions: SessionAuthenticator; mcpTokens?: McpTokens };

const MCP_PATH = /^\/mcp(\/|$)/;

export function useAuthentication(authenticators: Authenticators, options: { graphiql: boolean }): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      const path = url.pathname;
      const state = requestState(request);
      const header = request.headers.get('authorization');
      const sessionToken = header === null && COOKIE_PATHS.some((pattern) => pattern.test(path)) ? sessionTokenOf(request) : null;
      // The credential could not be checked (the database is away): the caller should try again, not be refused.
      const unavailable = () =>
        endResponse(
          errorResponse('SERVICE_UNAVAILABLE', 'Credentials could not be checked just now; try again shortly', {
            requestId: state.requestId,
            headers: { 'retry-after': '1' },
          }),
        );
      if (sessionToken) {
        // A page of another origin (another port or subdomain is the same site, so the Lax cookie goes along) gets
        // nothing done and reads nothing with the cookie, whatever the method.
        const crossOrigin = crossOriginRefusal(request, url);
        if (crossOrigin) {
          const message = `A request signed in by cookie must come from this origin, not ${crossOrigin}`;
          return endResponse(errorResponse('FORBIDDEN', message, { requestId: state.requestId }));
        }
        const signedIn = await authenticators.sessions(sessionToken).catch(() => undefined);
        if (signedIn === undefined) return unavailable();
        if (signedIn) {
          // Another site can make a browser send the cookie, but not this header (CORS never allows it). GraphQL
          // over GET runs with it too: a read there is as much the person's as a write.
          const csrf = request.headers.get(CSRF_HEADER);
          const needsCsrf =
            !SAFE_METHODS.has(request.method) || (path === '/graphql' && !(options.graphiql && isGraphiQLPage(request, path)));
          if (needsCsrf && (!csrf || !safeEqual(csrf, signedIn.csrfToken))) {
            endResponse(
              errorResponse('FORBIDDEN', `A request signed in by cookie must carry the session's ${CSRF_HEADER} header`, {
                requestId: state.requestId,
              }),
            );
            return;
          }
          state.actor = signedIn.actor;
          state.csrfToken = signedIn.csrfToken;
          return;
        }
      }
      if (!PROTECTED.some((pattern) => pattern.test(path))) return;
      if (PUBLIC_UNDER_PROTECTED.some((pattern) => pattern.test(path))) return;
      if (options.graphiql && isGraphiQLPage(request, path)) return;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
      const credential = match?.[1];
      const mcp = MCP_PATH.test(path);
      const tokens = authenticators.mcpTokens;
      const isToken = credential !== undefined && tokens !== undefined && tokens.recognizes(credential);
      // An OAuth access token is bound to the MCP server (its audience): every other door refuses it unread.
      const authenticate = isToken ? (mcp ? tokens.authenticate : async () => null) : authenticators.keys;
      const actor = credential ? await authenticate(credential).catch(() => undefined) : null;
      if (actor === undefined) return unavailable();
      if (!actor) {
        const message = isToken && !mcp ? 'OAuth access tokens are accepted only by the MCP server (/mcp); use an API key' : 'Unauthorized';
        const challenge = mcp && tokens ? `${tokens.challenge()}${credential ? ', error="invalid_token"' : ''}` : 'Bearer';
        endResponse(errorResponse('UNAUTHORIZED', message, { requestId: state.requestId, headers: { 'www-authenticate': challenge } }));
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

/** GraphQL-over-HTTP's 406 (a subscription asked for as application/json, an Accept nothing here can answer) comes
 * without a body: answered with the spec's error object, saying what to accept. */
export function useNotAcceptableBody(): Plugin {
  return {
    onResponse({ request, response, setResponse }) {
      if (response.status !== 406 || response.headers.get('content-type')) return;
      const message =
        'The Accept header names no form this answer comes in: a subscription answers as text/event-stream, other operations as application/json';
      setResponse(
        errorResponse('NOT_ACCEPTABLE', message, {
          requestId: requestState(request).requestId,
          headers: { 'x-request-id': requestState(request).requestId },
        }),
      );
    },
  };
}

export function useNotFound(): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (url.pathname === '/graphql') return;
      endResponse(
        errorResponse('NOT_FOUND', `No route ${request.method} ${url.pathname}`, {
          requestId: requestState(request).requestId,
        }),
      );
    },
  };
}

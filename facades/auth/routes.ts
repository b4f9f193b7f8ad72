// /auth: the console's door for people. Translates HTTP to the public sign-in operations (facades/operations/
// people.graphql) and their session to a cookie, so scripts never see the token: sign-in, the first run's setup,
// accepting an invitation, sign-out, and the signed-in person's session with its CSRF token. Writes take JSON
// only and, when the browser says where it comes from, only from this origin: another site's form cannot post
// here. These routes are the one door for the sign-in operations: they alone mark the request so the sign-in
// fields may run (requestState's signInDoor, with the client's address the lock-out counts in the resolver).
import type { Plugin } from 'graphql-yoga';
import { errorResponse, methodNotAllowed, payloadTooLarge } from '../../infra/http/errorResponse.js';
import { Response } from '../../infra/http/fetchApi.js';
import { requestState } from '../../infra/http/requestState.js';
import { crossOriginRefusal } from '../../infra/http/crossOrigin.js';
import { clearedSessionCookie, sessionCookie, sessionTokenOf } from '../../infra/http/sessionCookie.js';
import { executionFailure, failureResponse } from '../core/executionFailure.js';
import type { Gateway } from '../core/gateway.js';
import type { SessionPartsFragment, SetUpMutation, SetupRequiredQuery, ViewerQuery } from '../core/operations.generated.js';
import { routeHook } from '../../infra/http/routeHook.js';

export const AUTH_PATH_PREFIX = '/auth/';

type Signing = 'SignIn' | 'SetUp' | 'InvitationAccept';
const SIGNING_ROUTES: Record<string, { operation: Signing; field: string; status: number }> = {
  '/auth/sign-in': { operation: 'SignIn', field: 'signIn', status: 200 },
  '/auth/setup': { operation: 'SetUp', field: 'setUp', status: 201 },
  '/auth/invitations/accept': { operation: 'InvitationAccept', field: 'invitationAccept', status: 201 },
};

const MAX_BODY_BYTES = 16 * 1024;

export type AuthRoutesOptions = {
  gateway: Gateway;
  /** The client's address, which the sign-in lock-out counts. */
  clientOf: (request: Request, serverContext: unknown) => string;
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** A session as the signing operations answer it; only SetUp adds the sandbox integration's secret, shown once. */
type OpenedSession = SessionPartsFragment & Partial<Pick<SetUpMutation['setUp'] & object, 'new_integration'>>;

/** What the console may know of a session: never its token. */
function publicSession(session: SessionPartsFragment) {
  return {
    user: session.user,
    workspace: session.workspace,
    scopes: session.scopes,
    csrf_token: session.csrf_token,
    expires_at: session.expires_at,
  };
}

/** A write from another origin (as the browser says: Origin, Sec-Fetch-Site), or in a form's encoding, is
 * refused before anything runs. */
function refusedWrite(request: Request, url: URL, requestId: string): Response | null {
  if (crossOriginRefusal(request, url)) {
    return errorResponse('FORBIDDEN', 'Requests to /auth must come from this origin', { requestId });
  }
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    return errorResponse('UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json', { requestId });
  }
  return null;
}

async function jsonBody(request: Request, requestId: string): Promise<Record<string, unknown> | Response> {
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
    return payloadTooLarge(MAX_BODY_BYTES, requestId);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  return errorResponse('VALIDATION_ERROR', 'The body must be a JSON object', { requestId });
}

export function useAuthRoutes(options: AuthRoutesOptions): Plugin {
  const { gateway, clientOf } = options;

  async function session(request: Request, requestId: string): Promise<Response> {
    const state = requestState(request);
    if (!state.actor || !state.csrfToken) {
      const result = await gateway.run(request, 'SetupRequired');
      const setupRequired = (result.data as SetupRequiredQuery | null | undefined)?.setupRequired === true;
      return errorResponse('UNAUTHORIZED', 'Not signed in', { requestId, details: { setup_required: setupRequired } });
    }
    const result = await gateway.run(request, 'Viewer');
    const failure = executionFailure(result);
    if (failure) return failureResponse(failure, requestId);
    const { viewer } = result.data as ViewerQuery;
    return json(200, { user: viewer?.user, workspace: viewer?.workspace, scopes: viewer?.scopes, csrf_token: state.csrfToken });
  }

  async function signing(request: Request, route: (typeof SIGNING_ROUTES)[string], requestId: string, serverContext: unknown) {
    const body = await jsonBody(request, requestId);
    if (body instanceof Response) return body;
    requestState(request).signInDoor = { clientAddress: clientOf(request, serverContext) };
    const result = await gateway.run(request, route.operation, body);
    const failure = executionFailure(result);
    if (failure) {
      const wait = failure.code === 'RATE_LIMITED' ? failure.details?.['retry_after'] : undefined;
      return failureResponse(failure, requestId, typeof wait === 'number' ? { 'retry-after': String(wait) } : undefined);
    }
    const opened = (result.data as Record<string, OpenedSession>)[route.field] as OpenedSession;
    const answer = opened.new_integration ? { ...publicSession(opened), new_integration: opened.new_integration } : publicSession(opened);
    return json(route.status, answer, { 'set-cookie': sessionCookie(opened.token, new Date(String(opened.expires_at))) });
  }

  async function signOut(request: Request, requestId: string, serverContext: unknown): Promise<Response> {
    const token = sessionTokenOf(request);
    if (token) {
      requestState(request).signInDoor = { clientAddress: clientOf(request, serverContext) };
      const failure = executionFailure(await gateway.run(request, 'SignOut', { token }));
      if (failure) return failureResponse(failure, requestId);
    }
    return new Response(null, { status: 204, headers: { 'set-cookie': clearedSessionCookie(), 'cache-control': 'no-store' } });
  }

  return {
    onRequest: routeHook(
      ({ url }) => url.pathname.startsWith(AUTH_PATH_PREFIX),
      async ({ request, url, endResponse, serverContext }) => {
        const { requestId } = requestState(request);
        const notAllowed = (allow: string) => methodNotAllowed(request, url.pathname, requestId, allow);
        if (url.pathname === '/auth/session') {
          return endResponse(request.method === 'GET' ? await session(request, requestId) : notAllowed('GET'));
        }
        const route = SIGNING_ROUTES[url.pathname];
        if (!route && url.pathname !== '/auth/sign-out') return;
        if (request.method !== 'POST') return endResponse(notAllowed('POST'));
        const refused = refusedWrite(request, url, requestId);
        if (refused) return endResponse(refused);
        endResponse(route ? await signing(request, route, requestId, serverContext) : await signOut(request, requestId, serverContext));
      },
    ),
  };
}

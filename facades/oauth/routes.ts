// The OAuth authorization server's HTTP side, for MCP clients: the metadata documents (RFC 9728, RFC 8414), the
// authorization endpoint (checks the request, then hands the person's browser to the console's consent page), the
// token endpoint, Dynamic Client Registration (RFC 7591) and revocation (RFC 7009). A thin transport: each route
// runs one named operation of facades/operations/oauth.graphql behind the routes' door (requestState's oauthDoor),
// and the resolvers (resolvers/oauth/) own every rule. Anyone may call these routes, from any origin (CORS without
// credentials: no cookie is read here), counted per client address by the edge's rate limit; their errors are
// OAuth's own form ({error, error_description}) that OAuth clients read, but for the metadata documents' and the
// authorization endpoint's unredirectable errors, which are the spec's error object.
import type { Plugin } from 'graphql-yoga';
import { methodNotAllowed, payloadTooLarge } from '../../infra/http/errorResponse.js';
import { Response } from '../../infra/http/fetchApi.js';
import { requestState } from '../../infra/http/requestState.js';
import { KEY_SCOPES } from '../../resolvers/workspace/scopes.js';
import { executionFailure, failureResponse, type Failure } from '../core/executionFailure.js';
import type { Gateway } from '../core/gateway.js';
import type { OAuthRegisterClientMutation, OAuthTokenMutation } from '../core/operations.generated.js';
import { OAUTH_PATHS } from './paths.js';
import { routeHook } from '../../infra/http/routeHook.js';

const MAX_BODY_BYTES = 16 * 1024;
const AUTHORIZATION_PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'scope',
  'state',
  'resource',
] as const;

export type OAuthRoutesOptions = {
  gateway: Gateway;
  /** The service's public origin (PUBLIC_BASE_URL): the issuer. */
  issuer: () => string;
  /** The MCP server's public URL: the protected resource. */
  resource: () => string;
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** RFC 6749 §5.2's error form; `invalid_client` answers 401, the rest 400. */
function oauthFailure(failure: Failure): Response {
  const name = failure.details?.['oauth_error'];
  const error = typeof name === 'string' ? name : failure.status >= 500 ? 'server_error' : 'invalid_request';
  const status = failure.status >= 500 ? failure.status : error === 'invalid_client' ? 401 : 400;
  return json(status, { error, error_description: failure.message });
}

/** The body's fields: a form (RFC 6749's token and revocation requests) or a JSON object (registration). */
async function bodyFields(request: Request, form: boolean, requestId: string): Promise<Record<string, unknown> | Response> {
  const type = request.headers.get('content-type') ?? '';
  const expected = form ? 'application/x-www-form-urlencoded' : 'application/json';
  if (!type.toLowerCase().startsWith(expected)) {
    return json(400, { error: 'invalid_request', error_description: `The body must be ${expected}` });
  }
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return payloadTooLarge(MAX_BODY_BYTES, requestId);
  if (form) return Object.fromEntries(new URLSearchParams(text));
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  return json(400, { error: 'invalid_client_metadata', error_description: 'The body must be a JSON object' });
}

const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function useOAuthRoutes(options: OAuthRoutesOptions): Plugin {
  const { gateway } = options;

  const protectedResource = () => ({
    resource: options.resource(),
    authorization_servers: [options.issuer()],
    scopes_supported: [...KEY_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Messaging CRM MCP server',
  });

  const authorizationServer = () => {
    const issuer = options.issuer();
    return {
      issuer,
      authorization_endpoint: `${issuer}${OAUTH_PATHS.authorize}`,
      token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
      registration_endpoint: `${issuer}${OAUTH_PATHS.register}`,
      revocation_endpoint: `${issuer}${OAUTH_PATHS.revoke}`,
      scopes_supported: [...KEY_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    };
  };

  /** Checks the request, then sends the browser to the consent page with it; an error about the client or its
   * redirect URI is shown here (never sent to an unchecked URI), any other goes back to the client. */
  async function authorize(request: Request, url: URL, requestId: string): Promise<Response> {
    const parameters: Record<string, string> = {};
    for (const name of AUTHORIZATION_PARAMETERS) {
      const value = url.searchParams.get(name);
      if (value !== null) parameters[name] = value;
    }
    const result = await gateway.run(request, 'OAuthAuthorizationCheck', {
      request: { response_type: '', client_id: '', redirect_uri: '', ...parameters },
    });
    const failure = executionFailure(result);
    if (!failure) {
      return new Response(null, { status: 302, headers: { location: `${OAUTH_PATHS.consent}${url.search}`, 'cache-control': 'no-store' } });
    }
    if (failure.details?.['redirectable'] === true && parameters['redirect_uri']) {
      const back = new URL(parameters['redirect_uri']);
      back.searchParams.set('error', String(failure.details['oauth_error']));
      back.searchParams.set('error_description', failure.message);
      if (parameters['state']) back.searchParams.set('state', parameters['state']);
      back.searchParams.set('iss', options.issuer());
      return new Response(null, { status: 302, headers: { location: back.toString(), 'cache-control': 'no-store' } });
    }
    return failureResponse(failure, requestId);
  }

  async function token(request: Request, requestId: string): Promise<Response> {
    const fields = await bodyFields(request, true, requestId);
    if (fields instanceof Response) return fields;
    const variables: Record<string, string> = {};
    for (const name of ['grant_type', 'client_id', 'code', 'code_verifier', 'redirect_uri', 'refresh_token', 'resource']) {
      const value = nonEmpty(fields[name]);
      if (value !== undefined) variables[name] = value;
    }
    if (!variables['grant_type'] || !variables['client_id']) {
      return json(400, { error: 'invalid_request', error_description: 'grant_type and client_id are required' });
    }
    const result = await gateway.run(request, 'OAuthToken', variables);
    const failure = executionFailure(result);
    if (failure) return oauthFailure(failure);
    return json(200, (result.data as OAuthTokenMutation).oauthToken, { pragma: 'no-cache' });
  }

  async function register(request: Request, requestId: string): Promise<Response> {
    const fields = await bodyFields(request, false, requestId);
    if (fields instanceof Response) return fields;
    const result = await gateway.run(request, 'OAuthRegisterClient', { metadata: fields });
    const failure = executionFailure(result);
    if (failure) return oauthFailure(failure);
    return json(201, (result.data as OAuthRegisterClientMutation).oauthRegisterClient);
  }

  async function revoke(request: Request, requestId: string): Promise<Response> {
    const fields = await bodyFields(request, true, requestId);
    if (fields instanceof Response) return fields;
    const tokenValue = nonEmpty(fields['token']);
    if (!tokenValue) return json(400, { error: 'invalid_request', error_description: 'token is required' });
    const clientId = nonEmpty(fields['client_id']);
    const failure = executionFailure(
      await gateway.run(request, 'OAuthRevoke', { token: tokenValue, ...(clientId ? { client_id: clientId } : {}) }),
    );
    if (failure) return oauthFailure(failure);
    return new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } });
  }

  const documents: Record<string, () => unknown> = {
    [OAUTH_PATHS.protectedResource]: protectedResource,
    [OAUTH_PATHS.protectedResourceMcp]: protectedResource,
    [OAUTH_PATHS.authorizationServer]: authorizationServer,
    [OAUTH_PATHS.openidConfiguration]: authorizationServer,
  };
  const posts: Record<string, (request: Request, requestId: string) => Promise<Response>> = {
    [OAUTH_PATHS.token]: token,
    [OAUTH_PATHS.register]: register,
    [OAUTH_PATHS.revoke]: revoke,
  };

  return {
    onRequest: routeHook(
      ({ url }) => Object.hasOwn(documents, url.pathname) || Object.hasOwn(posts, url.pathname) || url.pathname === OAUTH_PATHS.authorize,
      async ({ request, url, endResponse }) => {
        const path = url.pathname;
        const document = documents[path];
        const post = posts[path];
        const { requestId } = requestState(request);
        const allow = post ? 'POST' : 'GET';
        if (request.method !== allow && !(allow === 'GET' && request.method === 'HEAD')) {
          return endResponse(methodNotAllowed(request, path, requestId, allow));
        }
        if (document) return endResponse(json(200, document(), { 'cache-control': 'public, max-age=300' }));
        requestState(request).oauthDoor = true;
        endResponse(post ? await post(request, requestId) : await authorize(request, url, requestId));
      },
    ),
  };
}

// /webhooks/whatsapp: the callback URL given to the WhatsApp Cloud API (and used by the sandbox alike). A provider
// callback, not part of the public API: no API key; the provider proves itself with the subscription handshake
// (GET, the integration's verify token) and with X-Hub-Signature-256 on every POST, which the public GraphQL
// fields this route runs through the gateway check (ProviderCallbackChallenge, ProviderCallbackReceive). The
// route only translates HTTP: the query string, or the raw body (at most 1 MiB) and its signature header, in; the
// challenge as text, `{"status":"ok"}` or the spec's error object out.
import type { Plugin } from 'graphql-yoga';
import { methodNotAllowed, payloadTooLarge } from '../../../infra/http/errorResponse.js';
import { Response } from '../../../infra/http/fetchApi.js';
import { requestState } from '../../../infra/http/requestState.js';
import { executionFailure, failureResponse } from '../../core/executionFailure.js';
import type { Gateway } from '../../core/gateway.js';
import type { ProviderCallbackChallengeQuery, ProviderCallbackReceiveMutation } from '../../core/operations.generated.js';
import { routeHook } from '../../../infra/http/routeHook.js';

/** The callback URL given to the provider is PUBLIC_BASE_URL + this path (app/publicUrls.ts). */
export const WHATSAPP_CALLBACK_PATH = '/webhooks/whatsapp';

const PROVIDER = 'whatsapp';
const MAX_BODY_BYTES = 1024 * 1024;

export function useProviderCallback(gateway: Gateway): Plugin {
  async function handshake(request: Request, url: URL, requestId: string): Promise<Response> {
    const result = await gateway.run(request, 'ProviderCallbackChallenge', {
      provider: PROVIDER,
      mode: url.searchParams.get('hub.mode'),
      verify_token: url.searchParams.get('hub.verify_token'),
      challenge: url.searchParams.get('hub.challenge'),
    });
    const failure = executionFailure(result);
    if (failure) return failureResponse(failure, requestId);
    return new Response((result.data as ProviderCallbackChallengeQuery).providerCallbackChallenge, {
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    });
  }

  async function receive(request: Request, requestId: string): Promise<Response> {
    const tooLarge = () => payloadTooLarge(MAX_BODY_BYTES, requestId);
    if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return tooLarge();
    const body = await request.text();
    if (Buffer.byteLength(body) > MAX_BODY_BYTES) return tooLarge();
    const result = await gateway.run(request, 'ProviderCallbackReceive', {
      provider: PROVIDER,
      body,
      signature: request.headers.get('x-hub-signature-256'),
    });
    const failure = executionFailure(result);
    if (failure) return failureResponse(failure, requestId);
    return new Response(JSON.stringify((result.data as ProviderCallbackReceiveMutation).providerCallbackReceive), {
      headers: { 'content-type': 'application/json' },
    });
  }

  return {
    onRequest: routeHook(
      ({ url }) => url.pathname === WHATSAPP_CALLBACK_PATH,
      async ({ request, url, endResponse }) => {
        const { requestId } = requestState(request);
        if (request.method === 'GET') return endResponse(await handshake(request, url, requestId));
        if (request.method === 'POST') return endResponse(await receive(request, requestId));
        endResponse(methodNotAllowed(request, url.pathname, requestId, 'GET, POST'));
      },
    ),
  };
}

// /webhooks/whatsapp: the callback URL given to the WhatsApp Cloud API (and used by the sandbox alike).
// It is a provider callback, not part of the public API: no API key; the provider proves itself with the
// subscription handshake (GET, the integration's verify token) and with X-Hub-Signature-256 on every POST
// (HMAC-SHA256 of the raw body with the integration's app secret). Each change is routed to its
// integration by metadata.phone_number_id and handed to the domain functions in resolvers/, acting as the
// integration's workspace; the plugin itself only verifies, parses and routes.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { errorResponse } from '../app/errorResponse.js';
import { requestState } from '../app/requestState.js';
import type { Services } from '../resolvers/context.js';
import {
  PROVIDER_WEBHOOK_PATH,
  callbackIntegrations,
  integrationContext,
  isVerifyToken,
  type CallbackIntegration,
} from '../resolvers/integrations.js';
import { receiveInboundMessage } from '../resolvers/inbound.js';
import { applyStatusUpdate } from '../resolvers/messageStatus.js';
import { parseCallback, type CallbackWork } from './whatsappPayload.js';

const MAX_BODY_BYTES = 1024 * 1024;
const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

function signedBy(raw: Buffer, signature: Buffer, appSecret: string): boolean {
  return timingSafeEqual(signature, createHmac('sha256', appSecret).update(raw).digest());
}

async function handshake(services: Services, url: URL, requestId: string): Promise<Response> {
  const mode = url.searchParams.get('hub.mode');
  const token = url.searchParams.get('hub.verify_token');
  const challenge = url.searchParams.get('hub.challenge');
  if (mode === 'subscribe' && token && challenge && (await isVerifyToken(services, token))) {
    return new Response(challenge, {
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    });
  }
  return errorResponse(403, 'FORBIDDEN', 'Webhook verification failed', { requestId });
}

async function perform(services: Services, integration: CallbackIntegration, work: CallbackWork, requestId: string): Promise<void> {
  const ctx = integrationContext(services, integration, requestId);
  if (work.kind === 'message') {
    await receiveInboundMessage(ctx, { integrationId: integration.id, contact: work.contact, message: work.message });
  } else {
    await applyStatusUpdate(ctx, work.update);
  }
}

async function receive(services: Services, request: Request, requestId: string, logger: Logger): Promise<Response> {
  const signature = SIGNATURE.exec(request.headers.get('x-hub-signature-256') ?? '');
  if (!signature) return errorResponse(401, 'UNAUTHORIZED', 'Missing or malformed X-Hub-Signature-256', { requestId });
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
    return errorResponse(413, 'PAYLOAD_TOO_LARGE', `The body exceeds ${MAX_BODY_BYTES} bytes`, { requestId });
  }
  const raw = Buffer.from(await request.arrayBuffer());
  if (raw.length > MAX_BODY_BYTES)
    return errorResponse(413, 'PAYLOAD_TOO_LARGE', `The body exceeds ${MAX_BODY_BYTES} bytes`, { requestId });

  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString('utf8'));
  } catch {
    return errorResponse(400, 'VALIDATION_ERROR', 'The body is not JSON', { requestId });
  }
  const parsed = parseCallback(payload);
  if (!parsed.ok) {
    return errorResponse(400, 'VALIDATION_ERROR', 'Not a WhatsApp Cloud API webhook payload', {
      requestId,
      details: { payload: parsed.problem },
    });
  }

  // Changes for phone numbers not connected here are acknowledged and ignored: there is no secret to check
  // them with and nothing to write, and refusing them would only make the provider retry for days.
  const integrations = await callbackIntegrations(
    services,
    parsed.work.map((work) => work.phoneNumberId),
  );
  const digest = Buffer.from(signature[1]!, 'hex');
  for (const integration of integrations.values()) {
    if (!signedBy(raw, digest, integration.appSecret)) {
      return errorResponse(401, 'UNAUTHORIZED', 'Invalid X-Hub-Signature-256', { requestId });
    }
  }

  try {
    for (const work of parsed.work) {
      const integration = integrations.get(work.phoneNumberId);
      if (integration) await perform(services, integration, work, requestId);
    }
  } catch (error) {
    // Answering 5xx makes the provider redeliver; every step is idempotent, so the redelivery completes the work.
    logger.error({ err: error, requestId }, 'whatsapp webhook processing failed');
    return errorResponse(500, 'INTERNAL', 'Unexpected server error', { requestId });
  }
  return Response.json({ status: 'ok' });
}

export function useWhatsAppWebhook(services: Services, logger: Logger): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname !== PROVIDER_WEBHOOK_PATH) return;
      const { requestId } = requestState(request);
      if (request.method === 'GET') return endResponse(await handshake(services, url, requestId));
      if (request.method === 'POST') return endResponse(await receive(services, request, requestId, logger));
      endResponse(
        errorResponse(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here`, { requestId, headers: { allow: 'GET, POST' } }),
      );
    },
  };
}

// What a messaging provider sends us (the WhatsApp Cloud API webhook, which the sandbox speaks too): the
// subscription handshake, answered with its challenge when the verify token is a connected integration's, and
// signed deliveries of inbound messages and status reports. A delivery is acted on only when X-Hub-Signature-256
// is the HMAC-SHA256 of its body with the app secret of every integration it names, and only when all of it is
// the documented shape; each change then runs as its integration's workspace. Changes for phone numbers not
// connected here are ignored: there is no secret to check them with and nothing to write, and refusing them
// would only make the provider retry for days. Every step is idempotent, so a redelivery completes the work.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { receiveInboundMessage } from './inbound.js';
import { callbackIntegrations, integrationContext, isVerifyToken } from './integrations.js';
import { applyStatusUpdate } from './messageStatus.js';
import { parseCallback } from './whatsappPayload.js';

/** The providers whose callbacks this service reads: the sandbox imitates the WhatsApp Cloud API. */
const CALLBACK_PROVIDERS = ['whatsapp'];

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

function knownProvider(provider: string): void {
  if (!CALLBACK_PROVIDERS.includes(provider)) throw notFound(`Callback of provider ${provider}`);
}

export async function providerCallbackChallenge(
  ctx: Context,
  input: { provider: string; mode?: string | null; verify_token?: string | null; challenge?: string | null },
): Promise<string> {
  knownProvider(input.provider);
  const { mode, verify_token: token, challenge } = input;
  if (mode === 'subscribe' && token && challenge && (await isVerifyToken(ctx, token))) return challenge;
  throw new DomainError('FORBIDDEN', 'Webhook verification failed');
}

export async function receiveProviderCallback(
  ctx: Context,
  input: { provider: string; body: string; signature?: string | null },
): Promise<{ status: 'ok' }> {
  knownProvider(input.provider);
  const signature = SIGNATURE.exec(input.signature ?? '');
  if (!signature) throw new DomainError('UNAUTHORIZED', 'Missing or malformed X-Hub-Signature-256');
  let payload: unknown;
  try {
    payload = JSON.parse(input.body);
  } catch {
    throw new DomainError('VALIDATION_ERROR', 'The body is not JSON');
  }
  const parsed = parseCallback(payload);
  if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Not a WhatsApp Cloud API webhook payload', { payload: parsed.problem });

  const integrations = await callbackIntegrations(
    ctx,
    parsed.work.map((work) => work.phoneNumberId),
  );
  const raw = Buffer.from(input.body, 'utf8');
  const digest = Buffer.from(signature[1]!, 'hex');
  for (const integration of integrations.values()) {
    if (!timingSafeEqual(digest, createHmac('sha256', integration.appSecret).update(raw).digest())) {
      throw new DomainError('UNAUTHORIZED', 'Invalid X-Hub-Signature-256');
    }
  }
  for (const work of parsed.work) {
    const integration = integrations.get(work.phoneNumberId);
    if (!integration) continue;
    const asWorkspace = integrationContext(ctx, integration, ctx.requestId);
    if (work.kind === 'message') {
      await receiveInboundMessage(asWorkspace, { integrationId: integration.id, contact: work.contact, message: work.message });
    } else {
      await applyStatusUpdate(asWorkspace, work.update);
    }
  }
  return { status: 'ok' };
}

// What a messaging provider sends us (the WhatsApp Cloud API webhook, which the sandbox speaks too): the
// subscription handshake, answered with its challenge when the verify token is a connected integration's, and
// signed deliveries of inbound messages and status reports. A delivery is acted on only when X-Hub-Signature-256
// is the HMAC-SHA256 of its body with the app secret of every integration it names; each part (message or
// status report) then runs on its own as its integration's workspace. A part that can never succeed (not the
// documented shape, refused by validation, or for a phone number not connected here) is kept as a dead letter
// in the workspace of the integration it names, or else of the integrations whose secret signed the delivery,
// and the delivery is acknowledged with 200 once every good part is stored: refusing it would only make the
// provider retry for days, and cost the good parts with the bad. Only a transient failure (the database away)
// answers 5xx, so that the provider redelivers. A delivery naming no connected phone number cannot be
// authenticated and is ignored. Every step is idempotent, so a redelivery completes the work. Template changes
// (status, quality, category) name a business account instead of a phone number: they are authenticated by
// the app secret of every integration of that account, and applied to the template written here for each; so are
// number standing changes (numberQuality.ts), applied to the account's numbers.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { receiveInboundMessage } from './inbound.js';
import { recordInboundFailure } from './inboundFailures.js';
import {
  accountIntegrations,
  callbackIntegrations,
  integrationContext,
  isVerifyToken,
  type CallbackIntegration,
} from '../workspace/integrations.js';
import { applyTemplateChange } from '../templates/templateStatus.js';
import { applyNumberQualityChange } from './numberQuality.js';
import { applyStatusUpdate } from './messageStatus.js';
import { failedPart, parseCallback, type CallbackWork, type FailedPart } from './whatsappPayload.js';

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
    parsed.work.flatMap((work) => (work.phoneNumberId ? [work.phoneNumberId] : [])),
  );
  const accounts = await accountIntegrations(
    ctx,
    [...parsed.templates, ...parsed.numbers].map((work) => work.businessAccountId),
  );
  const raw = Buffer.from(input.body, 'utf8');
  const digest = Buffer.from(signature[1]!, 'hex');
  for (const integration of [...integrations.values(), ...[...accounts.values()].flat()]) {
    if (!timingSafeEqual(digest, createHmac('sha256', integration.appSecret).update(raw).digest())) {
      throw new DomainError('UNAUTHORIZED', 'Invalid X-Hub-Signature-256');
    }
  }
  for (const work of parsed.work) {
    const integration = work.phoneNumberId ? integrations.get(work.phoneNumberId) : undefined;
    if (work.kind === 'failure') await keepFailure(ctx, work, integration, integrations);
    else if (!integration) await keepFailure(ctx, unknownNumber(work), undefined, integrations);
    else await runPart(ctx, work, integration);
  }
  for (const work of parsed.templates) {
    for (const integration of accounts.get(work.businessAccountId) ?? []) {
      await ctx.prisma.$transaction((tx) =>
        applyTemplateChange(tx, { integrationId: integration.id, providerTemplateId: work.templateId }, work.change),
      );
    }
  }
  for (const work of parsed.numbers) {
    const accountNumbers = (accounts.get(work.businessAccountId) ?? []).map((integration) => integration.id);
    await ctx.prisma.$transaction((tx) => applyNumberQualityChange(tx, accountNumbers, work));
  }
  return { status: 'ok' };
}

/** Stores one good part as its integration's workspace; a part refused by validation becomes a dead letter. */
async function runPart(ctx: Context, work: Exclude<CallbackWork, FailedPart>, integration: CallbackIntegration) {
  const asWorkspace = integrationContext(ctx, integration, ctx.requestId);
  try {
    if (work.kind === 'message') {
      await receiveInboundMessage(asWorkspace, { integrationId: integration.id, contact: work.contact, message: work.message });
    } else {
      await applyStatusUpdate(asWorkspace, { ...work.update, recipientBsuid: work.recipientBsuid });
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const reason = [error.message, ...Object.entries(error.details ?? {}).map(([field, problem]) => `${field}: ${String(problem)}`)];
    await keepFailure(ctx, asFailure(work, reason.join('; ')), integration, new Map());
  }
}

function asFailure(work: Exclude<CallbackWork, FailedPart>, reason: string): FailedPart {
  return failedPart(work.phoneNumberId, work.kind, reason, work.raw);
}

function unknownNumber(work: Exclude<CallbackWork, FailedPart>): FailedPart {
  return asFailure(work, `phone number id ${work.phoneNumberId} is not connected to an integration here`);
}

/**
 * Keeps a dead letter in the workspace of the integration the part names or, when it names none connected
 * here, in the workspace of each integration whose app secret signed the delivery (that app sent it).
 */
async function keepFailure(
  ctx: Context,
  failure: FailedPart,
  integration: CallbackIntegration | undefined,
  signers: Map<string, CallbackIntegration>,
) {
  const owners = integration ? [integration] : [...new Map([...signers.values()].map((signer) => [signer.workspaceId, signer])).values()];
  for (const owner of owners) {
    await recordInboundFailure(ctx.prisma, {
      ...failure,
      workspaceId: owner.workspaceId,
      integrationId: integration?.id ?? null,
    });
  }
}

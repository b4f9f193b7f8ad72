// Messaging integrations (one business phone number on a provider): creating one, finding the connected
// one of a workspace, opening its sealed credentials for the adapters, and acting as its workspace when
// the provider calls us (webhooks, sandbox status reports).
import { z } from 'zod';
import type { Integration } from '../../prisma/generated/prisma/client.js';
import type { SecretBox } from '../../infra/crypto/secrets.js';
import { randomToken, safeEqual } from '../../infra/crypto/tokens.js';
import { PROVIDER_NAMES, isProviderName, type ProviderIntegration } from '../../adapters/providers/types.js';
import type { Context, Db, PublicUrls, Services } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { parseInput, uuid } from '../shared/validation.js';
import type { IntegrationCredentials } from './workspaces.js';
import { MAX_THROUGHPUT_PER_SECOND, MESSAGING_LIMIT_TIER_NAMES } from './numberSettings.js';

export type IntegrationRef = { id: string; workspaceId: string; provider: string };

const credentialsShape = z.object({ access_token: z.string(), app_secret: z.string(), verify_token: z.string() });

/** The integration's credentials; sealed under another ENCRYPTION_KEY (an instance that generated its own, a key
 * changed), they cannot be opened, which the caller is told as a conflict with how the integration is kept, not a 500. */
export function openCredentials(secrets: SecretBox, sealed: string): IntegrationCredentials {
  let opened: string;
  try {
    opened = secrets.open(sealed);
  } catch {
    throw new DomainError(
      'CONFLICT',
      'This integration’s credentials cannot be read with this service’s ENCRYPTION_KEY: set the key they were sealed ' +
        'with, or disconnect the integration and connect it again',
      { reason: 'credentials_unreadable' },
    );
  }
  return credentialsShape.parse(JSON.parse(opened));
}

/** What a provider adapter needs for this integration. */
export function providerIntegration(secrets: SecretBox, integration: Integration): ProviderIntegration {
  if (!isProviderName(integration.provider)) {
    throw new DomainError('INTEGRATION_NOT_FOUND', `No messaging provider named ${integration.provider}`);
  }
  return {
    id: integration.id,
    workspaceId: integration.company_id,
    provider: integration.provider,
    phoneNumberId: integration.phone_number_id,
    businessAccountId: integration.business_account_id,
    accessToken: openCredentials(secrets, integration.credentials).access_token,
  };
}

function integrationMissing(provider?: string | null): DomainError {
  return new DomainError(
    'INTEGRATION_NOT_FOUND',
    provider ? `No connected ${provider} integration in this workspace` : 'No connected messaging integration in this workspace',
  );
}

/**
 * The workspace's connected integration: the one of `provider` when named, else the newest connected one.
 * A missing, foreign or disconnected integration is INTEGRATION_NOT_FOUND.
 */
export async function connectedIntegration(db: Db, workspaceId: string, provider?: string | null): Promise<Integration> {
  const integration = await db.integration.findFirst({
    where: { company_id: workspaceId, status: 'connected', ...(provider ? { provider } : {}) },
    orderBy: { id: 'desc' },
  });
  if (!integration) throw integrationMissing(provider);
  return integration;
}

/** The conversation's own integration, which its messages go through. */
export async function conversationIntegration(db: Db, workspaceId: string, integrationId: string | null): Promise<Integration> {
  const integration = integrationId ? await db.integration.findFirst({ where: { id: integrationId, company_id: workspaceId } }) : null;
  return connectedIntegrationOf(integration, workspaceId);
}

/** An integration read with its conversation, if it is the workspace's and connected. */
export function connectedIntegrationOf(integration: Integration | null, workspaceId: string): Integration {
  if (integration?.company_id !== workspaceId || integration.status !== 'connected') throw integrationMissing();
  return integration;
}

/**
 * A context acting for the integration's workspace, for calls that come from the provider rather than
 * from an API key (provider webhooks, sandbox status reports). It carries no scopes: it never runs GraphQL.
 */
export function integrationContext(services: Services, integration: IntegrationRef, requestId: string): Context {
  return {
    ...services,
    actor: {
      workspaceId: integration.workspaceId,
      userId: null,
      keyId: integration.id,
      keyPrefix: `integration:${integration.provider}`,
      scopes: new Set(),
    },
    requestId,
    idempotencyKey: null,
  };
}

const createInput = z.object({
  workspaceId: uuid,
  provider: z.enum(PROVIDER_NAMES, { message: `must be one of ${PROVIDER_NAMES.join(', ')}` }),
  phone_number_id: z
    .string()
    .trim()
    .regex(/^\d{5,30}$/, { message: 'must be the numeric phone number id' }),
  business_account_id: z
    .string()
    .trim()
    .regex(/^\d{5,30}$/, { message: 'must be the numeric WhatsApp business account id' }),
  display_phone_number: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, { message: 'must be in E.164 format' })
    .nullish(),
  access_token: z.string().trim().min(1, { message: 'is required' }),
  app_secret: z.string().trim().min(1, { message: 'is required' }),
  verify_token: z.string().trim().min(8, { message: 'must be at least 8 characters' }).nullish(),
});

export type CreatedIntegration = {
  integration_id: string;
  provider: string;
  phone_number_id: string;
  business_account_id: string;
  verify_token: string;
  /** Where the provider must send its webhooks: give it this URL with the verify token. */
  callback_url: string;
};

/** Connects a phone number of a provider account to a workspace (operator action, see the CLI). */
export async function createIntegration(
  services: { prisma: Db; secrets: SecretBox; publicUrls: PublicUrls },
  raw: Omit<z.input<typeof createInput>, 'provider'> & { provider: string },
): Promise<CreatedIntegration> {
  const input = parseInput(createInput, raw);
  const workspace = await services.prisma.workspace.findUnique({ where: { id: input.workspaceId }, select: { id: true } });
  if (!workspace) throw notFound('Workspace');
  const taken = await services.prisma.integration.findUnique({ where: { phone_number_id: input.phone_number_id }, select: { id: true } });
  if (taken) {
    throw new DomainError('CONFLICT', 'This phone number id is already connected', { phone_number_id: 'already connected' });
  }
  const credentials: IntegrationCredentials = {
    access_token: input.access_token,
    app_secret: input.app_secret,
    verify_token: input.verify_token ?? randomToken(18),
  };
  const integration = await services.prisma.integration.create({
    data: {
      company_id: input.workspaceId,
      provider: input.provider,
      phone_number_id: input.phone_number_id,
      business_account_id: input.business_account_id,
      display_phone_number: input.display_phone_number ?? null,
      credentials: services.secrets.seal(JSON.stringify(credentials)),
    },
  });
  return {
    integration_id: integration.id,
    provider: integration.provider,
    phone_number_id: integration.phone_number_id,
    business_account_id: integration.business_account_id,
    verify_token: credentials.verify_token,
    callback_url: services.publicUrls.providerCallback(input.provider),
  };
}

export type CallbackIntegration = IntegrationRef & { appSecret: string };

/** The connected integrations behind provider phone number ids, with the app secret that signs their callbacks. */
export async function callbackIntegrations(services: Services, phoneNumberIds: string[]): Promise<Map<string, CallbackIntegration>> {
  if (phoneNumberIds.length === 0) return new Map();
  const rows = await services.prisma.integration.findMany({
    where: { phone_number_id: { in: [...new Set(phoneNumberIds)] }, status: 'connected' },
    select: { id: true, company_id: true, provider: true, phone_number_id: true, credentials: true },
  });
  return new Map(
    rows.map((row) => [
      row.phone_number_id,
      {
        id: row.id,
        workspaceId: row.company_id,
        provider: row.provider,
        appSecret: openCredentials(services.secrets, row.credentials).app_secret,
      },
    ]),
  );
}

/** The connected integrations of business accounts (one account may hold several phone numbers), by account id. */
export async function accountIntegrations(services: Services, accountIds: string[]): Promise<Map<string, CallbackIntegration[]>> {
  if (accountIds.length === 0) return new Map();
  const rows = await services.prisma.integration.findMany({
    where: { business_account_id: { in: [...new Set(accountIds)] }, status: 'connected' },
    select: { id: true, company_id: true, provider: true, business_account_id: true, credentials: true },
  });
  const byAccount = new Map<string, CallbackIntegration[]>();
  for (const row of rows) {
    const integration = {
      id: row.id,
      workspaceId: row.company_id,
      provider: row.provider,
      appSecret: openCredentials(services.secrets, row.credentials).app_secret,
    };
    byAccount.set(row.business_account_id, [...(byAccount.get(row.business_account_id) ?? []), integration]);
  }
  return byAccount;
}

/**
 * Whether `token` is the verify token of a connected integration. The provider's subscription handshake
 * carries no phone number id, so every connected integration is a candidate, each compared in constant
 * time; credentials this instance cannot open (sealed under another ENCRYPTION_KEY) cannot match.
 */
export async function isVerifyToken(services: Services, token: string): Promise<boolean> {
  const rows = await services.prisma.integration.findMany({ where: { status: 'connected' }, select: { credentials: true } });
  let matched = false;
  for (const row of rows) {
    const verifyToken = readableCredentials(services.secrets, row.credentials)?.verify_token;
    if (verifyToken !== undefined && safeEqual(verifyToken, token)) matched = true;
  }
  return matched;
}

/**
 * The connected integrations whose credentials this service's ENCRYPTION_KEY cannot open: their sends, template and
 * media calls and provider callbacks are refused 409 `credentials_unreadable` until the key they were sealed with is
 * set or they are connected again. The server names them when it starts, so that the operator sees it in the error log.
 */
export async function unreadableIntegrations(services: Pick<Services, 'prisma' | 'secrets'>): Promise<IntegrationRef[]> {
  const rows = await services.prisma.integration.findMany({
    where: { status: 'connected' },
    select: { id: true, company_id: true, provider: true, credentials: true },
    orderBy: { id: 'asc' },
  });
  return rows
    .filter((row) => readableCredentials(services.secrets, row.credentials) === null)
    .map((row) => ({ id: row.id, workspaceId: row.company_id, provider: row.provider }));
}

function readableCredentials(secrets: SecretBox, sealed: string): IntegrationCredentials | null {
  try {
    return openCredentials(secrets, sealed);
  } catch {
    return null;
  }
}

type Query = { select?: object; include?: object };

/** The workspace's integrations, newest first, disconnected ones included. */
export function listIntegrations(ctx: Context, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  return ctx.prisma.integration.findMany({ ...query, where: { company_id: workspaceId }, orderBy: { id: 'desc' } });
}

/** What to give the provider's app settings for this integration: the verify token of its subscription handshake. */
export function integrationVerifyToken(ctx: Context, integration: { credentials: string }): string | null {
  return readableCredentials(ctx.secrets, integration.credentials)?.verify_token ?? null;
}

/** Connects a number from the console: the signed-in person's workspace. */
export function connectIntegration(
  ctx: Context,
  raw: Omit<z.input<typeof createInput>, 'provider' | 'workspaceId'> & { provider: string },
) {
  return createIntegration(ctx, { ...raw, workspaceId: requireActor(ctx).workspaceId });
}

/** Stops using an integration: no sends through it, its callbacks are refused; its history stays. */
export async function disconnectIntegration(ctx: Context, id: string, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const integration = await ctx.prisma.integration.findFirst({
    where: { id: parseInput(uuid, id), company_id: workspaceId },
    select: { id: true },
  });
  if (!integration) throw notFound('Integration');
  return ctx.prisma.integration.update({ ...query, where: { id: integration.id }, data: { status: 'disconnected' } });
}

export type RotatedSecret = { integration_id: string; app_secret: string };

/**
 * A new app secret for an integration, answered once: generated for the sandbox (whose deliveries this service
 * signs itself); for WhatsApp, the one Meta shows after its reset in the app's settings, given as `app_secret`.
 */
export async function rotateIntegrationSecret(
  services: { prisma: Db; secrets: SecretBox },
  input: { workspaceId: string; id: string; app_secret?: string | null },
): Promise<RotatedSecret> {
  const integration = await services.prisma.integration.findFirst({
    where: { id: parseInput(uuid, input.id), company_id: input.workspaceId },
    select: { id: true, provider: true, credentials: true },
  });
  if (!integration) throw notFound('Integration');
  const given = input.app_secret?.trim();
  if (!given && integration.provider !== 'sandbox') {
    throw new DomainError('VALIDATION_ERROR', "A WhatsApp app secret is Meta's: reset it in the app's settings and give it here", {
      app_secret: 'is required for a whatsapp integration',
    });
  }
  const appSecret = given || randomToken(24);
  const credentials = { ...openCredentials(services.secrets, integration.credentials), app_secret: appSecret };
  await services.prisma.integration.update({
    where: { id: integration.id },
    data: { credentials: services.secrets.seal(JSON.stringify(credentials)) },
  });
  return { integration_id: integration.id, app_secret: appSecret };
}

const limitsInput = z
  .object({
    id: uuid,
    throughput_per_second: z
      .number()
      .int()
      .min(1, { message: `must be 1 to ${MAX_THROUGHPUT_PER_SECOND}` })
      .max(MAX_THROUGHPUT_PER_SECOND, { message: `must be 1 to ${MAX_THROUGHPUT_PER_SECOND}` })
      .nullish(),
    messaging_limit_tier: z
      .enum(MESSAGING_LIMIT_TIER_NAMES, { message: `must be one of ${MESSAGING_LIMIT_TIER_NAMES.join(', ')}` })
      .nullish(),
  })
  .refine((input) => input.throughput_per_second != null || input.messaging_limit_tier != null, {
    message: 'give throughput_per_second or messaging_limit_tier',
    path: ['throughput_per_second'],
  });

export type IntegrationLimits = { id: string; throughput_per_second?: number | null; messaging_limit_tier?: string | null };

/**
 * Sets the limits campaigns keep on this number: its throughput (messages per second) and its messaging-limit
 * tier, as Meta's WhatsApp Manager shows them when the provider has not told them (or to send below them). Each
 * value set is marked `manual` and kept until the provider tells again (numberStanding.ts).
 */
export async function updateIntegrationLimits(ctx: Context, raw: IntegrationLimits, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const input = parseInput(limitsInput, raw);
  const integration = await ctx.prisma.integration.findFirst({ where: { id: input.id, company_id: workspaceId }, select: { id: true } });
  if (!integration) throw notFound('Integration');
  const now = new Date();
  return ctx.prisma.integration.update({
    ...query,
    where: { id: integration.id },
    data: {
      ...(input.throughput_per_second != null
        ? { throughput_per_second: input.throughput_per_second, throughput_source: 'manual', throughput_updated_at: now }
        : {}),
      ...(input.messaging_limit_tier != null
        ? { messaging_limit_tier: input.messaging_limit_tier, messaging_limit_tier_source: 'manual', messaging_limit_tier_updated_at: now }
        : {}),
    },
  });
}

// Workspace API keys: random, with a visible prefix, stored only as SHA-256, shown once, revocable. Every key
// belongs to the person who created it (the CLI's to the workspace's owner) and acts, at every request, with its
// own scopes within what that person's current role allows (resolvers/workspace/roles.ts).
import { z } from 'zod';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { randomToken, safeEqual, sha256Hex } from '../../infra/crypto/tokens.js';
import { KEY_SCOPES, type KeyScope } from './scopes.js';
import { announceKeyChange } from './keyChanges.js';
import { keyScopesWithin, roleKeyScopes } from './roles.js';
import type { Actor, Context, Db } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { parseInput, uuid } from '../shared/validation.js';

const KEY_PREFIX = 'mcrm_';
const PREFIX_LENGTH = KEY_PREFIX.length + 8;
const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeySummary = {
  id: string;
  user_id: string | null;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

const createInput = z.object({
  workspaceId: uuid,
  userId: uuid.nullish(),
  name: z.string().min(1).max(200).default('API key'),
  scopes: z.array(z.enum(KEY_SCOPES, { message: `must be one of ${KEY_SCOPES.join(', ')}` })).min(1),
});

export async function createApiKey(
  prisma: Db,
  input: { workspaceId: string; userId?: string | null; name?: string; scopes: KeyScope[] | string[] },
): Promise<{ api_key: string; key: ApiKeySummary }> {
  const { workspaceId, userId, name, scopes } = parseInput(createInput, input);
  const workspace = await prisma.workspace.findUnique({ where: { id: workspaceId }, select: { id: true } });
  if (!workspace) throw notFound('Workspace');
  const creator = userId ?? (await workspaceOwner(prisma, workspaceId));
  const apiKey = `${KEY_PREFIX}${randomToken(24)}`;
  const key = await prisma.apiKey.create({
    data: {
      company_id: workspaceId,
      user_id: creator,
      name,
      prefix: apiKey.slice(0, PREFIX_LENGTH),
      hash: sha256Hex(apiKey),
      scopes: [...new Set(scopes)],
    },
    select: summarySelect,
  });
  return { api_key: apiKey, key };
}

/** The workspace's first owner, to whom keys made outside the console (the CLI's) belong. */
async function workspaceOwner(prisma: Db, workspaceId: string): Promise<string | null> {
  const owner = await prisma.user.findFirst({
    where: { company_id: workspaceId, role: 'owner', status: 'active' },
    orderBy: { id: 'asc' },
    select: { id: true },
  });
  return owner?.id ?? null;
}

const summarySelect = {
  id: true,
  user_id: true,
  name: true,
  prefix: true,
  scopes: true,
  created_at: true,
  last_used_at: true,
  revoked_at: true,
} as const;

const workspaceInput = z.object({ workspace: uuid });

export function listApiKeys(prisma: PrismaClient, workspaceId: string): Promise<ApiKeySummary[]> {
  const { workspace } = parseInput(workspaceInput, { workspace: workspaceId });
  return prisma.apiKey.findMany({ where: { company_id: workspace }, orderBy: { id: 'desc' }, select: summarySelect });
}

export async function revokeApiKey(prisma: PrismaClient, workspaceId: string, keyId: string): Promise<ApiKeySummary> {
  parseInput(workspaceInput, { workspace: workspaceId });
  const id = parseInput(uuid, keyId);
  const existing = await prisma.apiKey.findFirst({ where: { id, company_id: workspaceId }, select: { id: true } });
  if (!existing) throw notFound('API key');
  const revoked = await prisma.apiKey.update({ where: { id }, data: { revoked_at: new Date() }, select: summarySelect });
  await announceKeyChange(prisma, workspaceId);
  return revoked;
}

/** A key's caller and when its use was last recorded, as the authentication cache keeps them. */
export type KeyUse = { actor: Actor; lastUsedAt: Date | null };

/** The caller behind a bearer key, or null for a missing, malformed, unknown or revoked key. */
export async function authenticateApiKey(prisma: PrismaClient, apiKey: string): Promise<KeyUse | null> {
  if (!apiKey.startsWith(KEY_PREFIX) || apiKey.length < PREFIX_LENGTH + 16 || apiKey.length > 200) return null;
  const record = await prisma.apiKey.findUnique({
    where: { prefix: apiKey.slice(0, PREFIX_LENGTH) },
    select: {
      id: true,
      company_id: true,
      user_id: true,
      prefix: true,
      hash: true,
      scopes: true,
      revoked_at: true,
      last_used_at: true,
      user: { select: { role: true, status: true } },
    },
  });
  if (!record || record.revoked_at || !safeEqual(record.hash, sha256Hex(apiKey))) return null;
  // A key whose creator was removed (or deleted) lost everything its creator lost.
  if (!record.user || record.user.status !== 'active') return null;
  const use: KeyUse = {
    actor: {
      workspaceId: record.company_id,
      userId: record.user_id,
      keyId: record.id,
      keyPrefix: record.prefix,
      scopes: keyScopesWithin(record.scopes, record.user.role),
    },
    lastUsedAt: record.last_used_at,
  };
  recordKeyUse(prisma, use);
  return use;
}

/** Records use at most about once a minute per key, off the request path; `use` remembers the last write. */
export function recordKeyUse(prisma: PrismaClient, use: KeyUse): void {
  const now = Date.now();
  if (use.lastUsedAt && now - use.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  use.lastUsedAt = new Date(now);
  prisma.apiKey
    .updateMany({
      where: { id: use.actor.keyId, OR: [{ last_used_at: null }, { last_used_at: { lt: new Date(now - LAST_USED_RESOLUTION_MS) } }] },
      data: { last_used_at: new Date(now) },
    })
    .catch(() => undefined);
}

const personKeyInput = z.object({
  name: z.string().trim().min(1, { message: 'is required' }).max(200),
  scopes: z
    .array(z.enum(KEY_SCOPES, { message: `must be one of ${KEY_SCOPES.join(', ')}` }))
    .min(1, { message: 'needs at least one scope' }),
});

/** A key made in the console: it belongs to the signed-in person and may hold only scopes their role allows. */
export async function createKeyAsPerson(ctx: Context, input: { name: string; scopes: string[] }) {
  const actor = requireActor(ctx);
  const { name, scopes } = parseInput(personKeyInput, input);
  const allowed = new Set<string>(roleKeyScopes(actor.session?.role ?? ''));
  const refused = scopes.filter((scope) => !allowed.has(scope));
  if (refused.length > 0) {
    throw new DomainError('FORBIDDEN', `Your role cannot give a key ${refused.join(', ')}`, {
      scopes: `not allowed for your role: ${refused.join(', ')}`,
    });
  }
  return createApiKey(ctx.prisma, { workspaceId: actor.workspaceId, userId: actor.userId, name, scopes });
}

export function listWorkspaceKeys(ctx: Context, query: { select?: object; include?: object } = {}) {
  const { workspaceId } = requireActor(ctx);
  return ctx.prisma.apiKey.findMany({ ...query, where: { company_id: workspaceId }, orderBy: { id: 'desc' } });
}

export async function revokeWorkspaceKey(ctx: Context, keyId: string, query: { select?: object; include?: object } = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(z.object({ id: uuid }), { id: keyId });
  const existing = await ctx.prisma.apiKey.findFirst({ where: { id, company_id: workspaceId }, select: { revoked_at: true } });
  if (!existing) throw notFound('API key');
  const revoked = await ctx.prisma.apiKey.update({ ...query, where: { id }, data: { revoked_at: existing.revoked_at ?? new Date() } });
  await announceKeyChange(ctx.prisma, workspaceId);
  return revoked;
}

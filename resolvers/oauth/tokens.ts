// The token endpoint's grants and revocation, and the access token's caller. Codes, access and refresh tokens are
// opaque random tokens stored as SHA-256 (like API keys). A code is exchanged once, with the PKCE verifier, by the
// client it was issued to, for the redirect URI it was issued for; a refresh token is used once and replaced; a
// second use of either (a stolen copy, or a replay) revokes the whole grant. An access token acts as its person
// within their current role, on the resource its grant names; demoting or removing the person applies at once.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { randomToken, safeEqual, sha256Base64Url, sha256Hex } from '../../infra/crypto/tokens.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { Context, Db } from '../shared/context.js';
import { keyScopesWithin } from '../workspace/roles.js';
import { announceKeyChange } from '../workspace/keyChanges.js';
import { oauthError } from './oauthErrors.js';

export const ACCESS_TOKEN_PREFIX = 'mcpat_';
const REFRESH_TOKEN_PREFIX = 'mcprt_';
const LAST_USED_RESOLUTION_MS = 60_000;

export type IssuedTokens = { access_token: string; token_type: 'Bearer'; expires_in: number; refresh_token: string; scope: string };

async function issueTokens(ctx: Context, db: Db, grant: { id: string; scopes: string[] }): Promise<IssuedTokens> {
  const { accessTokenSeconds, refreshTokenSeconds } = ctx.oauth;
  const accessToken = `${ACCESS_TOKEN_PREFIX}${randomToken(32)}`;
  const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomToken(32)}`;
  const now = Date.now();
  await db.oAuthToken.createMany({
    data: [
      { grant_id: grant.id, kind: 'access', token_hash: sha256Hex(accessToken), expires_at: new Date(now + accessTokenSeconds * 1000) },
      { grant_id: grant.id, kind: 'refresh', token_hash: sha256Hex(refreshToken), expires_at: new Date(now + refreshTokenSeconds * 1000) },
    ],
  });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: accessTokenSeconds,
    refresh_token: refreshToken,
    scope: grant.scopes.join(' '),
  };
}

/** A one-time credential (code or refresh token) of this kind, with its grant and client. */
function findOneTime(db: Db, kind: 'code' | 'refresh', token: string) {
  return db.oAuthToken
    .findUnique({
      where: { token_hash: sha256Hex(token) },
      select: {
        id: true,
        kind: true,
        expires_at: true,
        used_at: true,
        code_challenge: true,
        redirect_uri: true,
        grant: {
          select: {
            id: true,
            scopes: true,
            resource: true,
            revoked_at: true,
            client: { select: { client_id: true } },
            user: { select: { status: true } },
          },
        },
      },
    })
    .then((found) => (found?.kind === kind ? found : null));
}

type OneTime = NonNullable<Awaited<ReturnType<typeof findOneTime>>>;

/** Marks the credential used and issues the next tokens, in one transaction; a second use (or one racing this one)
 * revokes the grant and is refused. */
async function useOnceForTokens(ctx: Context, found: OneTime, what: string): Promise<IssuedTokens> {
  const issued = await ctx.prisma.$transaction(async (tx) => {
    const claimed = await tx.oAuthToken.updateMany({ where: { id: found.id, used_at: null }, data: { used_at: new Date() } });
    return claimed.count === 1 ? issueTokens(ctx, tx, found.grant) : null;
  });
  if (issued) return issued;
  return reused(ctx, found.grant.id, what);
}

async function reused(ctx: Context, grantId: string, what: string): Promise<never> {
  await revokeGrant(ctx.prisma, grantId);
  throw oauthError('invalid_grant', `This ${what} was already used; every token of its grant is now revoked`);
}

function checkUsable(found: OneTime | null, clientId: string, resource: string | null | undefined, what: string): asserts found is OneTime {
  if (!found || found.grant.revoked_at || found.grant.user.status !== 'active' || found.expires_at.getTime() <= Date.now()) {
    throw oauthError('invalid_grant', `The ${what} is unknown, expired or revoked`);
  }
  if (found.grant.client.client_id !== clientId) throw oauthError('invalid_grant', `The ${what} was issued to another client`);
  if (resource && resource !== found.grant.resource) throw oauthError('invalid_target', `The ${what} is for ${found.grant.resource}`);
}

export type CodeExchange = { client_id: string; code: string; code_verifier: string; redirect_uri: string; resource?: string | null };

export async function exchangeCode(ctx: Context, input: CodeExchange): Promise<IssuedTokens> {
  const found = await findOneTime(ctx.prisma, 'code', input.code);
  if (found?.used_at) return reused(ctx, found.grant.id, 'authorization code');
  checkUsable(found, input.client_id, input.resource, 'authorization code');
  if (found.redirect_uri !== input.redirect_uri) throw oauthError('invalid_grant', 'redirect_uri differs from the authorization request’s');
  if (!found.code_challenge || !safeEqual(sha256Base64Url(input.code_verifier), found.code_challenge)) {
    throw oauthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256)');
  }
  return useOnceForTokens(ctx, found, 'authorization code');
}

export type Refresh = { client_id: string; refresh_token: string; resource?: string | null };

export async function refreshTokens(ctx: Context, input: Refresh): Promise<IssuedTokens> {
  const found = await findOneTime(ctx.prisma, 'refresh', input.refresh_token);
  if (found?.used_at) return reused(ctx, found.grant.id, 'refresh token');
  checkUsable(found, input.client_id, input.resource, 'refresh token');
  return useOnceForTokens(ctx, found, 'refresh token');
}

/** Revokes the grant and tells every instance (its MCP sessions and their streams end at once). */
export async function revokeGrant(db: Db, grantId: string): Promise<void> {
  const revoked = await db.oAuthGrant.updateManyAndReturn({
    where: { id: grantId, revoked_at: null },
    data: { revoked_at: new Date() },
    select: { company_id: true },
  });
  for (const grant of revoked) await announceKeyChange(db, grant.company_id);
}

/** RFC 7009: revoking an access or refresh token ends its whole grant (the client connects again by consent). An
 * unknown token, or one of another client, changes nothing and is not told apart (§2.2). */
export async function revokeToken(ctx: Context, input: { token: string; client_id?: string | null }): Promise<boolean> {
  const found = await ctx.prisma.oAuthToken.findUnique({
    where: { token_hash: sha256Hex(input.token) },
    select: { grant: { select: { id: true, client: { select: { client_id: true } } } } },
  });
  if (found && (!input.client_id || found.grant.client.client_id === input.client_id)) await revokeGrant(ctx.prisma, found.grant.id);
  return true;
}

/** The caller behind an access token on the resource `resource`, or null: unknown, expired, revoked, for another
 * resource (audience), or of a person no longer active. Looked up at every request, so a change applies at once. */
export async function authenticateAccessToken(prisma: PrismaClient, token: string, resource: string): Promise<Actor | null> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 200) return null;
  const found = await prisma.oAuthToken.findUnique({
    where: { token_hash: sha256Hex(token) },
    select: {
      kind: true,
      expires_at: true,
      grant: {
        select: {
          id: true,
          company_id: true,
          user_id: true,
          scopes: true,
          resource: true,
          revoked_at: true,
          last_used_at: true,
          user: { select: { role: true, status: true } },
        },
      },
    },
  });
  if (!found || found.kind !== 'access' || found.expires_at.getTime() <= Date.now()) return null;
  const { grant } = found;
  if (grant.revoked_at || grant.resource !== resource || grant.user.status !== 'active') return null;
  const now = Date.now();
  if (!grant.last_used_at || now - grant.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    prisma.oAuthGrant.update({ where: { id: grant.id }, data: { last_used_at: new Date(now) } }).catch(() => undefined);
  }
  return {
    workspaceId: grant.company_id,
    userId: grant.user_id,
    keyId: grant.id,
    keyPrefix: 'oauth',
    scopes: keyScopesWithin(grant.scopes, grant.user.role),
  };
}

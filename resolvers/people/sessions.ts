// People's sessions: a random token in an HttpOnly cookie, stored only as its SHA-256, with a CSRF token the
// console sends back on every write. A session ends SESSION_IDLE_MS after its last use, SESSION_MAX_MS after it
// began, at sign-out, at a password change (the others of that person), or when the person is removed.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { randomToken, sha256Hex } from '../../infra/crypto/tokens.js';
import type { SessionAuthenticator } from '../../infra/auth/actor.js';
import type { Db } from '../shared/context.js';
import { sessionScopes } from '../workspace/roles.js';

export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 14 * 24 * 60 * 60 * 1000;
/** Last use is written at most this often per session, off the request path. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** What a sign-in hands the transport: the cookie's token (never shown to scripts) and the session's public part. */
export type OpenedSession = { token: string; csrf_token: string; expires_at: Date; user_id: string; workspace_id: string };

export async function openSession(db: Db, user: { id: string; company_id: string }): Promise<OpenedSession> {
  const token = randomToken(32);
  const session = await db.userSession.create({
    data: {
      company_id: user.company_id,
      user_id: user.id,
      token_hash: sha256Hex(token),
      csrf_token: randomToken(24),
      expires_at: new Date(Date.now() + SESSION_MAX_MS),
    },
  });
  return { token, csrf_token: session.csrf_token, expires_at: session.expires_at, user_id: user.id, workspace_id: user.company_id };
}

/** Ends the session behind `token`; an unknown or ended one changes nothing. */
export async function closeSession(prisma: PrismaClient, token: string): Promise<void> {
  await prisma.userSession.updateMany({ where: { token_hash: sha256Hex(token), revoked_at: null }, data: { revoked_at: new Date() } });
}

/** Ends every session of a person, except `keep`. */
export async function closeSessionsOf(db: Db, userId: string, keep?: string): Promise<void> {
  await db.userSession.updateMany({
    where: { user_id: userId, revoked_at: null, ...(keep ? { id: { not: keep } } : {}) },
    data: { revoked_at: new Date() },
  });
}

export function createSessionAuthenticator(prisma: PrismaClient): SessionAuthenticator {
  return async (token) => {
    if (token.length < 20 || token.length > 100) return null;
    const session = await prisma.userSession.findUnique({
      where: { token_hash: sha256Hex(token) },
      select: {
        id: true,
        company_id: true,
        csrf_token: true,
        last_seen_at: true,
        expires_at: true,
        revoked_at: true,
        user: { select: { id: true, role: true, status: true } },
      },
    });
    const now = Date.now();
    if (!session || session.revoked_at || session.user.status !== 'active') return null;
    if (session.expires_at.getTime() <= now || session.last_seen_at.getTime() + SESSION_IDLE_MS <= now) return null;
    if (now - session.last_seen_at.getTime() >= LAST_SEEN_RESOLUTION_MS) {
      prisma.userSession.update({ where: { id: session.id }, data: { last_seen_at: new Date(now) } }).catch(() => undefined);
    }
    return {
      csrfToken: session.csrf_token,
      actor: {
        workspaceId: session.company_id,
        userId: session.user.id,
        keyId: session.id,
        keyPrefix: 'session',
        scopes: sessionScopes(session.user.role),
        session: { id: session.id, role: session.user.role },
      },
    };
  };
}

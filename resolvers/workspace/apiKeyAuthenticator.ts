// Authenticates bearer keys for the HTTP pipeline, remembering each answer for a few seconds: every request
// carries its key, and looking it up each time costs a database round trip per request. The price is that a
// key revoked, or whose creator was demoted or removed, is forgotten at once when the change is heard
// (keyChanges.ts); `ttlMs` (API_KEY_CACHE_SECONDS; 0 turns caching off) bounds only what an instance was not told.
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { sha256Hex } from '../../infra/crypto/tokens.js';
import { authenticateApiKey, recordKeyUse, type KeyUse } from './apiKeys.js';
import type { Authenticator } from '../../infra/auth/actor.js';
import type { KeyChanges } from '../shared/context.js';

/** Enough for every active key of a large deployment; unknown keys (also remembered) cannot grow it further. */
const MAX_REMEMBERED_KEYS = 10_000;

export function createApiKeyAuthenticator(prisma: PrismaClient, options: { ttlMs: number; changes: KeyChanges }): Authenticator {
  if (options.ttlMs <= 0) return async (apiKey) => (await authenticateApiKey(prisma, apiKey))?.actor ?? null;
  const remembered = new LRUCache<string, { use: KeyUse | null }>({ max: MAX_REMEMBERED_KEYS, ttl: options.ttlMs });
  options.changes.subscribe((workspaceId) => {
    if (workspaceId === null) return remembered.clear();
    const forgotten = [...remembered.entries()].filter(([, known]) => known.use?.actor.workspaceId === workspaceId);
    for (const [digest] of forgotten) remembered.delete(digest);
  });
  return async (apiKey) => {
    const digest = sha256Hex(apiKey);
    const known = remembered.get(digest);
    if (known) {
      if (known.use) recordKeyUse(prisma, known.use);
      return known.use?.actor ?? null;
    }
    const use = await authenticateApiKey(prisma, apiKey);
    remembered.set(digest, { use });
    return use?.actor ?? null;
  };
}

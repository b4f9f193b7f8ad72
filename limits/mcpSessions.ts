// A cap on concurrent MCP sessions per API key (MCP_MAX_SESSIONS_PER_KEY), so one key cannot hold every
// stream an instance can serve. The MCP facade takes a slot when it opens a session and releases it when
// the session's transport closes:
//   const slot = edge.mcpSessions.open(actor.keyId);
//   if (!slot) return endResponse(tooManySessionsResponse(edge.mcpSessions.maxPerKey, requestId));
//   transport.onclose = () => slot.release();
// Sessions live in the instance that holds their stream, so the count is per instance.
import { errorResponse } from '../app/errorResponse.js';

export type SessionSlot = { release(): void };

export type SessionLimiter = {
  maxPerKey: number;
  /** A slot for one more session of this key, or null when the key already holds maxPerKey. */
  open(keyId: string): SessionSlot | null;
  openCount(keyId: string): number;
};

export function createSessionLimiter(maxPerKey: number): SessionLimiter {
  const open = new Map<string, number>();
  return {
    maxPerKey,
    open(keyId) {
      const count = open.get(keyId) ?? 0;
      if (count >= maxPerKey) return null;
      open.set(keyId, count + 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          const remaining = (open.get(keyId) ?? 1) - 1;
          if (remaining > 0) open.set(keyId, remaining);
          else open.delete(keyId);
        },
      };
    },
    openCount: (keyId) => open.get(keyId) ?? 0,
  };
}

/** 429 RATE_LIMITED in the spec's error form; no Retry-After, since a slot frees when a session closes. */
export function tooManySessionsResponse(maxPerKey: number, requestId: string): Response {
  return errorResponse(
    429,
    'RATE_LIMITED',
    `This API key already has ${maxPerKey} open MCP sessions; close one before opening another`,
    { requestId, details: { max_sessions: maxPerKey } },
  );
}

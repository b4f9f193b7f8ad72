// A change to what a workspace's keys may do (a key revoked, its creator's role changed or the creator removed),
// told to every instance at commit through the database's NOTIFY, so that each forgets the keys of that workspace
// it remembered (apiKeyAuthenticator.ts) at once rather than after API_KEY_CACHE_SECONDS. Heard through the
// process's one LISTEN connection, shared with the event feed (infra/db/notifications.ts); a notice that may have
// been missed (`null`, after a lost connection) makes an instance forget every key.
import type { Db, KeyChanges } from '../shared/context.js';
import type { Listen } from '../../infra/db/notifications.js';

export const KEY_CHANGES_CHANNEL = 'crm_key_changes';

export async function announceKeyChange(db: Db, workspaceId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${KEY_CHANGES_CHANNEL}, ${workspaceId})`;
}

export function createKeyChanges(listen: Listen, onError: (error: unknown) => void): KeyChanges {
  const listeners = new Set<(workspaceId: string | null) => void>();
  let listening: Promise<(() => Promise<void>) | null> | null = null;
  return {
    subscribe(listener) {
      listeners.add(listener);
      listening ??= listen(KEY_CHANGES_CHANNEL, (payload) => {
        for (const each of listeners) each(payload || null);
      }).catch((error: unknown) => {
        onError(error);
        return null;
      });
    },
    async close() {
      listeners.clear();
      const stop = await listening;
      await stop?.();
    },
  };
}

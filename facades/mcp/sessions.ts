// The open MCP sessions of this process, each bound to the API key that opened it: a session is found
// only with that key, and for any other key it does not exist (a 404, as for a foreign record). A key may
// hold a bounded number of sessions, and no client can lock it out: clients often exit without DELETE /mcp,
// so when a key is at its cap its least recently used Streamable HTTP session gives way to the new one, and
// Streamable HTTP sessions without a request for the idle time (MCP_SESSION_IDLE_MS) are closed. SSE sessions
// last as long as their stream (a client that goes away ends it). A sweep also closes the sessions of keys
// that no longer authenticate (revoked), open SSE streams included.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { SseServerTransport } from './sseTransport.js';

export type Session =
  { kind: 'streamable'; transport: WebStandardStreamableHTTPServerTransport } | { kind: 'sse'; transport: SseServerTransport };

type Entry = Session & { id: string; keyId: string; credential: string; server: Server; lastSeen: number };

export type SessionLimits = { idleMs: number; maxPerKey: number };

/** Whether the key that opened a session still authenticates. */
export type KeyCheck = (credential: string) => Promise<boolean>;

/** How long a client told to wait (every session of its key is a live SSE stream) should wait, in seconds. */
export const FULL_RETRY_AFTER_SECONDS = 60;

export class SessionRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly keyStillValid: KeyCheck,
  ) {
    setInterval(() => void this.sweep(), Math.min(limits.idleMs, 30_000)).unref();
  }

  /** Makes room for one more session of the key: true at once under the cap, or once the key's least recently
   * used Streamable HTTP session is closed; false when every session of the key is a live SSE stream. */
  async makeRoomFor(keyId: string): Promise<boolean> {
    const own = [...this.entries.values()].filter((entry) => entry.keyId === keyId);
    if (own.length < this.limits.maxPerKey) return true;
    const evictable = own.filter((entry) => entry.kind === 'streamable').sort((a, b) => a.lastSeen - b.lastSeen);
    const surplus = own.length - this.limits.maxPerKey + 1;
    if (evictable.length < surplus) return false;
    await Promise.all(evictable.slice(0, surplus).map((entry) => this.close(entry)));
    return true;
  }

  /** Closes every session, at shutdown: open SSE streams would otherwise hold the drain until its deadline. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.server.close()));
  }

  /** Registers a session and forgets it when its server closes. */
  add(id: string, owner: { keyId: string; credential: string }, server: Server, session: Session): void {
    this.entries.set(id, { ...session, id, ...owner, server, lastSeen: Date.now() });
    server.onclose = () => this.entries.delete(id);
  }

  find<Kind extends Session['kind']>(id: string, keyId: string, kind: Kind): Extract<Session, { kind: Kind }> | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.keyId !== keyId || entry.kind !== kind) return undefined;
    entry.lastSeen = Date.now();
    return entry as Extract<Entry, { kind: Kind }>;
  }

  get size(): number {
    return this.entries.size;
  }

  private async close(entry: Entry): Promise<void> {
    this.entries.delete(entry.id);
    await entry.server.close();
  }

  private async sweep(): Promise<void> {
    const cutoff = Date.now() - this.limits.idleMs;
    const entries = [...this.entries.values()];
    for (const entry of entries) if (entry.kind === 'streamable' && entry.lastSeen < cutoff) await this.close(entry);
    const credentials = new Set(entries.map((entry) => entry.credential));
    for (const credential of credentials) {
      if (await this.keyStillValid(credential).catch(() => true)) continue;
      for (const entry of entries) if (entry.credential === credential) await this.close(entry);
    }
  }
}

// The open MCP sessions of this process, each bound to the API key that opened it: a session is found
// only with that key, and for any other key it does not exist (a 404, as for a foreign record). A key may
// hold a bounded number of sessions. Streamable HTTP sessions idle for longer than the idle time are
// closed; SSE sessions last as long as their stream.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { SseServerTransport } from './sseTransport.js';

export type Session =
  { kind: 'streamable'; transport: WebStandardStreamableHTTPServerTransport } | { kind: 'sse'; transport: SseServerTransport };

type Entry = Session & { id: string; keyId: string; server: Server; lastSeen: number };

export type SessionLimits = { idleMs: number; maxPerKey: number };

export class SessionRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly limits: SessionLimits) {
    setInterval(() => this.closeIdle(), Math.min(limits.idleMs, 60_000)).unref();
  }

  hasRoomFor(keyId: string): boolean {
    let open = 0;
    for (const entry of this.entries.values()) if (entry.keyId === keyId) open += 1;
    return open < this.limits.maxPerKey;
  }

  /** Closes every session, at shutdown: open SSE streams would otherwise hold the drain until its deadline. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.server.close()));
  }

  /** Registers a session and forgets it when its server closes. */
  add(id: string, keyId: string, server: Server, session: Session): void {
    this.entries.set(id, { ...session, id, keyId, server, lastSeen: Date.now() });
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

  private closeIdle(): void {
    const cutoff = Date.now() - this.limits.idleMs;
    for (const entry of this.entries.values()) {
      if (entry.kind === 'streamable' && entry.lastSeen < cutoff) void entry.server.close();
    }
  }
}

// The MCP sessions, kept in the database (infra/mcp/sessionStore.ts) so that every instance serves every session
// without sticky routing. Each session is bound to the API key that opened it: for any other key it does not
// exist (a 404, as for a foreign record). A Streamable HTTP session is only its row: each of its requests is
// answered by a fresh server on whichever instance receives it. An HTTP+SSE session's stream lives in the
// instance that opened it; messages POSTed to another instance are forwarded to it.
// No client can lock a key out: clients often exit without DELETE /mcp, so when a key is at its cap its least
// recently used Streamable HTTP session gives way to the new one, and Streamable HTTP sessions without a request
// for the idle time (MCP_SESSION_IDLE_MS) expire. SSE sessions last as long as their stream. A sweep removes the
// sessions of revoked keys and closes the streams whose session is gone.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { SessionStore, ForwardedMessage } from '../../infra/mcp/sessionStore.js';
import { STREAM_HEARTBEAT_MS } from '../../infra/mcp/sessionStore.js';
import type { SseServerTransport } from './sseTransport.js';

type Stream = { id: string; keyId: string; server: Server; transport: SseServerTransport };

export type SessionLimits = { idleMs: number; maxPerKey: number };

/** How long a client told to wait (every session of its key is a live SSE stream) should wait, in seconds. */
export const FULL_RETRY_AFTER_SECONDS = 60;

/** Where an SSE session's messages go: its stream in this instance, or the instance holding it. */
export type StreamLocation = { stream: Stream } | { instanceId: string };

export class SessionRegistry {
  private readonly streams = new Map<string, Stream>();
  private readonly timers: ReturnType<typeof setInterval>[];
  private stopReceiving: Promise<() => Promise<void>> | null = null;

  /** `deliver` takes the messages that other instances forward to this one's streams. */
  constructor(
    private readonly store: SessionStore,
    private readonly limits: SessionLimits,
    private readonly deliver: (stream: Stream, message: ForwardedMessage) => void,
    private readonly onError: (error: unknown) => void,
  ) {
    this.timers = [
      setInterval(() => void this.sweep().catch(onError), Math.min(limits.idleMs, 30_000)),
      setInterval(() => void this.store.confirmStreams([...this.streams.keys()]).catch(onError), STREAM_HEARTBEAT_MS),
    ];
    for (const timer of this.timers) timer.unref();
  }

  /** Makes room for one more session of the key: true at once under the cap, or once the key's least recently
   * used Streamable HTTP sessions are removed; false when every session of the key is a live SSE stream. */
  async makeRoomFor(keyId: string): Promise<boolean> {
    const own = await this.store.ofKey(keyId);
    if (own.length < this.limits.maxPerKey) return true;
    const evictable = own.filter((session) => session.kind === 'streamable');
    const surplus = own.length - this.limits.maxPerKey + 1;
    if (evictable.length < surplus) return false;
    await this.store.remove(evictable.slice(0, surplus).map((session) => session.id));
    return true;
  }

  openStreamable(id: string, keyId: string): Promise<void> {
    return this.store.open({ id, keyId, kind: 'streamable' });
  }

  /** Whether the key's Streamable HTTP session exists (and has not expired); marks it as used. */
  async findStreamable(id: string, keyId: string): Promise<boolean> {
    return (await this.store.touch(id, keyId, 'streamable', this.limits.idleMs)) !== null;
  }

  removeStreamable(id: string): Promise<void> {
    return this.store.remove([id]);
  }

  /** Registers an SSE stream held by this instance; its session ends with its server. The instance listens for
   * forwarded messages from its first stream on, so that instances without streams hold no listening connection. */
  async openStream(id: string, keyId: string, server: Server, transport: SseServerTransport): Promise<void> {
    this.stopReceiving ??= this.store.receive((message) => {
      const stream = this.streams.get(message.sessionId);
      if (stream && stream.keyId === message.actor.keyId) this.deliver(stream, message);
    }, this.onError);
    await this.stopReceiving;
    await this.store.open({ id, keyId, kind: 'sse' });
    this.streams.set(id, { id, keyId, server, transport });
    const closeServed = server.onclose; // the resource subscriptions' end (facades/mcp/resources.ts)
    server.onclose = () => {
      closeServed?.();
      this.streams.delete(id);
      void this.store.remove([id]).catch(this.onError);
    };
  }

  async findStream(id: string, keyId: string): Promise<StreamLocation | null> {
    const stored = await this.store.touch(id, keyId, 'sse', this.limits.idleMs);
    if (!stored) return null;
    const local = this.streams.get(id);
    if (local) return local.keyId === keyId ? { stream: local } : null;
    return stored.instanceId === this.store.instanceId ? null : { instanceId: stored.instanceId };
  }

  forward(instanceId: string, message: ForwardedMessage): Promise<void> {
    return this.store.forward(instanceId, message);
  }

  /** Closes this instance's streams, at shutdown: they would otherwise hold the drain until its deadline. */
  async closeAll(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await (
      await this.stopReceiving
    )?.();
    await Promise.all([...this.streams.values()].map((stream) => stream.server.close()));
  }

  /** Sessions opened through this instance that are still open. */
  count(): Promise<number> {
    return this.store.countOwn();
  }

  private async sweep(): Promise<void> {
    await this.store.sweep(this.limits.idleMs);
    const live = await this.store.existing([...this.streams.keys()]);
    for (const stream of [...this.streams.values()]) if (!live.has(stream.id)) await stream.server.close();
  }
}

// The MCP sessions, kept in the database (infra/mcp/sessionStore.ts) so that every instance serves every session
// without sticky routing. Each session is bound to the API key that opened it: for any other key it does not
// exist (a 404, as for a foreign record). A Streamable HTTP session is only its row: each of its requests is
// answered by a fresh server on whichever instance receives it; its GET stream lives in the instance that received
// the GET, which follows the subscriptions the row lists and hears when they change. An HTTP+SSE session's stream
// lives in the instance that opened it; messages POSTed to another instance are forwarded to it.
// No client can lock a key out: clients often exit without DELETE /mcp, so when a key is at its cap its least
// recently used Streamable HTTP session gives way to the new one, and Streamable HTTP sessions without a request
// and without a GET stream for the idle time (MCP_SESSION_IDLE_MS) expire. SSE sessions last as long as their stream.
// A sweep removes the sessions of revoked keys and OAuth grants and closes the streams whose session is gone.
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { SessionStore, ForwardedMessage } from '../../infra/mcp/sessionStore.js';
import { STREAM_HEARTBEAT_MS } from '../../infra/mcp/sessionStore.js';
import type { SseServerTransport } from './sseTransport.js';

/** Notices that a workspace's keys or grants changed (null: any workspace), as every instance hears them. */
export type KeyChanges = { subscribe(listener: (workspaceId: string | null) => void): void };

type Stream = { id: string; keyId: string; server: Server; transport: SseServerTransport };

/** What a Streamable HTTP session's GET stream does with the subscriptions its row lists. */
export type StreamFollower = { follow(uris: readonly string[]): Promise<void>; stop(): void };
/** A Streamable HTTP session's GET stream held by this instance; `queue` runs its updates one at a time. */
type SessionStream = { sessionId: string; streamId: string; transport: SseServerTransport; follower: StreamFollower; queue: Promise<void> };

/** How many resources one Streamable HTTP session may subscribe to. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 100;

export type SessionLimits = { idleMs: number; maxPerKey: number };

/** How long a client told to wait (every session of its key is a live SSE stream) should wait, in seconds. */
export const FULL_RETRY_AFTER_SECONDS = 60;

/** Where an SSE session's messages go: its stream in this instance, or the instance holding it. */
export type StreamLocation = { stream: Stream } | { instanceId: string };

export class SessionRegistry {
  private readonly streams = new Map<string, Stream>();
  private readonly sessionStreams = new Map<string, SessionStream>();
  private readonly timers: ReturnType<typeof setInterval>[];
  private stopReceiving: Promise<() => Promise<void>> | null = null;
  private stopWatching: Promise<() => Promise<void>> | null = null;
  private closed = false;

  /** `deliver` takes the messages that other instances forward to this one's streams; `keyChanges`, when given,
   * tells of revoked keys and grants, whose sessions then end at once rather than at the next sweep. */
  constructor(
    private readonly store: SessionStore,
    private readonly limits: SessionLimits,
    private readonly deliver: (stream: Stream, message: ForwardedMessage) => void,
    private readonly onError: (error: unknown) => void,
    keyChanges?: KeyChanges,
  ) {
    keyChanges?.subscribe(() => {
      if (!this.closed) void this.sweep().catch(onError);
    });
    this.timers = [
      setInterval(() => void this.sweep().catch(onError), Math.min(limits.idleMs, 30_000)),
      setInterval(() => void this.store.confirmStreams(this.heldIds()).catch(onError), STREAM_HEARTBEAT_MS),
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

  /** Ends the session (DELETE /mcp); the instance holding its GET stream hears it and closes the stream. */
  removeStreamable(id: string): Promise<void> {
    return this.store.remove([id]);
  }

  /** Serves the Streamable HTTP session's notifications on `transport` from now on: the newest GET stream of a
   * session takes over from an older one, here or on another instance. The stream follows the subscriptions its row
   * lists, and follows their changes. The instance listens for changes from its first GET stream on. */
  async openSessionStream(sessionId: string, transport: SseServerTransport, follower: StreamFollower): Promise<void> {
    this.stopWatching ??= this.store.watchChanges((changed) => {
      const held = changed === null ? [...this.sessionStreams.values()] : [this.sessionStreams.get(changed)];
      for (const stream of held) if (stream) void this.refresh(stream);
    });
    await this.stopWatching;
    const stream: SessionStream = { sessionId, streamId: randomUUID(), transport, follower, queue: Promise.resolve() };
    void this.sessionStreams.get(sessionId)?.transport.close();
    this.sessionStreams.set(sessionId, stream);
    transport.onclose = () => {
      follower.stop();
      if (this.sessionStreams.get(sessionId) === stream) this.sessionStreams.delete(sessionId);
      stream.queue = stream.queue.then(() => this.store.releaseStream(sessionId, stream.streamId)).catch(this.onError);
    };
    await this.store.claimStream(sessionId, stream.streamId);
    await this.refresh(stream);
  }

  /** Records a subscription of the Streamable HTTP session; false when it holds as many as it may. The instance
   * holding its GET stream follows it from then on (this one before answering). */
  async subscribe(sessionId: string, uri: string): Promise<boolean> {
    if (!(await this.store.subscribe(sessionId, uri, MAX_SUBSCRIPTIONS_PER_SESSION))) return false;
    await this.refreshHeld(sessionId);
    return true;
  }

  async unsubscribe(sessionId: string, uri: string): Promise<void> {
    await this.store.unsubscribe(sessionId, uri);
    await this.refreshHeld(sessionId);
  }

  private async refreshHeld(sessionId: string): Promise<void> {
    const held = this.sessionStreams.get(sessionId);
    if (held) await this.refresh(held);
  }

  /** Brings a GET stream in line with its session's row: closed when the session ended or a newer stream took over,
   * else following exactly the subscriptions listed. */
  private refresh(stream: SessionStream): Promise<void> {
    stream.queue = stream.queue
      .then(async () => {
        const state = await this.store.streamState(stream.sessionId);
        if (state?.streamId !== stream.streamId) return stream.transport.close();
        await stream.follower.follow(state.subscriptions);
      })
      .catch(this.onError);
    return stream.queue;
  }

  /** Registers an SSE stream held by this instance; its session ends with its server. The instance listens for
   * forwarded messages from its first stream on, so that instances without streams are not told of every message
   * forwarded between the others. */
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
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    await (
      await this.stopReceiving
    )?.();
    await (
      await this.stopWatching
    )?.();
    await Promise.all([...this.streams.values()].map((stream) => stream.server.close()));
    const sessionStreams = [...this.sessionStreams.values()];
    await Promise.all(sessionStreams.map((stream) => stream.transport.close()));
    await Promise.all(sessionStreams.map((stream) => stream.queue));
  }

  /** Sessions opened through this instance that are still open. */
  count(): Promise<number> {
    return this.store.countOwn();
  }

  private async sweep(): Promise<void> {
    await this.store.sweep(this.limits.idleMs);
    const live = await this.store.existing(this.heldIds());
    for (const stream of [...this.streams.values()]) if (!live.has(stream.id)) await stream.server.close();
    for (const stream of [...this.sessionStreams.values()]) if (!live.has(stream.sessionId)) await stream.transport.close();
  }

  /** The sessions whose stream this instance holds. */
  private heldIds(): string[] {
    return [...this.streams.keys(), ...this.sessionStreams.keys()];
  }
}

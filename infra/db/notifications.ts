// LISTEN/NOTIFY, the database's own signal that something committed: on a PostgreSQL server through one
// dedicated connection that every channel and listener of the process shares (re-established after a loss), on the
// embedded PGlite through its in-process listeners.
// The listener is told `null` when notifications may have been missed (the connection was lost, or a foreign client
// of the embedded session took the LISTEN away), so it can re-read what it follows.
import { messages as protocol, type PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

export type NotificationListener = (payload: string | null) => void;
/** Starts listening on `channel`; resolves once listening, to a function that stops. */
export type Listen = (channel: string, listener: NotificationListener) => Promise<() => Promise<void>>;

/**
 * The embedded database's notifications. PGlite is one session, shared with the processes served over its socket
 * (infra/db/pgliteWire.ts): a NOTIFY committed in a foreign client's turn comes back in that client's raw output,
 * which PGlite never parses, and whatever the client does to the session (UNLISTEN, DISCARD ALL, the clean-up when it
 * leaves) happens to this process's LISTEN too. So the wire hands back what it sees (`heard`) and, at the end of
 * every foreign turn, `restore` LISTENs again on whatever channel was taken away.
 */
export type EmbeddedNotifications = {
  listen: Listen;
  /** A NotificationResponse seen in a foreign client's output. */
  heard(channel: string, payload: string): void;
  /** Runs inside a foreign client's turn, once it ended: LISTEN again where it was removed, and say so (`null`). */
  restore(): Promise<void>;
};

export function pgliteNotifications(db: PGlite): EmbeddedNotifications {
  const listeners = new Map<string, Set<NotificationListener>>();
  const tell = (channel: string, payload: string | null) => {
    for (const listener of listeners.get(channel) ?? []) queueMicrotask(() => listener(payload));
  };
  return {
    async listen(channel, listener) {
      const stop = await db.listen(channel, (payload) => listener(payload));
      const own = listeners.get(channel) ?? new Set();
      listeners.set(channel, own.add(listener));
      return async () => {
        own.delete(listener);
        if (own.size === 0) listeners.delete(channel);
        await stop();
      };
    },
    heard: tell,
    async restore() {
      if (listeners.size === 0) return;
      const { messages } = await db.runExclusive(() => db.execProtocol(simpleQuery('SELECT pg_listening_channels()')));
      const listening = new Set(messages.flatMap((row) => (row instanceof protocol.DataRowMessage ? [row.fields[0]] : [])));
      for (const channel of listeners.keys()) {
        if (listening.has(channel)) continue;
        await db.runExclusive(() => db.execProtocol(simpleQuery(`LISTEN "${channel.replace(/"/g, '""')}"`)));
        tell(channel, null);
      }
    },
  };
}

/** A simple-protocol Query message. */
export function simpleQuery(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const header = Buffer.alloc(5);
  header[0] = 0x51; // 'Q'
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}

const RECONNECT_DELAY_MS = 1000;

/** The connection that LISTENs for the whole process; `lost` once it failed or was given up. */
type ListeningConnection = { client: pg.PoolClient; lost: boolean };

/**
 * A PostgreSQL server's notifications through one connection of the pool, shared by every channel and listener of
 * the process: a connection per LISTEN is held for good, and a few of them starve the requests and transactions
 * of the same pool. The connection is taken at the first LISTEN and closed after the last listener stops; when it
 * is lost, a new one LISTENs again on every channel followed and each listener is told `null`.
 */
export function poolListen(pool: pg.Pool, onError: (error: unknown) => void = () => {}): { listen: Listen; close(): void } {
  const listeners = new Map<string, Set<NotificationListener>>();
  let held: ListeningConnection | null = null;
  let steps: Promise<unknown> = Promise.resolve();
  /** One step on the connection at a time: a LISTEN never races a reconnection or the last listener's stop. */
  const serially = <T>(step: () => Promise<T>): Promise<T> => {
    const run = steps.then(step);
    steps = run.catch(() => undefined);
    return run;
  };
  const quoted = (channel: string) => `"${channel.replace(/"/g, '""')}"`;
  const tell = (channel: string, payload: string | null) => {
    for (const listener of [...(listeners.get(channel) ?? [])]) listener(payload);
  };

  /** Closes the connection rather than giving it back: its LISTENs and handlers must not reach the pool's next user. */
  function drop(connection: ListeningConnection): void {
    if (connection.lost) return;
    connection.lost = true;
    if (held === connection) held = null;
    connection.client.release(true);
  }

  function reconnectLater(): void {
    setTimeout(() => {
      void serially(async () => {
        if (!held && listeners.size > 0) await connect();
      }).catch((error: unknown) => {
        onError(error);
        reconnectLater();
      });
    }, RECONNECT_DELAY_MS).unref();
  }

  /** Takes a connection and LISTENs on every channel already followed: after a loss, whose notices may be missed,
   * each listener is told `null`. */
  async function connect(): Promise<ListeningConnection> {
    const connection: ListeningConnection = { client: await pool.connect(), lost: false };
    connection.client.on('notification', (message) => tell(message.channel, message.payload ?? ''));
    // A terminated backend reports an error and then the end of the connection: one loss, one reconnection.
    connection.client.on('error', (error) => {
      if (connection.lost) return;
      onError(error);
      drop(connection);
      if (listeners.size > 0) reconnectLater();
    });
    try {
      for (const channel of listeners.keys()) await connection.client.query(`LISTEN ${quoted(channel)}`);
    } catch (error) {
      drop(connection);
      throw error;
    }
    held = connection;
    for (const channel of listeners.keys()) tell(channel, null);
    return connection;
  }

  async function follow(channel: string, listener: NotificationListener): Promise<void> {
    const connection = held ?? (await connect());
    let own = listeners.get(channel);
    if (!own) {
      try {
        await connection.client.query(`LISTEN ${quoted(channel)}`);
      } catch (error) {
        if (listeners.size === 0) drop(connection);
        throw error;
      }
      own = new Set();
      listeners.set(channel, own);
    }
    own.add(listener);
  }

  async function unfollow(channel: string, listener: NotificationListener): Promise<void> {
    const own = listeners.get(channel);
    if (!own?.delete(listener) || own.size > 0) return;
    listeners.delete(channel);
    const connection = held;
    if (!connection) return;
    if (listeners.size === 0) return drop(connection);
    // A failure here leaves the channel listened: its notices then find no listener, which is harmless.
    await connection.client.query(`UNLISTEN ${quoted(channel)}`).catch(() => undefined);
  }

  return {
    listen: async (channel, listener) => {
      // Each call is its own registration, even for a listener already registered: each stop removes its own.
      const registered: NotificationListener = (payload) => listener(payload);
      await serially(() => follow(channel, registered));
      return () => serially(() => unfollow(channel, registered));
    },
    /** Ends the connection whatever still listens, so that closing the pool never waits for a listener left open. */
    close() {
      listeners.clear();
      if (held) drop(held);
    },
  };
}

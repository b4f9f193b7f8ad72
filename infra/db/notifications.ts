// LISTEN/NOTIFY, the database's own signal that something committed: on a PostgreSQL server through one
// dedicated connection (re-established after a loss), on the embedded PGlite through its in-process listeners.
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

export function poolListen(pool: pg.Pool, onError: (error: unknown) => void = () => {}): Listen {
  return async (channel, listener) => {
    let stopped = false;
    let client: pg.PoolClient | null = null;
    const quoted = `"${channel.replace(/"/g, '""')}"`;
    const connect = async (): Promise<void> => {
      const connection = await pool.connect();
      client = connection;
      connection.on('notification', (message) => {
        if (message.channel === channel) listener(message.payload ?? '');
      });
      let lost = false;
      // A terminated backend reports an error and then the end of the connection: one loss, one reconnection.
      connection.on('error', (error) => {
        if (lost) return;
        lost = true;
        onError(error);
        connection.release(true);
        client = null;
        if (!stopped) setTimeout(() => void reconnect(), RECONNECT_DELAY_MS).unref();
      });
      await connection.query(`LISTEN ${quoted}`);
    };
    const reconnect = async (): Promise<void> => {
      if (stopped) return;
      try {
        await connect();
        listener(null);
      } catch (error) {
        onError(error);
        setTimeout(() => void reconnect(), RECONNECT_DELAY_MS).unref();
      }
    };
    await connect();
    return async () => {
      stopped = true;
      const connection = client;
      client = null;
      if (!connection) return;
      await connection.query(`UNLISTEN ${quoted}`).catch(() => undefined);
      connection.release();
    };
  };
}

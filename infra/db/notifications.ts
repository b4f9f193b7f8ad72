// LISTEN/NOTIFY, the database's own signal that something committed: on a PostgreSQL server through one
// dedicated connection (re-established after a loss), on the embedded PGlite through its in-process listeners.
// The listener is told `null` when notifications may have been missed (the connection was lost), so it can
// re-read what it follows.
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

export type NotificationListener = (payload: string | null) => void;
/** Starts listening on `channel`; resolves once listening, to a function that stops. */
export type Listen = (channel: string, listener: NotificationListener) => Promise<() => Promise<void>>;

export function pgliteListen(db: PGlite): Listen {
  return async (channel, listener) => {
    const stop = await db.listen(channel, (payload) => listener(payload));
    return () => stop();
  };
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
      connection.on('error', (error) => {
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

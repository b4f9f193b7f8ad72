// Serves the embedded database to other processes (the CLI while the server runs) over the PostgreSQL wire
// protocol, on the connections its owner accepts (infra/db/ownership.ts). PGlite is a single PostgreSQL session,
// shared by the owning process's own queries and every connected client, so a client gets that session to itself
// from its first message until PostgreSQL reports it idle outside a transaction (ReadyForQuery 'I'). Its
// transactions and its Parse/Bind/Execute/Sync sequences then never interleave with the owner's queries or another
// client's. The turn is PGlite's own transaction lock, the one its query(), exec() and transaction() take, so the
// owner's Prisma client waits for a client's turn and the other way round. When a client goes, its open transaction
// is rolled back and whatever session state it left (prepared statements, settings, advisory locks) is discarded.
// The owner's own LISTEN lives in that session too: notices a client's commits raise come back in its output and are
// handed to the owner's listeners, and after every client turn the owner's LISTEN is put back if the client's UNLISTEN,
// DISCARD ALL or departure took it away (infra/db/notifications.ts), so no foreign client can end live updates.
// @electric-sql/pglite-socket is not used: it schedules single messages and keeps a client's turn only inside an
// explicit transaction, so extended-protocol sequences interleave (docs/api-decisions.md, "The embedded database").
import type { PGlite } from '@electric-sql/pglite';
import type { Socket } from 'node:net';
import { simpleQuery, type EmbeddedNotifications } from './notifications.js';

const SSL_REQUEST = 80_877_103;
const GSSENC_REQUEST = 80_877_104;
const CANCEL_REQUEST = 80_877_102;
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I': ReadyForQuery's status outside a transaction block
const TERMINATE = 0x58; // 'X'
const NOTIFICATION = 0x41; // 'A': NotificationResponse
/** A client that keeps the session (inside a transaction) without sending anything for this long is cut off, so a
 * stopped CLI cannot stall the server. The service's own transactions take milliseconds. */
const TURN_IDLE_TIMEOUT_MS = 30_000;

const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

export type WireConnection = {
  /** Resolves once the connection is closed and its session state cleaned up. */
  closed: Promise<void>;
  /** Closes the connection; a transaction it has open is rolled back. */
  destroy(): void;
};

/** Serves PGlite on one accepted socket until either side closes it. */
export function serveWireConnection(
  db: PGlite,
  socket: Socket,
  notifications: EmbeddedNotifications,
  onError: (error: unknown) => void,
): WireConnection {
  let input = Buffer.alloc(0);
  let started = false;
  let terminating = false;
  let release: (() => void) | null = null;
  let pumping: Promise<void> = Promise.resolve();
  let idleTimer: NodeJS.Timeout | undefined;

  const takeTurn = async () => {
    release ??= await turn(db);
  };
  const endTurn = () => {
    release?.();
    release = null;
  };

  const execute = async (messages: Buffer): Promise<void> => {
    await takeTurn();
    if (socket.destroyed) return;
    const output: Buffer[] = [];
    await db.runExclusive(() => db.execProtocolRawStream(messages, { onRawData: (data) => output.push(Buffer.from(data)) }));
    const response = Buffer.concat(output);
    if (response.length > 0) socket.write(response);
    const last = hearNotifications(response, notifications);
    if (isIdle(response, last)) {
      await notifications.restore();
      endTurn();
    } else idleTimer = setTimeout(() => socket.destroy(), TURN_IDLE_TIMEOUT_MS);
  };

  const pump = async (): Promise<void> => {
    for (let messages = nextMessages(); messages; messages = nextMessages()) await execute(messages);
    if (terminating) socket.end();
  };

  /** Takes what can run now from the input: the start-up packet, or every complete message up to a Terminate. */
  const nextMessages = (): Buffer | null => {
    if (!started) {
      while (input.length >= 8 && input.length >= input.readInt32BE(0)) {
        const length = input.readInt32BE(0);
        const code = input.readInt32BE(4);
        const packet = input.subarray(0, length);
        input = input.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) socket.write('N');
        else if (code === CANCEL_REQUEST) socket.end();
        else {
          started = true;
          return packet;
        }
      }
      return null;
    }
    let end = 0;
    while (!terminating && input.length - end >= 5 && input.length - end >= 1 + input.readInt32BE(end + 1)) {
      if (input[end] === TERMINATE) terminating = true;
      else end += 1 + input.readInt32BE(end + 1);
    }
    if (end === 0) return null;
    const messages = input.subarray(0, end);
    input = input.subarray(end);
    return messages;
  };

  socket.on('data', (chunk: Buffer) => {
    clearTimeout(idleTimer);
    input = Buffer.concat([input, chunk]);
    pumping = pumping.then(pump).catch((error: unknown) => {
      onError(error);
      socket.destroy();
    });
  });
  socket.on('error', () => socket.destroy());

  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => {
      clearTimeout(idleTimer);
      void pumping
        .then(async () => {
          if (!started) return;
          // Whatever the client left unfinished (half a sequence, an open transaction, session state) is undone
          // before anyone else gets the session.
          await takeTurn();
          await db.runExclusive(async () => {
            await db.execProtocolRaw(SYNC);
            if (db.isInTransaction()) await db.execProtocolRaw(simpleQuery('ROLLBACK'));
            await db.execProtocolRaw(simpleQuery('DISCARD ALL'));
          });
          await notifications.restore();
        })
        .catch(onError)
        .finally(() => {
          endTurn();
          resolve();
        });
    });
  });

  return { closed, destroy: () => socket.destroy() };
}

/** Waits for PGlite's transaction lock and keeps it until the returned function is called. */
function turn(db: PGlite): Promise<() => void> {
  return new Promise((taken) => {
    void db._runExclusiveTransaction(() => new Promise<void>((release) => taken(release)));
  });
}

/** Hands the response's NotificationResponse messages to the owner's listeners; returns the last message's offset. */
function hearNotifications(response: Buffer, notifications: EmbeddedNotifications): number {
  let offset = 0;
  let last = -1;
  while (offset + 5 <= response.length) {
    last = offset;
    const end = offset + 1 + response.readInt32BE(offset + 1);
    if (response[offset] === NOTIFICATION) {
      const channelEnd = response.indexOf(0, offset + 9);
      notifications.heard(response.toString('utf8', offset + 9, channelEnd), response.toString('utf8', channelEnd + 1, end - 1));
    }
    offset = end;
  }
  return last;
}

/** True when the message at `last` is ReadyForQuery with status idle. */
function isIdle(response: Buffer, last: number): boolean {
  return last >= 0 && response[last] === READY_FOR_QUERY && response[last + 5] === IDLE;
}

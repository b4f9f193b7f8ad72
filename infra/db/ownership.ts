// Who owns the embedded database in DATA_DIR. PGlite is one process's database: two processes that open the same
// directory corrupt it, so exactly one process opens it and the others reach it through that one.
// The owner is the process listening on the newest socket DATA_DIR/.s.PGSQL.<n> (named as PostgreSQL names its
// sockets, so `psql -h DATA_DIR -p <n>` works too). Binding a path is atomic (it fails when the path exists) and the
// kernel closes a listener when its process dies, however it dies: a refused connection is a dead owner, with no
// PID to trust or heartbeat to miss while PGlite keeps the event loop busy. A dead owner is succeeded by binding
// generation n+1, never by deleting and re-binding its path, so of two processes racing for the same stale lock
// only one bind succeeds; a winner that then sees a newer generation than its own steps back. Older generations
// are removed by the winner. Beside its socket the owner writes .s.PGSQL.<n>.lock (pid, role, start time), as
// PostgreSQL does, for the messages that name it; nothing depends on that file.
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';

export type OwnerInfo = { pid: number; role: string; started_at: string };

/** This process owns the embedded database; others connect to `socketPath`. */
export type Ownership = {
  owned: true;
  socketPath: string;
  /** Hands every connection, including those that arrived before, to `handler`. */
  accept(handler: (socket: Socket) => void): void;
  /** Gives the database up: call it only once the database is closed. */
  release(): Promise<void>;
};

/** A live process owns the embedded database: reach it with a PostgreSQL client at `host` (a folder) and `port`. */
export type LiveOwner = { owned: false; socketPath: string; host: string; port: number; info: OwnerInfo | undefined };

const SOCKET = /^\.s\.PGSQL\.(\d+)$/;
/** Unix socket paths longer than this are cut short by the operating system (104 bytes with the NUL on macOS). */
const MAX_SOCKET_PATH_BYTES = 103;
/** A refused socket younger than this may belong to a process between bind() and listen(): look again. */
const BIND_GRACE_MS = 2000;
/** How long claiming may keep finding the lock changing hands (owners starting and dying) before it gives up. */
const SETTLE_MS = 15_000;
const NOTE_ATTEMPTS = 20;

export class EmbeddedDatabaseInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LiveOwner,
  ) {
    super(`The embedded database in DATA_DIR ${dataDir} is in use by ${describeOwner(owner)}.`);
  }
}

export function describeOwner(owner: LiveOwner): string {
  const info = owner.info;
  return info ? `${info.role} (pid ${info.pid}, since ${info.started_at})` : `another process (socket ${owner.socketPath})`;
}

/** Takes the embedded database in `dir` for this process, or finds the live process that has it. */
export async function claimOwnership(dir: string, role: string): Promise<Ownership | LiveOwner> {
  mkdirSync(dir, { recursive: true });
  for (const deadline = Date.now() + SETTLE_MS; Date.now() < deadline; await sleep(10 + Math.random() * 40)) {
    const newest = newestGeneration(dir);
    if (newest > 0) {
      const state = await probe(socketPath(dir, newest));
      if (state === 'live') return liveOwner(dir, newest);
      if (state === 'unsettled') continue;
    }
    const mine = newest + 1;
    const endpoint = await bindExclusive(socketPath(dir, mine));
    if (!endpoint) continue;
    if (newestGeneration(dir) > mine) {
      await endpoint.close();
      continue;
    }
    removeGenerationsBefore(dir, mine);
    writeFileSync(`${socketPath(dir, mine)}.lock`, JSON.stringify({ pid: process.pid, role, started_at: new Date().toISOString() }));
    return ownership(dir, mine, endpoint);
  }
  throw new Error(`Could not tell which process owns the embedded database in ${dir}: it kept changing hands.`);
}

function socketPath(dir: string, generation: number): string {
  const path = join(dir, `.s.PGSQL.${generation}`);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`DATA_DIR ${dir} is too long for the embedded database's Unix socket (${path}): choose a shorter DATA_DIR.`);
  }
  return path;
}

function generations(dir: string): number[] {
  return readdirSync(dir)
    .map((name) => SOCKET.exec(name)?.[1])
    .filter((generation) => generation !== undefined)
    .map(Number);
}

function newestGeneration(dir: string): number {
  return Math.max(0, ...generations(dir));
}

/** 'live': a process accepts connections there. 'dead': none does and none is about to. 'unsettled': look again. */
function probe(path: string): Promise<'live' | 'dead' | 'unsettled'> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve('live');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') resolve('unsettled');
      else if (error.code === 'ECONNREFUSED') resolve(ageMs(path) < BIND_GRACE_MS ? 'unsettled' : 'dead');
      // A full backlog (EAGAIN) or a socket of another user (EACCES) still has a live owner behind it.
      else resolve('live');
    });
  });
}

function ageMs(path: string): number {
  try {
    return Date.now() - lstatSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** A socket this process listens on. Connections that come before a handler (the database is still being
 * opened and migrated) wait, their input buffered. */
type Endpoint = { accept(handler: (socket: Socket) => void): void; close(): Promise<void> };

/** Listens on `path` with mode 0600, or returns null when the path exists. */
function bindExclusive(path: string): Promise<Endpoint | null> {
  const server = createServer();
  let handler: ((socket: Socket) => void) | undefined;
  const waiting = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    if (handler) return handler(socket);
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
  });
  const endpoint: Endpoint = {
    accept(next) {
      handler = next;
      for (const socket of waiting) next(socket);
      waiting.clear();
    },
    close() {
      for (const socket of waiting) socket.destroy();
      // Closing the listener removes its socket file, once every connection it handed out has ended.
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(null) : reject(error)));
    server.once('listening', () => resolve(endpoint));
    // The socket is created by listen() itself, synchronously: under this umask it is never reachable by others.
    const umask = process.umask(0o177);
    try {
      server.listen(path);
    } finally {
      process.umask(umask);
    }
  });
}

function removeGenerationsBefore(dir: string, generation: number): void {
  for (const older of generations(dir).filter((found) => found < generation)) {
    rmSync(join(dir, `.s.PGSQL.${older}`), { force: true });
    rmSync(join(dir, `.s.PGSQL.${older}.lock`), { force: true });
  }
}

/** The owner writes its note just after it binds, so a note not there yet is waited for, briefly. */
async function liveOwner(dir: string, generation: number): Promise<LiveOwner> {
  const path = socketPath(dir, generation);
  let info: OwnerInfo | undefined;
  for (let attempt = 0; info === undefined && attempt < NOTE_ATTEMPTS; attempt++) {
    if (attempt > 0) await sleep(50);
    try {
      info = JSON.parse(readFileSync(`${path}.lock`, 'utf8')) as OwnerInfo;
    } catch {
      info = undefined;
    }
  }
  return { owned: false, socketPath: path, host: dir, port: generation, info };
}

function ownership(dir: string, generation: number, endpoint: Endpoint): Ownership {
  const path = socketPath(dir, generation);
  return {
    owned: true,
    socketPath: path,
    accept: (handler) => endpoint.accept(handler),
    async release() {
      // The note goes first: once the socket is gone, a successor may write its own under the same name.
      rmSync(`${path}.lock`, { force: true });
      await endpoint.close();
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

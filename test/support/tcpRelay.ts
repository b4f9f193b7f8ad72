// A TCP relay owned by a test, between a server process and PostgreSQL or Redis: cutting it is a real outage
// for the server (open connections reset, new ones refused) without touching the machine's services, and
// restoring it on the same port is the service coming back. Stalling it is a silent network drop: every
// connection stays open and nothing gets through, until it resumes.
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll } from 'vitest';

export type Relay = { port: number; cut(): Promise<void>; restore(): Promise<void>; stall(): void; resume(): void };

export async function startRelay(target: { host: string; port: number }): Promise<Relay> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let stalled = false;
  const forward = ([client, upstream]: [Socket, Socket]) => client.pipe(upstream).pipe(client);
  const relay: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    if (!stalled) forward(pair);
  });
  const listen = (port: number) => new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = (relay.address() as AddressInfo).port;
  afterAll(() => {
    relay.close();
    for (const socket of sockets) socket.destroy();
  });
  return {
    port,
    cut: () =>
      new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    restore: () => listen(port),
    stall() {
      stalled = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    resume() {
      stalled = false;
      for (const pair of pairs) forward(pair);
    },
  };
}

/** Fails with a plain message when the machine's Redis is not there, rather than with a server time-out. */
export function pingRedis(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(6379, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (reply: Buffer) => {
      socket.destroy();
      if (reply.toString().startsWith('+PONG')) resolve();
      else reject(new Error(`Redis at 127.0.0.1:6379 answered ${reply.toString()}`));
    });
    socket.once('error', (error) => reject(new Error(`these tests need Redis at 127.0.0.1:6379: ${error.message}`)));
  });
}

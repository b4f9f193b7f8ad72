// Deadlines for every request (issue 34 point 4): a GET or a DELETE without a body gets its 503 at the response
// deadline like a request with a body (the deadline no longer waits for a body's end that never comes); on
// PostgreSQL, a silent network drop (a relay that stops forwarding and closes nothing) fails a query at the
// statement time-out with an error answered 503, and the database is used again once the network is back. On
// both databases an interactive transaction is bounded by the same time-out, and one cut there is answered 503.
// What a test opens it closes with onTestFinished: an afterAll added while a test runs is not run.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { nodeListener, withResponseDeadline } from '../../infra/transport/responseDeadline.js';
import { openDatabase } from '../../infra/db/database.js';
import { databaseUnavailable } from '../../resolvers/shared/databaseErrors.js';
import { startRelay } from '../support/tcpRelay.js';

describe('the response deadline over a real socket', () => {
  it.each(['GET', 'DELETE', 'HEAD'])('answers a %s without a body 503 at the deadline', async (method) => {
    const neverAnswers = () => new Promise<Response>(() => undefined);
    const server = createServer(nodeListener(withResponseDeadline(neverAnswers, 300)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/contacts`, { method });
    expect(response.status).toBe(503);
    if (method !== 'HEAD') expect((await response.json()).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(performance.now() - started).toBeLessThan(3_000);
    server.closeAllConnections();
  });
});

const databaseUrl = process.env['TEST_DATABASE_URL'];

describe.skipIf(!databaseUrl)('a silent network drop between the service and PostgreSQL', { timeout: 60_000 }, () => {
  it('fails the query in flight as unavailable at the statement time-out, and works again once the network is back', async () => {
    const target = new URL(databaseUrl!);
    const relay = await startRelay({ host: target.hostname, port: Number(target.port || 5432) });
    const viaRelay = new URL(databaseUrl!);
    viaRelay.host = `127.0.0.1:${relay.port}`;
    const db = await openDatabase({ url: viaRelay.toString(), poolSize: 2, statementTimeoutMs: 1_000 });
    onTestFinished(() => db.close());
    expect(await db.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);

    relay.stall();
    const started = performance.now();
    const failure = await db.prisma.$queryRaw`SELECT 1 AS one`.then(
      () => null,
      (error: unknown) => error,
    );
    expect(databaseUnavailable(failure), String(failure)).toBe(true);
    expect(performance.now() - started).toBeLessThan(8_000);

    relay.resume();
    const back = performance.now();
    await expect
      .poll(
        async () =>
          db.prisma.$queryRaw`SELECT 1 AS one`.then(
            () => 'answered',
            () => 'failed',
          ),
        { timeout: 10_000, interval: 200 },
      )
      .toBe('answered');
    expect(performance.now() - back).toBeLessThan(10_000);
  });
});

describe('an interactive transaction that outlives its time', { timeout: 60_000 }, () => {
  it('is cut at the statement time-out rather than Prisma’s own 5 s, and fails as unavailable (503), rolled back', async () => {
    const limits = { statementTimeoutMs: 800 };
    const db = await openDatabase(databaseUrl ? { url: databaseUrl, poolSize: 2, ...limits } : limits);
    onTestFinished(() => db.close());
    const failure = await db.prisma
      .$transaction(async (transaction) => {
        await transaction.$executeRaw`CREATE TABLE written_in_expired_transaction (id int)`;
        // The wait happens outside the database: the embedded database runs a statement on the event loop, where
        // a pg_sleep would also hold back the timer that ends the transaction.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return transaction.$queryRaw`SELECT 1 AS one`;
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect((failure as { code?: string } | null)?.code, String(failure)).toBe('P2028');
    expect(databaseUnavailable(failure)).toBe(true);
    expect(await db.prisma.$queryRaw`SELECT to_regclass('written_in_expired_transaction')::text AS found`).toEqual([{ found: null }]);
  });
});

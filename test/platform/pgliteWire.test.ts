// The embedded database served to other processes (infra/db/pgliteWire.ts), here an owner and a client in one
// process: PGlite is one session, so a client's transaction and its extended-protocol sequences never interleave
// with the owner's queries or another client's; a client that goes mid-transaction leaves nothing behind, and an
// owner that closes under a client's transaction rolls it back. The owner's LISTEN, in the same session, hears
// what clients commit and survives whatever a client does to the session: UNLISTEN, DISCARD ALL, leaving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../infra/db/database.js';
import type { SqlConnection } from '../../infra/db/sql.js';
import pg from 'pg';
import { dirname } from 'node:path';
import { tempDir } from '../support/server.js';

let owner: Database;
let client: Database;
let other: Database;

beforeAll(async () => {
  const dataDir = tempDir('wire');
  owner = await openDatabase({ dataDir });
  owner.serveOthers();
  client = await openDatabase({ dataDir });
  other = await openDatabase({ dataDir });
  expect(client.owner?.description).toMatch(/^a process \(pid \d+/);
  await owner.sql.exec('CREATE TABLE wire_rows (id serial PRIMARY KEY, who text NOT NULL)');
});

afterAll(async () => {
  await client.close();
  await other.close();
  await owner.close();
});

const rows = async (sql: SqlConnection) =>
  (await sql.query<{ who: string }>('SELECT who FROM wire_rows ORDER BY id')).map((row) => row.who);

describe('a client of the embedded database', () => {
  it("keeps its transaction to itself: the owner's writes wait for it and never join it", async () => {
    await client.sql.session(async (tx) => {
      await tx.exec('BEGIN');
      await tx.query("INSERT INTO wire_rows (who) VALUES ('client')");
      const ownerWrite = owner.sql.query("INSERT INTO wire_rows (who) VALUES ('owner')");
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await rows(tx)).toEqual(['client']);
      await tx.exec('ROLLBACK');
      await ownerWrite;
    });
    expect(await rows(owner.sql)).toEqual(['owner']);
  });

  it("waits for the owner's own transaction instead of reading into it", async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const ownerTransaction = owner.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("INSERT INTO wire_rows (who) VALUES ('owner, rolled back')");
      inside();
      await new Promise((resolve) => setTimeout(resolve, 100));
      throw new Error('roll back');
    });
    const outcome = ownerTransaction.catch((error: Error) => error.message);
    await entered;
    expect(await rows(client.sql)).toEqual(['owner']);
    expect(await outcome).toBe('roll back');
  });

  it('answers many clients and the owner at once, each with its own parameters (extended protocol)', async () => {
    const asked = Array.from({ length: 60 }, (_, index) => index);
    const answers = await Promise.all(
      asked.map(async (index) => {
        const db = [owner, client, other][index % 3]!;
        const [row] = await db.sql.query<{ value: number }>('SELECT $1::int AS value', [index]);
        return row!.value;
      }),
    );
    expect(answers).toEqual(asked);
  });

  it('that goes mid-transaction has it rolled back, and its prepared statements and locks discarded; so has one whose owner closes', async () => {
    const dataDir = tempDir('wire-gone');
    const home = await openDatabase({ dataDir });
    home.serveOthers();
    await home.sql.exec('CREATE TABLE gone_rows (id int)');
    const leaving = await openDatabase({ dataDir });
    await leaving.sql.session(async (tx) => {
      await tx.exec('PREPARE left_behind AS SELECT 1; SELECT pg_advisory_lock(42); BEGIN; INSERT INTO gone_rows VALUES (1)');
    });
    await leaving.close();
    await expect.poll(() => home.sql.query('SELECT name FROM pg_prepared_statements')).toEqual([]);
    expect(await home.sql.query('SELECT id FROM gone_rows')).toEqual([]);
    expect(await home.sql.query("SELECT objid FROM pg_locks WHERE locktype = 'advisory'")).toEqual([]);

    // An owner that closes while a client is mid-transaction rolls it back; the client learns that the owner went.
    const stranded = await openDatabase({ dataDir });
    await stranded.sql.session(async (tx) => {
      await tx.exec('BEGIN; INSERT INTO gone_rows VALUES (2)');
      await home.close();
      await expect(tx.query('SELECT 1')).rejects.toThrow();
    });
    expect(stranded.owner?.lost()).toBe(true);
    await stranded.close();
    const next = await openDatabase({ dataDir });
    expect(next.owner).toBeUndefined();
    expect(await next.sql.query('SELECT id FROM gone_rows')).toEqual([]);
    await next.close();
  });

  it("never takes the owner's LISTEN away: notices from clients' commits reach it, after UNLISTEN, DISCARD ALL and leaving", async () => {
    const heard: (string | null)[] = [];
    const stop = await owner.listen('wire_news', (payload) => heard.push(payload));
    const notify = (sql: SqlConnection, payload: string) => sql.query("SELECT pg_notify('wire_news', $1)", [payload]);
    // A psql-like session straight on the socket: connect, query, take the session's LISTENs away, disconnect.
    const socketPath = client.socketPath!;
    const port = Number(socketPath.split('.').pop());
    const session = new pg.Client({ host: dirname(socketPath), port, user: 'postgres', database: 'postgres' });
    await session.connect();
    await session.query("SELECT pg_notify('wire_news', 'from a client')");
    await expect.poll(() => heard).toEqual(['from a client']);
    await session.query('UNLISTEN *');
    await notify(owner.sql, 'after UNLISTEN');
    await session.query('DISCARD ALL');
    await notify(owner.sql, 'after DISCARD ALL');
    await session.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await notify(owner.sql, 'after leaving');
    await notify(client.sql, 'from the driver');
    await expect
      .poll(() => heard.filter((payload) => payload !== null))
      .toEqual(['from a client', 'after UNLISTEN', 'after DISCARD ALL', 'after leaving', 'from the driver']);
    await stop();
  });
});

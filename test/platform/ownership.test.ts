// Ownership of the embedded database (infra/db/ownership.ts) between real processes: of many processes claiming
// the same DATA_DIR at once, exactly one owns it and the others are told its pid, also when they all race for the
// stale lock of an owner killed with SIGKILL; an owner that stops cleanly leaves nothing behind.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimOwnership, type Ownership } from '../../infra/db/ownership.js';
import { tempDir } from '../support/server.js';

type Report = { owned: boolean; pid?: number; owner?: number };
type Claimer = { child: ChildProcess; report: Promise<Report> };

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

function claimer(dir: string): Claimer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/claimOwner.ts', dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const report = new Promise<Report>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(JSON.parse(text) as Report);
    });
    child.once('exit', (code) => reject(new Error(`claimer exited (${code}) before reporting`)));
  });
  return { child, report };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts `count` claimers at once; expects exactly one owner, named by all the others; returns it. */
async function race(dir: string, count: number): Promise<Claimer> {
  const claimers = Array.from({ length: count }, () => claimer(dir));
  const reports = await Promise.all(claimers.map((entry) => entry.report));
  const owners = claimers.filter((_, index) => reports[index]!.owned);
  expect(owners).toHaveLength(1);
  const owner = owners[0]!;
  for (const report of reports.filter((entry) => !entry.owned)) expect(report.owner).toBe(owner.child.pid);
  // The losers have reported and exit on their own; the owner stays until told.
  await Promise.all(claimers.filter((entry) => entry !== owner).map((entry) => exited(entry.child)));
  return owner;
}

function sockets(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('.s.PGSQL.'));
}

describe('one owner of DATA_DIR among processes', { timeout: 120_000 }, () => {
  it('lets exactly one of several processes claiming at once own it, also over the stale lock of owners killed with SIGKILL', async () => {
    const dir = tempDir('claim');
    let owner = await race(dir, 6);
    for (let round = 0; round < 3; round++) {
      owner.child.kill('SIGKILL');
      await exited(owner.child);
      owner = await race(dir, 6);
    }
    // Each dead owner was succeeded by the next generation, and its files removed.
    expect(sockets(dir).sort()).toEqual(['.s.PGSQL.4', '.s.PGSQL.4.lock']);
    owner.child.stdin!.end();
    await exited(owner.child);
    expect(sockets(dir)).toEqual([]);
  });

  it('gives a stale lock to exactly one of twenty claims racing for it in one process', async () => {
    const dir = tempDir('claim');
    const stale = join(dir, '.s.PGSQL.7');
    // A process that listens there and dies by SIGKILL leaves the socket file behind with no listener.
    const script = `require('net').createServer().listen(${JSON.stringify(stale)}, () => process.kill(process.pid, 'SIGKILL'))`;
    expect(() => execFileSync(process.execPath, ['-e', script])).toThrow();
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(stale, longAgo, longAgo);

    const claims = await Promise.all(Array.from({ length: 20 }, () => claimOwnership(dir, 'a test')));
    const owned = claims.filter((claim): claim is Ownership => claim.owned);
    expect(owned).toHaveLength(1);
    expect(owned[0]!.socketPath).toBe(join(dir, '.s.PGSQL.8'));
    for (const claim of claims.filter((entry) => !entry.owned)) expect(claim.socketPath).toBe(owned[0]!.socketPath);
    await owned[0]!.release();
    expect(sockets(dir)).toEqual([]);
  });

  it('refuses a DATA_DIR too long for a Unix socket rather than let the system cut the path short', async () => {
    const dir = `${tempDir('claim')}/${'d'.repeat(100)}`;
    await expect(claimOwnership(dir, 'a test')).rejects.toThrow(
      /is too long for the embedded database's Unix socket.*choose a shorter DATA_DIR/,
    );
  });
});

// The loop both background workers run (workers/loop.ts): a round, then a pause that a nudge cuts short (also
// one that arrives during the round), no pause after a round that reports more work, a failed round logged
// and retried after the pause, and stop() waiting for the round in flight.
import { Writable } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createLogger } from '../../infra/observability/logger.js';
import { startLoop, type LoopOptions } from '../../workers/loop.js';

const silent = createLogger('silent');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function loop(round: LoopOptions['round'], options: Partial<LoopOptions> = {}) {
  const started = startLoop({ name: 'test worker', pollMs: 60_000, logger: silent, round, ...options });
  onTestFinished(() => started.stop());
  return started;
}

describe('the worker loop', () => {
  it('pauses pollMs between rounds, and a nudge ends the pause at once', async () => {
    let rounds = 0;
    const started = loop(async () => void (rounds += 1));
    await expect.poll(() => rounds).toBe(1);
    await sleep(50);
    expect(rounds).toBe(1);
    started.nudge();
    await expect.poll(() => rounds).toBe(2);
  });

  it('keeps a nudge that arrives during a round, so the next round follows without a pause', async () => {
    let rounds = 0;
    const started = loop(async () => {
      rounds += 1;
      if (rounds === 1) {
        await sleep(20);
        started.nudge();
      }
    });
    await expect.poll(() => rounds).toBe(2);
    await sleep(50);
    expect(rounds).toBe(2);
  });

  it('starts the next round without a pause while a round reports more work', async () => {
    let rounds = 0;
    loop(async () => (rounds += 1) < 5);
    await expect.poll(() => rounds).toBe(5);
    await sleep(50);
    expect(rounds).toBe(5);
  });

  it('logs a failed round and tries again after the pause', async () => {
    const lines: { msg: string; err?: { message: string } }[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
          done();
        },
      }),
    );
    let rounds = 0;
    loop(
      async () => {
        rounds += 1;
        if (rounds === 1) throw new Error('database away');
      },
      { logger, pollMs: 20 },
    );
    await expect.poll(() => rounds).toBeGreaterThanOrEqual(2);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'test worker round failed; retrying', err: expect.objectContaining({ message: 'database away' }) }),
    ]);
  });

  it('stop() aborts the signal, waits for the round in flight and starts no other', async () => {
    let rounds = 0;
    let finished = false;
    const started = loop(async (stopping) => {
      rounds += 1;
      await new Promise((resolve) => stopping.addEventListener('abort', resolve));
      await sleep(30);
      finished = true;
    });
    await expect.poll(() => rounds).toBe(1);
    await started.stop();
    expect(finished).toBe(true);
    await sleep(30);
    expect(rounds).toBe(1);
  });
});

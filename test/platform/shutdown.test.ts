// The shutdown hook registry other parts of the service register with: 'drain' hooks run side by side
// and before 'close' hooks; a failing or overrunning hook is reported and does not hold up the rest.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../infra/observability/logger.js';
import { createShutdownRegistry } from '../../infra/shutdown.js';

function capturingLogger() {
  const messages: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      messages.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
      done();
    },
  });
  return { logger: createLogger('info', sink), messages };
}

describe('shutdown registry', () => {
  it('runs every drain hook side by side, then the close hooks, and reports a clean stop', async () => {
    const registry = createShutdownRegistry();
    const order: string[] = [];
    let releaseWorker: () => void = () => undefined;
    registry.register({ name: 'database', stage: 'close', stop: () => void order.push('database closed') });
    registry.register({
      name: 'webhook worker',
      stage: 'drain',
      stop: () => new Promise<void>((resolve) => (releaseWorker = () => (order.push('worker stopped'), resolve()))),
    });
    registry.register({
      name: 'server',
      stage: 'drain',
      stop: async () => {
        order.push('server draining');
        releaseWorker();
      },
    });
    const { logger, messages } = capturingLogger();
    expect(await registry.run({ timeoutMs: 5000, logger })).toBe(true);
    expect(order).toEqual(['server draining', 'worker stopped', 'database closed']);
    expect(messages).toEqual(expect.arrayContaining(['webhook worker stopped', 'server stopped', 'database stopped']));
  });

  it('still closes the database when a drain hook fails or overruns the deadline, and reports the stop as unclean', async () => {
    const registry = createShutdownRegistry();
    let deadlineSeen = false;
    let databaseClosed = false;
    registry.register({ name: 'database', stage: 'close', stop: () => void (databaseClosed = true) });
    registry.register({
      name: 'stubborn worker',
      stage: 'drain',
      stop: (deadline) => new Promise<void>((resolve) => deadline.addEventListener('abort', () => ((deadlineSeen = true), resolve()))),
    });
    registry.register({ name: 'broken worker', stage: 'drain', stop: () => Promise.reject(new Error('boom')) });
    const { logger, messages } = capturingLogger();
    expect(await registry.run({ timeoutMs: 100, logger })).toBe(false);
    expect(deadlineSeen).toBe(true);
    expect(databaseClosed).toBe(true);
    expect(messages).toEqual(
      expect.arrayContaining(['broken worker failed to stop', 'stubborn worker did not stop cleanly within 100 ms', 'database stopped']),
    );
  });

  it('forgets a hook that was unregistered', async () => {
    const registry = createShutdownRegistry();
    let stopped = false;
    const unregister = registry.register({ name: 'finished job', stage: 'drain', stop: () => void (stopped = true) });
    unregister();
    expect(await registry.run({ timeoutMs: 100, logger: capturingLogger().logger })).toBe(true);
    expect(stopped).toBe(false);
  });
});

// The loop every background worker runs (webhook delivery, campaigns): a round of work, then a pause of
// `pollMs` that nudge() cuts short, and again, until stop(). A round that fails is logged and the loop goes
// on after the pause, so a database blip costs one interval, not the worker. A nudge that arrives while a
// round runs is kept, so the next pause ends at once: work announced mid-round is never left for a whole
// interval. stop() ends the pause and waits for the round in flight; what a round started beyond itself
// (attempts in flight) is the worker's to wait for.
import type { Logger } from 'pino';

export type LoopOptions = {
  /** Names the worker in the log line of a failed round. */
  name: string;
  pollMs: number;
  logger: Logger;
  /**
   * One round of work; resolves true when more work is known to be waiting, so the next round starts without a
   * pause. `stopping` aborts when stop() is called, for rounds long enough to leave early.
   */
  round(stopping: AbortSignal): Promise<boolean | void>;
};

export type WorkerLoop = {
  /** Work may be waiting: end the current pause, or skip the next one. */
  nudge(): void;
  stop(): Promise<void>;
};

export function startLoop(options: LoopOptions): WorkerLoop {
  const stopping = new AbortController();
  let wake: (() => void) | null = null;
  let nudged = false;

  function nudge() {
    nudged = true;
    wake?.();
  }

  function pause(): Promise<void> {
    if (nudged) {
      nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, options.pollMs);
      function done() {
        clearTimeout(timer);
        wake = null;
        nudged = false;
        resolve();
      }
      wake = done;
    });
  }

  const running = (async () => {
    while (!stopping.signal.aborted) {
      let more = false;
      try {
        more = (await options.round(stopping.signal)) === true;
      } catch (error) {
        options.logger.error({ err: error }, `${options.name} round failed; retrying`);
      }
      if (!more && !stopping.signal.aborted) await pause();
    }
  })();

  return {
    nudge,
    async stop() {
      stopping.abort();
      nudge();
      await running;
    },
  };
}

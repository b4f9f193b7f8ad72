// Orderly stop on SIGTERM/SIGINT, shared by every process of the service (the API server, background
// workers). Anything that runs in the background registers how to stop it, e.g.
//   shutdown.register({ name: 'webhook delivery', stage: 'drain', stop: (deadline) => worker.stop(deadline) })
// Stage 'drain' (servers, workers, sessions: stop taking work, finish what is in flight) runs first, its
// hooks side by side, until they are done or SHUTDOWN_TIMEOUT_MS passes; their signal aborts then, so they
// cut what is left. Stage 'close' (database, Redis, metrics listener) runs after it, given CLOSE_GRACE_MS.
import type { Logger } from 'pino';
import { exitAfterLogs } from './observability/logger.js';

export type ShutdownStage = 'drain' | 'close';

export type ShutdownHook = {
  name: string;
  stage: ShutdownStage;
  stop(deadline: AbortSignal): Promise<void> | void;
};

export type ShutdownRegistry = {
  /** Returns a function that unregisters the hook (for something stopped earlier by other means). */
  register(hook: ShutdownHook): () => void;
  /** Runs every hook once; true when all of them finished in time without error. */
  run(options: { timeoutMs: number; logger: Logger }): Promise<boolean>;
};

const CLOSE_GRACE_MS = 5000;

export function createShutdownRegistry(): ShutdownRegistry {
  const hooks = new Set<ShutdownHook>();
  return {
    register(hook) {
      hooks.add(hook);
      return () => hooks.delete(hook);
    },
    async run({ timeoutMs, logger }) {
      const all = [...hooks];
      hooks.clear();
      const drained = await runStage(
        all.filter((hook) => hook.stage === 'drain'),
        timeoutMs,
        logger,
      );
      const closed = await runStage(
        all.filter((hook) => hook.stage === 'close'),
        CLOSE_GRACE_MS,
        logger,
      );
      return drained && closed;
    },
  };
}

async function runStage(hooks: ShutdownHook[], timeoutMs: number, logger: Logger): Promise<boolean> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const outcomes = await Promise.all(
    hooks.map(async (hook) => {
      const started = performance.now();
      const stopped = Promise.resolve()
        .then(() => hook.stop(deadline))
        .then(
          () => true,
          (error: unknown) => {
            logger.error({ err: error, hook: hook.name }, `${hook.name} failed to stop`);
            return false;
          },
        );
      const abandoned = new Promise<false>((resolve) => {
        // A hook gets a moment after its signal aborts to cut what is left before it is abandoned.
        const timer = setTimeout(() => resolve(false), timeoutMs + 1000);
        void stopped.then(() => clearTimeout(timer));
      });
      // A hook that returns only after its signal aborted was cut off rather than stopped cleanly.
      const clean = (await Promise.race([stopped, abandoned])) && !deadline.aborted;
      if (clean) logger.info({ hook: hook.name, duration_ms: Math.round(performance.now() - started) }, `${hook.name} stopped`);
      else logger.warn({ hook: hook.name }, `${hook.name} did not stop cleanly within ${timeoutMs} ms`);
      return clean;
    }),
  );
  return outcomes.every(Boolean);
}

/** The process-wide registry that `npm start` (and a worker process) runs on SIGTERM/SIGINT. */
export const shutdown = createShutdownRegistry();

/** Runs the registry once and exits: with `exitCode`, or else 0 when everything stopped cleanly. */
export type StopProcess = (exitCode?: number) => Promise<never>;

/** On the first SIGTERM or SIGINT: run the registry, then exit (0 when everything stopped cleanly). Returns the same
 * stop for a process that must end by itself (a port already taken): a signal during it starts no second one. */
export function stopOnSignals(registry: ShutdownRegistry, options: { timeoutMs: number; logger: Logger }): StopProcess {
  let stopping: Promise<never> | null = null;
  const stop: StopProcess = (exitCode) =>
    (stopping ??= registry.run(options).then((clean) => {
      options.logger.info({ clean }, 'shutdown complete');
      return exitAfterLogs(options.logger, exitCode ?? (clean ? 0 : 1));
    }));
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    options.logger.info({ signal, timeout_ms: options.timeoutMs }, 'shutting down: draining requests and workers');
    void stop();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return stop;
}

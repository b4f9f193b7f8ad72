// An agent worker: every AGENT_POLL_MS (workers/loop.ts) claims due agent runs, up to AGENT_CONCURRENCY of them
// (each of another conversation), and works them side by side. It runs inside the server (app/main.ts) and in
// `npm run worker` (app/worker.ts); any number may share one database. stop() lets the runs in flight finish.
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { startLoop } from '../loop.js';
import { claimDueRuns } from './queue.js';
import { createAgentRunner } from './runner.js';
import type { RunOperation } from './operations.js';
import type { AgentWorkerOptions } from './options.js';

export type AgentWorker = { stop(): Promise<void> };

/** `runOperation` runs the facades' named operations for the agent (app/ wires the gateway's in-process runner). */
export function startAgentWorker(services: Services, runOperation: RunOperation, options: AgentWorkerOptions, logger: Logger): AgentWorker {
  const runner = createAgentRunner(services, runOperation, options, logger);
  const loop = startLoop({
    name: 'agent worker',
    pollMs: options.pollMs,
    logger,
    round: async () => {
      const now = options.clock();
      const runs = await claimDueRuns(services.prisma, {
        now,
        leaseUntil: new Date(now.getTime() + options.leaseMs),
        limit: options.concurrency,
      });
      await Promise.all(runs.map((run) => runner.process(run)));
      return runs.length === options.concurrency;
    },
  });
  return { stop: () => loop.stop() };
}

// A campaign worker: ticks the runner every CAMPAIGN_POLL_MS (workers/loop.ts). It runs inside the server
// (app/main.ts) and in `npm run worker` (app/worker.ts); any number may share one database. stop() lets the
// send in flight finish and gives its campaigns' leases up, so another worker can take them over at once.
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { startLoop } from '../loop.js';
import { createCampaignRunner } from './runner.js';
import type { CampaignRunnerOptions } from './options.js';

export type CampaignWorker = { stop(): Promise<void> };

export function startCampaignWorker(
  services: Pick<Services, 'prisma' | 'messaging' | 'secrets' | 'statusMoves'>,
  options: CampaignRunnerOptions,
  logger: Logger,
): CampaignWorker {
  const runner = createCampaignRunner(services, options, logger);
  const loop = startLoop({
    name: 'campaign runner',
    pollMs: options.pollMs,
    logger,
    round: async (stopping) => {
      await runner.tick(() => stopping.aborted);
    },
  });
  return { stop: () => loop.stop() };
}

// A campaign worker: ticks the runner every CAMPAIGN_POLL_MS. It runs inside the server (app/main.ts) and in
// `npm run worker` (app/worker.ts); any number may share one database. stop() lets the send in flight finish
// and gives its campaigns' leases up, so another worker can take them over at once.
import type { Logger } from 'pino';
import type { Services } from '../resolvers/context.js';
import { createCampaignRunner } from './runner.js';
import type { CampaignRunnerOptions } from './options.js';

export type CampaignWorker = { stop(): Promise<void> };

export function startCampaignWorker(
  services: Pick<Services, 'prisma' | 'messaging' | 'secrets'>,
  options: CampaignRunnerOptions,
  logger: Logger,
): CampaignWorker {
  const runner = createCampaignRunner(services, options, logger);
  let stopping = false;
  let wake: (() => void) | null = null;

  function pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, options.pollMs);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }

  const loop = (async () => {
    while (!stopping) {
      try {
        await runner.tick(() => stopping);
      } catch (error) {
        logger.error({ err: error }, 'campaign runner round failed; retrying');
      }
      if (!stopping) await pause();
    }
  })();

  return {
    async stop() {
      stopping = true;
      wake?.();
      await loop;
    },
  };
}

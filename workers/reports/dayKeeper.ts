// Runs the day keeper (resolvers/reports/dayKeeper.ts): the conversations report's ended days computed outside any
// request. A round with work left (a workspace's history not yet computed, more workspaces than a round takes) goes on
// without a pause; otherwise the next day's end or the next marks are found at the next poll.
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { keepEndedDays } from '../../resolvers/reports/dayKeeper.js';
import { startLoop } from '../loop.js';

const WORKSPACES_PER_ROUND = 20;

export function startDayKeeper(services: Pick<Services, 'prisma'>, options: { pollMs: number }, logger: Logger) {
  return startLoop({
    name: 'report day keeper',
    pollMs: options.pollMs,
    logger,
    round: () => keepEndedDays(services, WORKSPACES_PER_ROUND),
  });
}

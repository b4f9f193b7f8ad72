// Sweeps the report marks (report_changes) that no report consumed within a day: the days they touch are kept as
// "to compute again" and the marks are removed, so a workspace whose reports nobody reads does not pile them up
// (resolvers/reports/dailyFigures.ts). A round with a full batch of workspaces goes on without a pause.
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { forgetMarkedDays } from '../../resolvers/reports/dailyFigures.js';
import { startLoop } from '../loop.js';

const WORKSPACES_PER_ROUND = 20;
const DAY_MS = 86_400_000;

export function startMarkSweeper(services: Pick<Services, 'prisma'>, options: { pollMs: number }, logger: Logger) {
  return startLoop({
    name: 'report mark sweeper',
    pollMs: options.pollMs,
    logger,
    round: async () => (await forgetMarkedDays(services, new Date(Date.now() - DAY_MS), WORKSPACES_PER_ROUND)) === WORKSPACES_PER_ROUND,
  });
}

// Keeps the event feed to EVENT_RETENTION_DAYS: every interval it deletes the events recorded before then, in
// batches so that no statement holds locks for long (a round with a full batch goes on without a pause).
// An event's webhook deliveries and their attempts go with it.
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { pruneEvents } from '../../resolvers/events/feed.js';
import { startLoop } from '../loop.js';

const BATCH = 1000;
const DAY_MS = 86_400_000;

export type EventPrunerOptions = { retentionDays: number; pollMs: number };

export function startEventPruner(services: Pick<Services, 'prisma'>, options: EventPrunerOptions, logger: Logger) {
  return startLoop({
    name: 'event pruner',
    pollMs: options.pollMs,
    logger,
    round: async () => {
      const before = new Date(Date.now() - options.retentionDays * DAY_MS);
      return (await pruneEvents(services.prisma, before, BATCH)) === BATCH;
    },
  });
}

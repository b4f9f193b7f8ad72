// Decides the sandbox's template reviews when they are due (review_due_at, set when a template is submitted to a
// sandbox integration), through the same resolver path a provider's status webhook takes: a review survives a
// restart, and any instance may decide it (each is claimed once).
import type { Logger } from 'pino';
import type { Services } from '../../resolvers/shared/context.js';
import { decideDueSandboxReviews } from '../../resolvers/templates/templateStatus.js';
import { startLoop } from '../loop.js';

const BATCH = 50;

export function startTemplateReviewer(services: Pick<Services, 'prisma'>, options: { pollMs: number }, logger: Logger) {
  return startLoop({
    name: 'template reviewer',
    pollMs: options.pollMs,
    logger,
    round: async () => (await decideDueSandboxReviews(services, BATCH)) === BATCH,
  });
}

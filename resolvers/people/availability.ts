// A person's availability: online, or away (round-robin assignment skips them). Each person sets their own;
// a key sets its creator's. Coming online can free a slot for a conversation waiting in a team's round robin:
// the automations worker assigns waiting conversations when a member has room (resolvers/automations/roundRobin.ts).
import { z } from 'zod';
import { type Context, requireActor } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';

export const AVAILABILITIES = ['online', 'away'] as const;

const availabilityInput = z.object({
  availability: z.enum(AVAILABILITIES, { message: `must be one of ${AVAILABILITIES.join(', ')}` }),
});

type Query = { select?: object; include?: object };

export async function setOwnAvailability(ctx: Context, input: { availability: string }, query: Query = {}) {
  const actor = requireActor(ctx);
  if (!actor.userId) throw new DomainError('FORBIDDEN', 'Only a person, or a key a person created, has an availability');
  const { availability } = parseInput(availabilityInput, input);
  return ctx.prisma.user.update({
    ...query,
    where: { id: actor.userId },
    data: { availability, availability_changed_at: new Date() },
  });
}

// The event feed for integrators (GET /api/v1/events, GraphQL events, MCP events_list), modelled on Stripe's
// events list: the workspace's events oldest first, after the last one the caller saw, each the webhook
// envelope as stored. A receiver that was down reads from the last event it processed and gets exactly the
// events it missed, in order (feed.ts says why none can be skipped).
import { z } from 'zod';
import { type Context, requireActor } from '../shared/context.js';
import { keysetPage, type Page } from '../shared/pagination.js';
import { EVENT_TYPES } from '../shared/outbox.js';
import { limit, parseInput } from '../shared/validation.js';
import { positionOf, readEvents } from './feed.js';
import type { FeedEvent } from '../shared/liveEvents.js';

const listInput = z.object({
  after: z.string().nullish(),
  type: z
    .string()
    .transform((value) => value.split(',').map((type) => type.trim()))
    .pipe(z.array(z.enum(EVENT_TYPES, { message: `must be one or more of ${EVENT_TYPES.join(', ')}, comma-separated` })))
    .nullish(),
  limit: limit(50),
});

export type EventListInput = z.input<typeof listInput>;

/** The workspace's events after `after` (an event id), oldest first, optionally of some types only. */
export async function listEvents(ctx: Context, input: EventListInput): Promise<Page<FeedEvent['envelope']>> {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  const after = args.after ? await positionOf(ctx.prisma, workspaceId, args.after, 'after') : null;
  const page = await keysetPage(
    args.limit,
    (take) => readEvents(ctx.prisma, workspaceId, after, take, args.type ?? EVENT_TYPES),
    (event) => event.envelope.id,
  );
  return { ...page, data: page.data.map((event) => event.envelope) };
}

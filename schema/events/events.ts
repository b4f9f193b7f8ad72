// Events: the feed (Query.events, the REST and MCP event list) and live updates (subscriptions over SSE, the
// graphql-sse protocol of graphql-yoga). Both read the outbox through resolvers/events; a subscription per
// entry of LIVE_SOURCES, each with the same key, scope and rate-limit rules as a query.
import { builder } from '../builder.js';
import { MessageDetail } from '../messaging/messageDetail.js';
import { pageType } from '../shared/page.js';
import { listEvents } from '../../resolvers/events/eventList.js';
import { conversationIdOf, LIVE_SOURCES, type LiveField } from '../../resolvers/events/hub.js';
import type { FeedEvent } from '../../resolvers/shared/liveEvents.js';
import { EVENT_TYPES } from '../../resolvers/shared/outbox.js';
import { requireActor, type Context } from '../../resolvers/shared/context.js';
import { DomainError } from '../../resolvers/shared/errors.js';
import { grants, type Permission } from '../../resolvers/workspace/scopes.js';
import { limitArg } from '../shared/pageLimit.js';

type Envelope = FeedEvent['envelope'];

const Event = builder.objectRef<Envelope>('Event').implement({
  description: 'An event as its webhook delivers it: the envelope {id, type, created_at, data}.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'evt_<uuid>; pass it as after to read the events that followed.' }),
    type: t.exposeString('type', { description: `One of ${EVENT_TYPES.join(', ')}.` }),
    created_at: t.exposeString('created_at', { description: 'ISO 8601, as in the webhook body.' }),
    data: t.expose('data', { type: 'JSON', description: 'As in the webhook body of this type (docs/webhooks).' }),
  }),
});

builder.queryField('events', (t) =>
  t.field({
    type: pageType('EventList', Event, 'One page of events, oldest first.'),
    description:
      "The workspace's events after the event `after` (from the oldest kept when absent), oldest first: a receiver that was down catches up with no gap and no duplicate. Events are kept EVENT_RETENTION_DAYS days.",
    authScopes: { permission: 'webhooks' },
    args: {
      after: t.arg.id({ required: false, description: 'The id of the last event seen (next_cursor of the previous page).' }),
      type: t.arg.string({ required: false, description: 'Only events of these types, comma-separated.' }),
      limit: limitArg(t.arg, 50),
    },
    resolve: (_root, args, ctx) => listEvents(ctx, { ...args, after: args.after?.toString() }),
  }),
);

const LiveEvent = builder.objectRef<FeedEvent>('LiveEvent').implement({
  description: 'A committed event, delivered live: its envelope, and the message it is about as that message is now.',
  fields: (t) => ({
    id: t.id({ description: 'The event id (evt_<uuid>).', resolve: (event) => event.envelope.id }),
    type: t.string({ resolve: (event) => event.envelope.type }),
    created_at: t.string({ resolve: (event) => event.envelope.created_at }),
    conversation_id: t.id({ nullable: true, resolve: (event) => conversationIdOf(event) }),
    data: t.field({ type: 'JSON', description: 'The webhook data of this event type.', resolve: (event) => event.envelope.data }),
    message: t.field({
      type: MessageDetail,
      nullable: true,
      resolve: (event, _args, ctx) => ctx.events.messageOf(requireActor(ctx).workspaceId, event),
    }),
  }),
});

function requirePermission(ctx: Context, permission: Permission) {
  const actor = requireActor(ctx);
  if (!grants(actor.scopes, permission)) {
    throw new DomainError('INSUFFICIENT_SCOPE', `This API key lacks the ${permission} scope`, { required_scope: [permission] });
  }
  return actor;
}

const DESCRIPTIONS: Record<LiveField, string> = {
  messageCreated: 'Each new message, inbound or outbound.',
  messageStatusChanged: "Each change of an outbound message's delivery status.",
  conversationChanged:
    'Each event that changes a conversation (a message in it, a status of one of its messages, its status, assignee, AI-agent switch or details, a hand-off from the AI agent).',
  templateStatusChanged:
    "Each change of a template written here: its submission, the provider's status (with a rejection's reason), quality score or category.",
};

for (const [field, types] of Object.entries(LIVE_SOURCES) as [LiveField, readonly string[]][]) {
  builder.subscriptionField(field, (t) =>
    t.field({
      type: LiveEvent,
      description: `${DESCRIPTIONS[field]} Fed by: ${types.join(', ')}. Pass after (the id of the last event seen) to first get what was missed.`,
      authScopes: { permission: 'conversations' },
      args: {
        conversation_id: t.arg.id({ required: false, description: 'Only this conversation; absent, the whole workspace.' }),
        after: t.arg.id({ required: false }),
      },
      // Pothos checks authScopes when a field resolves, which for a subscription is per event: the stream itself
      // is refused here, before it starts, with the same error a query would get.
      subscribe: (_root, args, ctx) =>
        ctx.events.subscribe(requirePermission(ctx, 'conversations').workspaceId, {
          types,
          conversationId: args.conversation_id?.toString() ?? null,
          after: args.after?.toString() ?? null,
        }),
      resolve: (event) => event,
    }),
  );
}

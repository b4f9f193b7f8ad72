// Webhook subscriptions, their deliveries and attempts, with the queries and mutations that manage them.
// The signing secret appears only on WebhookSubscriptionWithSecret, returned by webhookCreate and
// webhookRotateSecret.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { EVENT_TYPES } from '../../resolvers/shared/outbox.js';
import { pageType } from '../shared/page.js';
import {
  createWebhook,
  deleteWebhook,
  envelopeEventId,
  getWebhook,
  getWebhookDelivery,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhook,
  revealSecret,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
} from '../../resolvers/webhooks/webhooks.js';
import { limitArg } from '../shared/pageLimit.js';
import { oneOf, URI } from '../shared/jsonSchemaHints.js';
import { DELIVERY_STATUSES } from '../../resolvers/webhooks/webhooks.js';

const WebhookSubscription = builder.prismaObject('WebhookSubscription', {
  description: 'A receiver URL and the event types delivered to it, signed with the subscription secret.',
  fields: () => ({}),
});

const WebhookSubscriptionWithSecret = builder.prismaObject('WebhookSubscription', {
  variant: 'WebhookSubscriptionWithSecret',
  description: 'A subscription with its signing secret: returned only when it is created or its secret rotated.',
  fields: (t) => ({
    secret: t.string({
      description:
        'The signing secret (whsec_…). X-Service-Signature is the hex HMAC-SHA256 of the raw body keyed with it. Store it now: it is not shown again.',
      select: { secret: true },
      resolve: (subscription, _args, ctx) => revealSecret(ctx, subscription),
    }),
  }),
});

for (const variant of [WebhookSubscription, WebhookSubscriptionWithSecret]) {
  builder.prismaObjectFields(variant, (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url', URI),
    events: t.exposeStringList('events', { description: 'Event types delivered: message.received, message.status, message.created.' }),
    active: t.exposeBoolean('active', {
      description: 'Inactive subscriptions get no new events; their due deliveries are held until re-enabled.',
    }),
    disabled_reason: t.exposeString('disabled_reason', {
      nullable: true,
      description: 'manual (set inactive by a client) or failing (disabled automatically); null while active.',
    }),
    disabled_at: t.expose('disabled_at', { type: 'DateTime', nullable: true }),
    failing_since: t.expose('failing_since', {
      type: 'DateTime',
      nullable: true,
      description: 'Start of the current run of failed attempts; null after a success.',
    }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }));
}

builder.prismaObject('WebhookDeliveryAttempt', {
  description: 'One HTTP attempt of a delivery.',
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number', { description: '1 for the first attempt; a number is skipped when a worker died during it.' }),
    started_at: t.expose('started_at', { type: 'DateTime' }),
    duration_ms: t.exposeInt('duration_ms'),
    status_code: t.exposeInt('status_code', { nullable: true, description: "The receiver's HTTP status; null when it did not answer." }),
    error: t.exposeString('error', { nullable: true, description: 'Why no answer came: time-out, network or TLS error, refused target.' }),
    response_body: t.exposeString('response_body', { nullable: true, description: "The start (at most 1 KB) of the receiver's answer." }),
  }),
});

const WebhookDelivery = builder.prismaObject('WebhookDelivery', {
  description: 'One event for one subscription. Its id is the X-Service-Delivery-Id header, the same on every attempt.',
  fields: (t) => ({
    id: t.exposeID('id'),
    subscription_id: t.exposeID('subscription_id'),
    event_id: t.string({ description: 'The id in the event body (evt_…).', select: { event_id: true }, resolve: envelopeEventId }),
    event_type: t.exposeString('event_type'),
    status: t.exposeString('status', {
      description:
        'pending; held (due while its subscription is inactive; pending again when re-enabled); succeeded; failed (its last attempt failed).',
    }),
    attempt_count: t.exposeInt('attempt_count'),
    next_attempt_at: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'While pending: when the next attempt is due. Null once succeeded or failed.',
      select: { next_attempt_at: true, status: true },
      resolve: (delivery) => (delivery.status === 'pending' ? delivery.next_attempt_at : null),
    }),
    last_attempt_at: t.expose('last_attempt_at', { type: 'DateTime', nullable: true }),
    last_status_code: t.exposeInt('last_status_code', { nullable: true }),
    last_error: t.exposeString('last_error', { nullable: true }),
    delivered_at: t.expose('delivered_at', { type: 'DateTime', nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
    attempts: t.relation('attempts', { query: { orderBy: { number: 'asc' } }, description: 'Every attempt, first first.' }),
  }),
});

const WebhookSubscriptionList = builder.objectRef<Awaited<ReturnType<typeof listWebhooks>>>('WebhookSubscriptionList').implement({
  fields: (t) => ({ webhooks: t.field({ type: [WebhookSubscription], resolve: (list) => list.webhooks }) }),
});

const WebhookDeliveryList = pageType('WebhookDeliveryList', WebhookDelivery);

const scope = { permission: 'webhooks' } as const;

builder.queryFields((t) => ({
  webhookEventTypes: t.stringList({
    description: 'The event types a subscription can name in its `events`, so that a client offers each of them.',
    authScopes: scope,
    resolve: () => [...EVENT_TYPES],
  }),
  webhooks: t.field({
    type: WebhookSubscriptionList,
    description: 'Every webhook subscription of the workspace, oldest first.',
    authScopes: scope,
    resolve: (_root, _args, ctx, info) => listWebhooks(ctx, queryFromInfo({ context: ctx, info, path: ['webhooks'] })),
  }),
  webhook: t.prismaField({
    type: WebhookSubscription,
    description: 'One webhook subscription.',
    authScopes: scope,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getWebhook(ctx, { id: String(args.id) }, query),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryList,
    description: 'Deliveries of one subscription with their attempts, newest first. `cursor` is the id of the last delivery seen.',
    authScopes: scope,
    args: {
      subscription_id: t.arg.id({ required: true }),
      limit: limitArg(t.arg, 20),
      cursor: t.arg.id({ required: false }),
      status: t.arg.string({ required: false, ...oneOf(DELIVERY_STATUSES) }),
    },
    resolve: (_root, args, ctx, info) =>
      listWebhookDeliveries(
        ctx,
        { ...args, subscription_id: String(args.subscription_id), cursor: args.cursor?.toString() },
        queryFromInfo({ context: ctx, info, path: ['data'] }),
      ),
  }),
  webhookDelivery: t.prismaField({
    type: WebhookDelivery,
    description: 'One delivery with its attempts.',
    authScopes: scope,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getWebhookDelivery(ctx, { id: String(args.id) }, query),
  }),
}));

builder.mutationFields((t) => ({
  webhookCreate: t.prismaField({
    type: WebhookSubscriptionWithSecret,
    description: 'Subscribes an https URL to event types. The response holds the signing secret, shown this once.',
    authScopes: scope,
    args: {
      url: t.arg.string({ required: true, ...URI, description: 'An https URL on a public address.' }),
      events: t.arg.stringList({ required: true, description: 'message.received and/or message.status.' }),
    },
    resolve: (query, _root, args, ctx) => createWebhook(ctx, args, query),
  }),
  webhookUpdate: t.prismaField({
    type: WebhookSubscription,
    description: 'Changes the URL, the event types or whether the subscription is active; active: true re-enables a disabled one.',
    authScopes: scope,
    args: {
      id: t.arg.id({ required: true }),
      url: t.arg.string({ required: false, ...URI }),
      events: t.arg.stringList({ required: false }),
      active: t.arg.boolean({ required: false }),
    },
    resolve: (query, _root, args, ctx) => updateWebhook(ctx, { ...args, id: String(args.id) }, query),
  }),
  webhookDelete: t.prismaField({
    type: WebhookSubscription,
    description: 'Deletes the subscription with its deliveries; returns it as it was.',
    authScopes: scope,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => deleteWebhook(ctx, { id: String(args.id) }, query),
  }),
  webhookRotateSecret: t.prismaField({
    type: WebhookSubscriptionWithSecret,
    description: 'Replaces the signing secret; attempts that start afterwards are signed with the new one.',
    authScopes: scope,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => rotateWebhookSecret(ctx, { id: String(args.id) }, query),
  }),
  webhookTest: t.prismaField({
    type: WebhookDelivery,
    description: 'Sends a webhook.test event to this subscription only, attempted once; returns its delivery.',
    authScopes: scope,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => sendTestEvent(ctx, { id: String(args.id) }, query),
  }),
  webhookRedeliver: t.prismaField({
    type: WebhookDelivery,
    description: 'Gives a failed delivery one more attempt, now, with the same delivery id and body.',
    authScopes: scope,
    args: { id: t.arg.id({ required: true, description: 'The delivery id.' }) },
    resolve: (query, _root, args, ctx) => redeliverWebhook(ctx, { id: String(args.id) }, query),
  }),
}));

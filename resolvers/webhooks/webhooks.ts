// Webhook subscriptions of the caller's workspace and their delivery log: create (the signing secret is
// shown then and on rotation only), read, update, delete, rotate the secret, send a test event, list
// deliveries with their attempts, and redeliver a failed delivery. Delivery itself is workers/webhooks/worker.ts.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { EVENT_TYPES, EVENT_ID_PREFIX, TEST_EVENT_TYPE, recordEvent } from '../shared/outbox.js';
import { randomToken } from '../../infra/crypto/tokens.js';
import { type Context, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { columnPage } from '../shared/pagination.js';
import { idInput, limit, parseInput, uuid } from '../shared/validation.js';

type SubscriptionQuery = { select?: Prisma.WebhookSubscriptionSelect; include?: Prisma.WebhookSubscriptionInclude };
type DeliveryQuery = { select?: Prisma.WebhookDeliverySelect; include?: Prisma.WebhookDeliveryInclude };

const SECRET_PREFIX = 'whsec_';
const MAX_URL_LENGTH = 2048;
export const DELIVERY_STATUSES = ['pending', 'held', 'succeeded', 'failed'] as const;

const url = z
  .string({ message: 'is required' })
  .trim()
  .max(MAX_URL_LENGTH, { message: `must be at most ${MAX_URL_LENGTH} characters` })
  .superRefine((value, context) => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      context.addIssue({ code: 'custom', message: 'must be an absolute https URL' });
      return;
    }
    if (parsed.protocol !== 'https:') context.addIssue({ code: 'custom', message: 'must be an https URL' });
    else if (parsed.username || parsed.password) context.addIssue({ code: 'custom', message: 'must not contain credentials' });
  });

const events = z
  .array(z.enum(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(', ')}` }), { message: 'must be a list of event types' })
  .min(1, { message: 'must name at least one event type' })
  .transform((list) => [...new Set(list)]);

const createInput = z.object({ url, events });
const updateInput = z.object({ id: uuid, url: url.nullish(), events: events.nullish(), active: z.boolean().nullish() });
const deliveriesInput = z.object({
  subscription_id: uuid,
  limit: limit(20),
  cursor: uuid.nullish(),
  status: z.enum(DELIVERY_STATUSES, { message: `must be one of ${DELIVERY_STATUSES.join(', ')}` }).nullish(),
});

/** What transports pass in, before validation. */
type RawCreateInput = { url: string; events: string[] };
type RawUpdateInput = { id: string; url?: string | null; events?: string[] | null; active?: boolean | null };
type RawDeliveriesInput = { subscription_id: string; limit?: number | null; cursor?: string | null; status?: string | null };

/** The SSRF guard's verdict on a URL, as a validation error. */
async function assertAllowedTarget(ctx: Context, target: string) {
  const refusal = await ctx.webhookTargets.refusal(target);
  if (refusal) throw new DomainError('VALIDATION_ERROR', 'Invalid url', { url: refusal });
}

async function ownedSubscription(ctx: Context, id: string, query: SubscriptionQuery = {}) {
  const { workspaceId } = requireActor(ctx);
  const subscription = await ctx.prisma.webhookSubscription.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!subscription) throw notFound('Webhook subscription');
  return subscription;
}

function assertActive(subscription: { active: boolean }, action: string) {
  if (!subscription.active) {
    throw new DomainError('INVALID_TRANSITION', `The webhook subscription is inactive; set active to true before ${action}`);
  }
}

function newSecret(): string {
  return `${SECRET_PREFIX}${randomToken(32)}`;
}

export async function listWebhooks(ctx: Context, query: SubscriptionQuery = {}) {
  const { workspaceId } = requireActor(ctx);
  const webhooks = await ctx.prisma.webhookSubscription.findMany({ ...query, where: { company_id: workspaceId }, orderBy: { id: 'asc' } });
  return { webhooks };
}

export async function getWebhook(ctx: Context, input: { id: string }, query: SubscriptionQuery = {}) {
  const { id } = parseInput(idInput, input);
  return ownedSubscription(ctx, id, query);
}

export async function createWebhook(ctx: Context, input: RawCreateInput, query: SubscriptionQuery = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(createInput, input);
  await assertAllowedTarget(ctx, args.url);
  return ctx.prisma.webhookSubscription.create({
    ...query,
    data: { company_id: workspaceId, url: args.url, events: args.events, secret: ctx.secrets.seal(newSecret()) },
  });
}

export async function updateWebhook(ctx: Context, input: RawUpdateInput, query: SubscriptionQuery = {}) {
  const args = parseInput(updateInput, input);
  const current = await ownedSubscription(ctx, args.id);
  if (args.url && args.url !== current.url) await assertAllowedTarget(ctx, args.url);
  const reenabled = args.active === true && !current.active;
  const deactivated = args.active === false && current.active;
  const activation: Prisma.WebhookSubscriptionUpdateInput = reenabled
    ? { active: true, failing_since: null, disabled_reason: null, disabled_at: null }
    : deactivated
      ? { active: false, disabled_reason: 'manual', disabled_at: new Date() }
      : {};
  return ctx.prisma.$transaction(async (tx) => {
    // Deliveries set aside while the subscription was inactive are attempted again, now.
    if (reenabled) {
      await tx.webhookDelivery.updateMany({
        where: { subscription_id: args.id, status: 'held' },
        data: { status: 'pending', next_attempt_at: new Date() },
      });
    }
    return tx.webhookSubscription.update({
      ...query,
      where: { id: args.id },
      data: { ...(args.url ? { url: args.url } : {}), ...(args.events ? { events: args.events } : {}), ...activation },
    });
  });
}

export async function deleteWebhook(ctx: Context, input: { id: string }, query: SubscriptionQuery = {}) {
  const { id } = parseInput(idInput, input);
  await ownedSubscription(ctx, id);
  return ctx.prisma.webhookSubscription.delete({ ...query, where: { id } });
}

export async function rotateWebhookSecret(ctx: Context, input: { id: string }, query: SubscriptionQuery = {}) {
  const { id } = parseInput(idInput, input);
  await ownedSubscription(ctx, id);
  return ctx.prisma.webhookSubscription.update({ ...query, where: { id }, data: { secret: ctx.secrets.seal(newSecret()) } });
}

/** The data of a webhook.test event (docs/webhooks/webhook.test.schema.json). */
export type TestEventData = { subscription_id: string; note: string };

/** Records a webhook.test event and its one delivery, attempted once, to this subscription only. */
export async function sendTestEvent(ctx: Context, input: { id: string }, query: DeliveryQuery = {}) {
  const { id } = parseInput(idInput, input);
  const subscription = await ownedSubscription(ctx, id);
  assertActive(subscription, 'sending a test event');
  return ctx.prisma.$transaction(async (tx) => {
    const envelope = await recordEvent<TestEventData>(tx, {
      workspaceId: subscription.company_id,
      type: TEST_EVENT_TYPE,
      data: { subscription_id: subscription.id, note: 'A test event sent on request; receivers may ignore it.' },
    });
    return tx.webhookDelivery.create({
      ...query,
      data: {
        company_id: subscription.company_id,
        subscription_id: subscription.id,
        event_id: envelope.id.slice(EVENT_ID_PREFIX.length),
        event_type: TEST_EVENT_TYPE,
        max_attempts: 1,
      },
    });
  });
}

export async function listWebhookDeliveries(ctx: Context, input: RawDeliveriesInput, query: DeliveryQuery = {}) {
  const args = parseInput(deliveriesInput, input);
  const subscription = await ownedSubscription(ctx, args.subscription_id);
  return columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    ctx.prisma.webhookDelivery.findMany({
      ...query,
      where: { subscription_id: subscription.id, ...(args.status ? { status: args.status } : {}), ...after },
      orderBy,
      take,
    }),
  );
}

async function ownedDelivery(ctx: Context, id: string) {
  const { workspaceId } = requireActor(ctx);
  const delivery = await ctx.prisma.webhookDelivery.findFirst({
    where: { id, company_id: workspaceId },
    include: { subscription: { select: { active: true } } },
  });
  if (!delivery) throw notFound('Webhook delivery');
  return delivery;
}

export async function getWebhookDelivery(ctx: Context, input: { id: string }, query: DeliveryQuery = {}) {
  const { id } = parseInput(idInput, input);
  const { workspaceId } = requireActor(ctx);
  const delivery = await ctx.prisma.webhookDelivery.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!delivery) throw notFound('Webhook delivery');
  return delivery;
}

/** A failed delivery gets one more attempt, now: same delivery id, same event bytes, signed with the current secret. */
export async function redeliverWebhook(ctx: Context, input: { id: string }, query: DeliveryQuery = {}) {
  const { id } = parseInput(idInput, input);
  const delivery = await ownedDelivery(ctx, id);
  if (delivery.status !== 'failed') {
    throw new DomainError('INVALID_TRANSITION', `Only a failed delivery can be redelivered; this one is ${delivery.status}`);
  }
  assertActive(delivery.subscription, 'redelivering');
  const { count } = await ctx.prisma.webhookDelivery.updateMany({
    where: { id, status: 'failed', attempt_count: delivery.attempt_count },
    data: { status: 'pending', max_attempts: delivery.attempt_count + 1, next_attempt_at: new Date() },
  });
  if (count === 0) throw new DomainError('CONFLICT', 'The delivery changed meanwhile; read it again');
  return ctx.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id } });
}

/** The envelope's event id of a delivery. */
export function envelopeEventId(delivery: { event_id: string }): string {
  return `${EVENT_ID_PREFIX}${delivery.event_id}`;
}

/** The plain signing secret, for the responses that show it (creation and rotation). */
export function revealSecret(ctx: Context, subscription: { secret: string }): string {
  return ctx.secrets.open(subscription.secret);
}

// Recording domain events. Call recordEvent with the transaction client of the change that caused the
// event, so the event exists if and only if the change committed (transactional outbox). Webhook delivery
// (webhooks/) reads the outbox and fans each event out to the workspace's subscriptions.
import { v7 as uuidv7 } from 'uuid';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db } from './context.js';

/** The event types a webhook subscription can name; the event feed and live updates carry them too. */
export const EVENT_TYPES = [
  'message.received',
  'message.status',
  'message.created',
  'conversation.updated',
  'conversation.handoff',
  'contact.consent',
  'contact.created',
  'tag.added',
  'template.status',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent to one subscription on request (webhookTest); not subscribable, so fan-out never matches it. */
export const TEST_EVENT_TYPE = 'webhook.test';
export type RecordedEventType = EventType | typeof TEST_EVENT_TYPE;

/** The event types automations' triggers follow (resolvers/automations/run.ts names the triggers of each). */
export const AUTOMATION_EVENT_TYPES = ['message.received', 'conversation.updated', 'contact.created', 'tag.added'] as const;
export type AutomationEventType = (typeof AUTOMATION_EVENT_TYPES)[number];
const followedByAutomations = (type: RecordedEventType) => (AUTOMATION_EVENT_TYPES as readonly string[]).includes(type);

/**
 * The values of an event's `dispatched_at` and `automations_done_at` as it is recorded: already dispatched when no
 * active subscription of its workspace names its type (the fan-out would find no receiver for it), already done for
 * automations when no trigger follows its type. Most events (delivery statuses, sends) need neither, and each flag
 * set later would be one more write of the row and of every index of the table. A subscription that commits after
 * the recording statement began gets the events recorded after it, not this one (docs/api-decisions.md).
 */
export function outboxFlags(workspaceId: string, type: RecordedEventType): Prisma.Sql {
  return Prisma.sql`
    CASE WHEN EXISTS (SELECT 1 FROM webhook_subscriptions subscription
                      WHERE subscription.company_id = ${workspaceId}::uuid AND subscription.active AND ${type}::text = ANY(subscription.events))
      THEN NULL ELSE now() END,
    ${followedByAutomations(type) ? Prisma.sql`NULL` : Prisma.sql`now()`}`;
}

/** Event ids are `evt_<uuid>`; the events table keeps the uuid. */
export const EVENT_ID_PREFIX = 'evt_';

export type EventEnvelope<Data> = { id: string; type: RecordedEventType; created_at: string; data: Data };

/**
 * A new event's id (a UUIDv7 of its time, without the prefix) and time: the time the id holds, so that the events of
 * this process are in the order they were made even within one millisecond (the feed's order is the ids').
 */
export function newEvent(): { id: string; createdAt: Date } {
  const id = uuidv7();
  return { id, createdAt: new Date(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)) };
}

export async function recordEvent<Data>(
  db: Db,
  event: { workspaceId: string; type: RecordedEventType; data: Data },
): Promise<EventEnvelope<Data>> {
  const { id, createdAt } = newEvent();
  const envelope: EventEnvelope<Data> = {
    id: `${EVENT_ID_PREFIX}${id}`,
    type: event.type,
    created_at: createdAt.toISOString(),
    data: event.data,
  };
  await db.$executeRaw`
    INSERT INTO events (id, company_id, type, body, created_at, dispatched_at, automations_done_at)
    VALUES (${id}::uuid, ${event.workspaceId}::uuid, ${event.type}, ${JSON.stringify(envelope)}, ${createdAt}::timestamptz,
            ${outboxFlags(event.workspaceId, event.type)})`;
  return envelope;
}

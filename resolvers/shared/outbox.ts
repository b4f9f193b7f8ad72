// Recording domain events. Call recordEvent with the transaction client of the change that caused the
// event, so the event exists if and only if the change committed (transactional outbox). Webhook delivery
// (webhooks/) reads the outbox and fans each event out to the workspace's subscriptions.
import { v7 as uuidv7 } from 'uuid';
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
  await db.event.create({
    data: {
      id: envelope.id.slice(EVENT_ID_PREFIX.length),
      company_id: event.workspaceId,
      type: event.type,
      body: JSON.stringify(envelope),
      created_at: createdAt,
    },
  });
  return envelope;
}

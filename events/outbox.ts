// Recording domain events. Call recordEvent with the transaction client of the change that caused the
// event, so the event exists if and only if the change committed (transactional outbox). Webhook delivery
// (webhooks/) reads the outbox and fans each event out to the workspace's subscriptions.
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../resolvers/context.js';

export const EVENT_TYPES = ['message.received', 'message.status'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type EventEnvelope<Data> = { id: string; type: EventType; created_at: string; data: Data };

export async function recordEvent<Data>(
  db: Db,
  event: { workspaceId: string; type: EventType; data: Data },
): Promise<EventEnvelope<Data>> {
  const createdAt = new Date();
  const envelope: EventEnvelope<Data> = {
    id: `evt_${uuidv7({ msecs: createdAt.getTime() })}`,
    type: event.type,
    created_at: createdAt.toISOString(),
    data: event.data,
  };
  await db.event.create({
    data: {
      id: envelope.id.slice('evt_'.length),
      company_id: event.workspaceId,
      type: event.type,
      body: JSON.stringify(envelope),
      created_at: createdAt,
    },
  });
  return envelope;
}

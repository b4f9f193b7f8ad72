// Records message.created, message.received and message.status in the outbox, inside the transaction of the
// change, with the one data shape {message, conversation, contact} (resolvers/shared/views.ts). A write of a message
// records its event in its own statement, the envelope built by SQL from each part's view columns
// (recordingMessageEvent); a message written otherwise is read back with those columns (recordMessageEvent).
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { EVENT_ID_PREFIX, newEvent, outboxFlags, recordEvent, type EventType } from '../shared/outbox.js';
import type { Db } from '../shared/context.js';
import { contactViewSelect, conversationViewSelect, messageViewSelect, type MessageEventData } from '../shared/views.js';

/** Records the event of a message already written in this transaction, reading it with its conversation and contact. */
export async function recordMessageEvent(tx: Db, workspaceId: string, type: EventType, messageId: string): Promise<MessageEventData> {
  const [row] = await tx.$queryRaw<Record<string, unknown>[]>`
    SELECT ${MESSAGE_EVENT_COLUMNS} FROM messages message ${WITH_CONVERSATION_AND_CONTACT} WHERE message.id = ${messageId}::uuid`;
  const data = eventDataOfRow(row!);
  await recordEvent(tx, { workspaceId, type, data });
  return data;
}

/** Joins the rows named `message` with their conversation and contact, as MESSAGE_EVENT_COLUMNS reads them. */
const WITH_CONVERSATION_AND_CONTACT = Prisma.sql`
  JOIN conversations conversation ON conversation.id = message.conversation_id
  JOIN customers contact ON contact.id = conversation.customer_id`;

/** The event's three parts: the view columns each takes from its table. */
const EVENT_PARTS = { message: messageViewSelect, conversation: conversationViewSelect, contact: contactViewSelect };

/**
 * The columns of a message's event data, for a statement that reads `message` joined with its conversation as
 * `conversation` and its contact as `contact`: each part's view columns as "part.column", read back by
 * eventDataOfRow.
 */
export const MESSAGE_EVENT_COLUMNS = Prisma.raw(
  Object.entries(EVENT_PARTS)
    .flatMap(([part, select]) => Object.keys(select).map((column) => `${part}.${column} AS "${part}.${column}"`))
    .join(', '),
);

/** The message's view columns of the rows of `viewed` (recordingMessageEvent): what a write answers of what it wrote. */
export const VIEWED_MESSAGE = Prisma.raw(Object.keys(messageViewSelect).join(', '));

/** The event data of a row read with MESSAGE_EVENT_COLUMNS. */
export function eventDataOfRow(row: Record<string, unknown>): MessageEventData {
  const part = (name: keyof typeof EVENT_PARTS) =>
    Object.fromEntries(Object.keys(EVENT_PARTS[name]).map((column) => [column, row[`${name}.${column}`]]));
  return { message: part('message'), conversation: part('conversation'), contact: part('contact') } as MessageEventData;
}

/** A timestamp as JSON.stringify writes a Date (the schema's timestamps are the columns named `…_at`). */
const ISO_TIMESTAMP = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const isoTimestamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO_TIMESTAMP})`;

/** The event data's JSON object, built by SQL from the columns of its three parts; the same for every event. */
const EVENT_DATA_JSON = Prisma.raw(
  `json_build_object(${Object.entries(EVENT_PARTS)
    .map(([part, select]) => {
      const fields = Object.keys(select).map((column) => {
        const value = `${part}.${column}`;
        return `'${column}', ${column.endsWith('_at') ? isoTimestamp(value) : value}`;
      });
      return `'${part}', json_build_object(${fields.join(', ')})`;
    })
    .join(', ')})`,
);

/** The id and time of the event a row of `message` records, as SQL: one new event's values, or columns of the row. */
export type EventOfRow = { id: Prisma.Sql; createdAt: Prisma.Sql };

/** One new event, for a statement that writes one message. */
export function oneNewEvent(): EventOfRow {
  const event = newEvent();
  return { id: Prisma.sql`${event.id}::uuid`, createdAt: Prisma.sql`${event.createdAt}::timestamptz` };
}

/** Each row's own event, from the `event_id` and `event_at` columns of a statement that writes several messages. */
export const EVENT_OF_EACH_ROW: EventOfRow = { id: Prisma.sql`message.event_id`, createdAt: Prisma.sql`message.event_at` };

/**
 * The text of the event envelope {id, type, created_at, data} that recordEvent would write for the message event
 * data of the row read with MESSAGE_EVENT_COLUMNS' aliases, built by SQL so that a write records its event in the
 * same statement: the same JSON (test/messaging/eventSql.test.ts compares the two).
 */
export function messageEventEnvelope(type: EventType, event: EventOfRow): Prisma.Sql {
  return Prisma.sql`json_build_object('id', ${EVENT_ID_PREFIX}::text || (${event.id})::text, 'type', ${type}::text,
    'created_at', to_char((${event.createdAt}) AT TIME ZONE 'UTC', ${Prisma.raw(ISO_TIMESTAMP)}), 'data', ${EVENT_DATA_JSON})::text`;
}

/**
 * The CTEs that record the events of the rows of a CTE named `message` (rows a write returned): `viewed`, each row
 * with its event's envelope (built from its conversation and contact), and `recorded`, the events themselves.
 * A write followed by them and a SELECT from `viewed` (VIEWED_MESSAGE: the message's view) records its events in its
 * own statement, atomically. A statement that writes several messages gives each row its own event (EVENT_OF_EACH_ROW).
 */
export function recordingMessageEvent(workspaceId: string, type: EventType, event: EventOfRow = oneNewEvent()): Prisma.Sql {
  return Prisma.sql`
    viewed AS (
      SELECT message.*, ${messageEventEnvelope(type, event)} AS envelope
      FROM message ${WITH_CONVERSATION_AND_CONTACT}),
    recorded AS (
      INSERT INTO events (id, company_id, type, body, created_at, dispatched_at, automations_done_at)
      SELECT ${event.id}, ${workspaceId}::uuid, ${type}, envelope, ${event.createdAt}, ${outboxFlags(workspaceId, type)} FROM viewed message)`;
}

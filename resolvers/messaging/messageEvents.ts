// Records message.created, message.received and message.status in the outbox, inside the transaction of the
// change, with the one data shape {message, conversation, contact} (resolvers/shared/views.ts). The data is read
// by SQL that names each part's view columns (MESSAGE_EVENT_COLUMNS), so that a write can return it itself.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { recordEvent, type EventType } from '../shared/outbox.js';
import type { Db } from '../shared/context.js';
import { contactViewSelect, conversationViewSelect, messageViewSelect, type MessageEventData } from '../shared/views.js';

/** Records the event of a message already written in this transaction, reading it with its conversation and contact. */
export async function recordMessageEvent(tx: Db, workspaceId: string, type: EventType, messageId: string): Promise<MessageEventData> {
  const [row] = await tx.$queryRaw<Record<string, unknown>[]>`
    SELECT ${MESSAGE_EVENT_COLUMNS} FROM messages message
    JOIN conversations conversation ON conversation.id = message.conversation_id
    JOIN customers contact ON contact.id = conversation.customer_id
    WHERE message.id = ${messageId}::uuid`;
  const data = eventDataOfRow(row!);
  await recordEvent(tx, { workspaceId, type, data });
  return data;
}

/** The event's three parts: the view columns each takes from its table. */
const EVENT_PARTS = { message: messageViewSelect, conversation: conversationViewSelect, contact: contactViewSelect };

/**
 * The columns of a message's event data, for a statement that reads `message` (a table alias, or a CTE of
 * changed rows) joined with its conversation as `conversation` and its contact as `contact`: each part's view
 * columns as "part.column", read back by eventDataOfRow. A write that returns its rows this way records its event
 * without reading the message again.
 */
export const MESSAGE_EVENT_COLUMNS = Prisma.raw(
  Object.entries(EVENT_PARTS)
    .flatMap(([part, select]) => Object.keys(select).map((column) => `${part}.${column} AS "${part}.${column}"`))
    .join(', '),
);

/** The event data of a row read with MESSAGE_EVENT_COLUMNS. */
export function eventDataOfRow(row: Record<string, unknown>): MessageEventData {
  const part = (name: keyof typeof EVENT_PARTS) =>
    Object.fromEntries(Object.keys(EVENT_PARTS[name]).map((column) => [column, row[`${name}.${column}`]]));
  return { message: part('message'), conversation: part('conversation'), contact: part('contact') } as MessageEventData;
}

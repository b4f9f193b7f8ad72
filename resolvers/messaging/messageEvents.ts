// Records message.received and message.status in the outbox, inside the transaction of the change, with
// the one data shape {message, conversation, contact} (resolvers/shared/views.ts).
import { recordEvent, type EventType } from '../shared/outbox.js';
import type { Db } from '../shared/context.js';
import { messageEventData, messageEventSelect, type MessageEventData, type MessageEventRow } from '../shared/views.js';

export async function recordMessageEvent(tx: Db, workspaceId: string, type: EventType, messageId: string): Promise<MessageEventData> {
  const row = await tx.message.findUniqueOrThrow({ where: { id: messageId }, select: messageEventSelect });
  return recordMessageEventOf(tx, workspaceId, type, row);
}

/** The same for a message already read with messageEventSelect (e.g. by the write that created it). */
export async function recordMessageEventOf(tx: Db, workspaceId: string, type: EventType, row: MessageEventRow): Promise<MessageEventData> {
  const data = messageEventData(row);
  await recordEvent(tx, { workspaceId, type, data });
  return data;
}

// Records message.received and message.status in the outbox, inside the transaction of the change, with
// the one data shape {message, conversation, contact} (resolvers/shared/views.ts).
import { recordEvent, type EventType } from '../shared/outbox.js';
import type { Db } from '../shared/context.js';
import { messageEventData, messageEventSelect, type MessageEventData } from '../shared/views.js';

export async function recordMessageEvent(tx: Db, workspaceId: string, type: EventType, messageId: string): Promise<MessageEventData> {
  const row = await tx.message.findUniqueOrThrow({ where: { id: messageId }, select: messageEventSelect });
  const data = messageEventData(row);
  await recordEvent(tx, { workspaceId, type, data });
  return data;
}

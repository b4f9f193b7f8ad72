// Campaign recipients mirror the status of the message sent to them, in the transaction that changes it: the
// send path (resolvers/campaigns/sending.ts) and every later status report (messageStatus.ts) call this.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db } from '../shared/context.js';

/** A recipient with a message follows it forward in the message's own order (messageStatus.ts). */
const RECIPIENT_PROGRESSION = ['sending', 'sent', 'failed', 'delivered', 'read'] as const;

/**
 * The statement that moves the recipients of the messages in `messages` (a relation of message rows aliased `m`:
 * the table filtered, or the rows a status move returned) to their message's status, forward only (sending <
 * sent < failed < delivered < read, the message's own order), stamping the time of each step and a failure's error.
 */
export function followingRecipients(messages: Prisma.Sql): Prisma.Sql {
  const order = [...RECIPIENT_PROGRESSION];
  return Prisma.sql`
    UPDATE campaign_recipients r
    SET status = m.status,
        error_code = CASE WHEN m.status = 'failed' THEN m.error_code ELSE r.error_code END,
        error_message = CASE WHEN m.status = 'failed' THEN m.error_title ELSE r.error_message END,
        sent_at = CASE WHEN m.status IN ('sent', 'delivered', 'read') THEN COALESCE(r.sent_at, now()) ELSE r.sent_at END,
        delivered_at = CASE WHEN m.status IN ('delivered', 'read') THEN COALESCE(r.delivered_at, now()) ELSE r.delivered_at END,
        read_at = CASE WHEN m.status = 'read' THEN COALESCE(r.read_at, now()) ELSE r.read_at END,
        failed_at = CASE WHEN m.status = 'failed' THEN COALESCE(r.failed_at, now()) ELSE r.failed_at END,
        updated_at = now()
    FROM ${messages} m
    WHERE r.message_id = m.id AND array_position(${order}::text[], r.status) < array_position(${order}::text[], m.status)`;
}

/** Moves the recipients of these messages to their messages' statuses (followingRecipients). */
export async function followMessages(tx: Db, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await tx.$executeRaw(followingRecipients(Prisma.sql`(SELECT * FROM messages WHERE id = ANY(${messageIds}::uuid[]))`));
}

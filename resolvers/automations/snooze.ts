// Snoozed conversations: an automation's set_status {status: "snoozed", until} makes the conversation pending with
// `snoozed_until`; when that time comes the automations worker makes it active again (recording
// conversation.updated like any change). A conversation closed meanwhile stays closed and only loses its snooze.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { changeInTransaction } from '../conversations/changes.js';
import { conversationViewSelect } from '../shared/views.js';

/** Wakes the conversations whose snooze has ended by `now`, at most `limit`; how many it woke. */
export async function wakeSnoozedConversations(prisma: PrismaClient, now: Date, limit = 50): Promise<number> {
  const due = await prisma.conversation.findMany({
    where: { snoozed_until: { lte: now } },
    select: { id: true, company_id: true },
    orderBy: { snoozed_until: 'asc' },
    take: limit,
  });
  for (const conversation of due) {
    await prisma.$transaction((tx) =>
      changeInTransaction(tx, conversation.company_id, conversation.id, async (inner) => {
        // Read under changeInTransaction's row lock: another worker may have woken it already.
        const current = await inner.conversation.findUniqueOrThrow({
          where: { id: conversation.id },
          select: { status: true, snoozed_until: true },
        });
        if (!current.snoozed_until || current.snoozed_until > now) return null;
        return inner.conversation.update({
          where: { id: conversation.id },
          data: { snoozed_until: null, status: current.status === 'pending' ? 'active' : undefined },
          select: conversationViewSelect,
        });
      }),
    );
  }
  return due.length;
}

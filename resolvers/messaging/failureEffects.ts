// What a provider's refusal of a message changes beyond the message, by Meta's code (adapters/providers/errors.ts):
// 131050 (the recipient stopped marketing messages) opts the contact out, source provider, with its contact.consent
// event; 131047 (re-engagement: the window is closed) marks the conversation's window closed until the contact writes
// again. Applied when a send is refused (outbound.ts) and when a status report says a message failed (messageStatus.ts).
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { META_ERRORS } from '../../adapters/providers/errors.js';
import { changeConsent } from '../contacts/consent.js';

const EFFECTIVE_CODES: ReadonlySet<string> = new Set([META_ERRORS.marketingOptedOut, META_ERRORS.windowClosed]);

export async function applyFailureEffects(
  prisma: PrismaClient,
  workspaceId: string,
  messageId: string,
  code: string | null,
): Promise<void> {
  if (code === null || !EFFECTIVE_CODES.has(code)) return;
  await prisma.$transaction(async (tx) => {
    const message = await tx.message.findFirst({
      where: { id: messageId, company_id: workspaceId },
      select: { conversation_id: true, conversation: { select: { customer_id: true } } },
    });
    if (!message) return;
    if (code === META_ERRORS.windowClosed) {
      await tx.conversation.update({ where: { id: message.conversation_id }, data: { window_closed_at: new Date() } });
      return;
    }
    await changeConsent(tx, {
      workspaceId,
      contactId: message.conversation.customer_id,
      status: 'opted_out',
      source: 'provider',
      messageId,
    });
  });
}

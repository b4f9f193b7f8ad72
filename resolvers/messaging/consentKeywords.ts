// A contact's consent keyword: an inbound message whose whole text, trimmed and upper-cased, is one of the
// workspace's opt-out keywords (STOP, UNSUBSCRIBE, PARAR, BAJA by default) opts its contact out of marketing, one of
// its opt-in keywords (START, SUBSCRIBE) opts it back in, source keyword, with contact.consent, in the inbound
// message's own transaction. The workspace's confirmation text, when set, is sent back once the message is
// committed, within the window the message just opened (sender type `consent`, id the keyword's message).
import type { Context, Db } from '../shared/context.js';
import { changeConsent, type ConsentStatus } from '../contacts/consent.js';
import { connectedIntegrationOf, providerIntegration } from '../workspace/integrations.js';
import { dispatchMessage, messagingAddress, recordPendingMessage } from './outbound.js';

/** A confirmation to send once the keyword's message is committed. */
export type Confirmation = { conversationId: string; messageId: string; text: string };

type KeywordMessage = { workspaceId: string; contactId: string; conversationId: string; messageId: string; type: string; body: string };

/** Applies the message's keyword, if its whole text is one; returns the confirmation to send, if the workspace set one. */
export async function applyConsentKeyword(tx: Db, message: KeywordMessage): Promise<Confirmation | null> {
  if (message.type !== 'text') return null;
  const word = message.body.trim().toUpperCase();
  if (word === '' || word.length > 64) return null;
  const settings = await tx.workspace.findUniqueOrThrow({
    where: { id: message.workspaceId },
    select: { opt_out_keywords: true, opt_in_keywords: true, opt_out_confirmation: true, opt_in_confirmation: true },
  });
  const status: ConsentStatus | null = settings.opt_out_keywords.includes(word)
    ? 'opted_out'
    : settings.opt_in_keywords.includes(word)
      ? 'opted_in'
      : null;
  if (!status) return null;
  const { workspaceId, contactId, messageId, conversationId } = message;
  await changeConsent(tx, { workspaceId, contactId, status, source: 'keyword', messageId });
  const text = status === 'opted_out' ? settings.opt_out_confirmation : settings.opt_in_confirmation;
  return text ? { conversationId, messageId, text } : null;
}

/** Sends the confirmation through the one outbound path; a provider's refusal is recorded on the message, as any send's. */
export async function sendConfirmation(ctx: Context, workspaceId: string, confirmation: Confirmation): Promise<void> {
  const conversation = await ctx.prisma.conversation.findFirst({
    where: { id: confirmation.conversationId, company_id: workspaceId },
    select: { integration: true, customer: { select: { wa_id: true, phone_number: true, bsuid: true } } },
  });
  const to = conversation ? messagingAddress(conversation.customer) : null;
  if (!conversation || !to) return;
  const integration = connectedIntegrationOf(conversation.integration, workspaceId);
  const send = {
    workspaceId,
    sender: { type: 'consent' as const, id: confirmation.messageId },
    conversationId: confirmation.conversationId,
    provider: ctx.messaging.for(providerIntegration(ctx.secrets, integration)),
    to,
    content: { type: 'text' as const, body: confirmation.text },
    body: confirmation.text,
    template: null,
  };
  await dispatchMessage(ctx, send, await recordPendingMessage(ctx.prisma, send));
}

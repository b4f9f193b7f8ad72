// The checks every send on a conversation passes, whoever sends it (a request's send in messages.ts, an automation's
// reply or template in resolvers/automations/actions.ts): the conversation is the workspace's and not closed, its
// contact has an address, its integration is connected; and, for a free-form message, the 24-hour window is open.
import type { Db, Services } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { connectedIntegrationOf, providerIntegration } from '../workspace/integrations.js';
import type { MessagingProvider, Recipient } from '../../adapters/providers/types.js';
import { messagingAddress } from './outbound.js';
import { messagingWindow, type WindowTimes } from './window.js';

export type SendableConversation = {
  id: string;
  window: WindowTimes;
  contact: { id: string; marketing_consent_status: string };
  provider: MessagingProvider;
  to: Recipient;
};

/** The conversation a send goes on: the workspace's, not closed, its contact reachable, its integration connected. */
export async function sendableConversation(
  db: Db,
  services: Services,
  workspaceId: string,
  conversationId: string,
): Promise<SendableConversation> {
  const conversation = await db.conversation.findFirst({
    where: { id: conversationId, company_id: workspaceId },
    select: {
      id: true,
      status: true,
      last_message_at: true,
      window_closed_at: true,
      integration: true,
      customer: { select: { id: true, wa_id: true, phone_number: true, bsuid: true, marketing_consent_status: true } },
    },
  });
  if (!conversation) throw notFound('Conversation');
  if (conversation.status === 'closed') {
    throw new DomainError('CONVERSATION_CLOSED', 'The conversation is closed; messages cannot be sent on it', {
      conversation_id: conversation.id,
      status: conversation.status,
    });
  }
  const to = messagingAddress(conversation.customer);
  if (!to) {
    throw new DomainError('VALIDATION_ERROR', 'The contact has no messaging address', {
      conversation_id: 'the contact has no wa_id, phone number or business-scoped user id',
    });
  }
  const integration = connectedIntegrationOf(conversation.integration, workspaceId);
  const provider = services.messaging.for(providerIntegration(services.secrets, integration));
  const { last_message_at, window_closed_at } = conversation;
  return { id: conversation.id, window: { last_message_at, window_closed_at }, contact: conversation.customer, provider, to };
}

export function assertWindowOpen(times: WindowTimes, now: number): void {
  const window = messagingWindow(times, now);
  if (window.open) return;
  throw new DomainError(
    'MESSAGING_WINDOW_CLOSED',
    "Free-form messages can only be sent within 24 hours of the contact's last message; send an approved template instead",
    {
      window_closed_at: window.closes_at?.toISOString() ?? null,
      last_inbound_at: times.last_message_at == null ? null : new Date(times.last_message_at).toISOString(),
      reason: 'a template message is required',
    },
  );
}

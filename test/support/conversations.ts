// Conversations for tests. In the service an inbound provider message opens a conversation; tests that are
// not about inbound messages write the conversation and its messages directly, as that path would.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';

export async function seedConversation(
  prisma: PrismaClient,
  workspace: { workspace_id: string; integration_id: string },
  customerId: string,
  options: { status?: string; messages?: string[]; lastMessageAt?: Date } = {},
) {
  const conversation = await prisma.conversation.create({
    data: {
      company_id: workspace.workspace_id,
      customer_id: customerId,
      integration_id: workspace.integration_id,
      provider: 'sandbox',
      status: options.status ?? 'active',
      last_message_at: options.lastMessageAt ?? new Date(),
    },
  });
  for (const body of options.messages ?? []) {
    await prisma.message.create({
      data: {
        company_id: workspace.workspace_id,
        conversation_id: conversation.id,
        direction: 'inbound',
        body,
        status: 'received',
        sender_type: 'contact',
        sender_id: customerId,
        sent_at: new Date(),
      },
    });
  }
  return conversation;
}

// The conversation a message with a contact belongs on: the contact's latest conversation on the integration
// that is not closed, else a new active one. Callers hold the contact's row lock until commit (an inbound
// message updates the contact; a campaign send selects it FOR UPDATE), so concurrent messages of one contact
// open a single conversation.
import type { Integration } from '../../prisma/generated/prisma/client.js';
import type { Db } from '../shared/context.js';

export async function openConversation(tx: Db, workspaceId: string, customerId: string, integration: Pick<Integration, 'id' | 'provider'>) {
  const open = await tx.conversation.findFirst({
    where: { company_id: workspaceId, customer_id: customerId, integration_id: integration.id, status: { not: 'closed' } },
    orderBy: { id: 'desc' },
    select: { id: true },
  });
  if (open) return open;
  return tx.conversation.create({
    data: {
      company_id: workspaceId,
      customer_id: customerId,
      integration_id: integration.id,
      provider: integration.provider,
      status: 'active',
    },
    select: { id: true },
  });
}

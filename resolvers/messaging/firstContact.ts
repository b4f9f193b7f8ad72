// First contact: the conversation a send addressed `to` a phone number or a business-scoped user id goes on,
// for a business that starts the conversation itself ("send the order-confirmation template to
// +15551234567"). The contact is the one holding that identity (a phone number also matches the wa_id of
// its digits), created with it as its primary channel when none does; the conversation is its open one on
// the integration, else a new one. Only a template opens anything: a free-form text needs the contact's
// 24-hour window, which a contact without an open conversation cannot have, so then nothing is written.
import { assertMarketingAllowed } from '../contacts/consent.js';
import { z } from 'zod';
import type { Integration } from '../../prisma/generated/prisma/client.js';
import type { Context, Db } from '../shared/context.js';
import { firstChannels, phoneNumber, bsuid, type Identity } from '../contacts/channels.js';
import { openConversation } from './openConversation.js';
import { recordContactCreated } from '../contacts/contactEvents.js';
import { DomainError } from '../shared/errors.js';

/** An E.164 phone number or a business-scoped user id. */
export const recipientAddress = z.union([phoneNumber, bsuid], {
  message: 'must be an E.164 phone number such as +15551234567 or a business-scoped user id such as US.13491208655302741918',
});

function identitiesOf(to: string, provider: string): { match: Omit<Identity, 'provider'>[]; create: Identity[] } {
  if (!to.startsWith('+')) {
    const type = to.includes('.ENT.') ? 'parent_bsuid' : 'bsuid';
    return { match: [{ type, value: to }], create: [{ type, provider, value: to }] };
  }
  return {
    match: [
      { type: 'phone', value: to },
      { type: 'wa_id', value: to.slice(1) },
    ],
    create: [{ type: 'phone', provider, value: to }],
  };
}

async function findContact(db: Db, workspaceId: string, match: Omit<Identity, 'provider'>[]): Promise<string | null> {
  const holder = await db.contactChannel.findFirst({
    where: { company_id: workspaceId, OR: match },
    orderBy: { customer_id: 'asc' },
    select: { customer_id: true },
  });
  return holder?.customer_id ?? null;
}

/** The contact of a first send to a new address (recording contact.created). */
async function createContact(tx: Db, workspaceId: string, to: string, identities: Identity[]): Promise<string> {
  const { id } = await tx.customer.create({
    data: {
      company_id: workspaceId,
      ...(to.startsWith('+') ? { phone_number: to } : to.includes('.ENT.') ? {} : { bsuid: to }),
      channels: await firstChannels(tx, workspaceId, identities),
    },
    select: { id: true },
  });
  await recordContactCreated(tx, workspaceId, id);
  return id;
}

function windowNeverOpened(to: string): DomainError {
  return new DomainError(
    'MESSAGING_WINDOW_CLOSED',
    `Free-form messages can only be sent within 24 hours of the contact's last message, and ${to} has no open conversation; send an approved template instead`,
    { window_closed_at: null, last_inbound_at: null, reason: 'a template message is required' },
  );
}

const MAX_PASSES = 2;

/**
 * The id of the conversation a send to `to` goes on. With `open` (a template send) the contact and the
 * conversation are created when missing; without it only an open conversation of a known contact is used.
 */
export async function conversationForRecipient(
  ctx: Context,
  workspaceId: string,
  integration: Integration,
  to: string,
  open: boolean,
  category: string | null = null,
): Promise<string> {
  const { match, create } = identitiesOf(to, integration.provider);
  if (!open) {
    const contactId = await findContact(ctx.prisma, workspaceId, match);
    const conversation = contactId
      ? await ctx.prisma.conversation.findFirst({
          where: { company_id: workspaceId, customer_id: contactId, integration_id: integration.id, status: { not: 'closed' } },
          orderBy: { id: 'desc' },
          select: { id: true },
        })
      : null;
    if (!conversation) throw windowNeverOpened(to);
    return conversation.id;
  }
  // Two first sends to one new number race to create its contact: the loser's channel insert violates the
  // unique identity and rolls back, and its second pass finds the winner's contact.
  for (let pass = 1; ; pass++) {
    try {
      return await ctx.prisma.$transaction(async (tx) => {
        const known = await findContact(tx, workspaceId, match);
        if (known) {
          const contact = await tx.customer.findUniqueOrThrow({
            where: { id: known },
            select: { id: true, marketing_consent_status: true },
          });
          assertMarketingAllowed(contact, category);
        }
        // Locks the contact's row as an inbound message does, so that the two open one conversation.
        const contactId = known
          ? (await tx.customer.update({ where: { id: known }, data: {}, select: { id: true } })).id
          : await createContact(tx, workspaceId, to, create);
        return (await openConversation(tx, workspaceId, contactId, integration)).id;
      });
    } catch (error) {
      const lostRace =
        (error as { code?: unknown } | null)?.code === 'P2002' || (error instanceof DomainError && error.code === 'CONFLICT');
      if (!lostRace || pass === MAX_PASSES) throw error;
    }
  }
}

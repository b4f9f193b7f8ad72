// An inbound message from a contact, reported by the provider: upserts the contact (keyed on wa_id, never
// on the phone number alone: the provider may withhold it), finds the contact's open conversation on this
// integration or opens one, stores the message exactly once per provider message id, moves
// last_message_at (the start of the 24-hour window) forward, records message.received, and, when the
// conversation has the AI agent switched on, queues an agent run for the message, all in one transaction:
// the run exists if and only if the message does (workers/agent works it).
import { z } from 'zod';
import type { Context, Db } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { recordMessageEvent } from './messageEvents.js';
import { INBOUND_STATUS } from './messageStatus.js';
import { openConversation } from '../conversations/openConversation.js';
import { adoptReportedIdentities, type Identity } from '../contacts/channels.js';
import type { MessageEventData } from '../shared/views.js';
import { parseInput, uuid } from '../shared/validation.js';
import { enqueueAgentRun } from '../agent/runs.js';

export const MAX_INBOUND_BODY_LENGTH = 65_536;

const inboundInput = z.object({
  integrationId: uuid,
  contact: z.object({
    wa_id: z.string().trim().min(1).max(128),
    profile_name: z.string().trim().max(256).nullish(),
  }),
  message: z.object({
    provider_message_id: z.string().min(1).max(256),
    body: z.string().max(MAX_INBOUND_BODY_LENGTH),
    sent_at: z.date(),
  }),
});

export type InboundMessage = z.input<typeof inboundInput>;

/** A wa_id made of digits is the contact's phone number without the +; other ids (BSUIDs) are not. */
function phoneOf(waId: string): string | null {
  return /^[1-9]\d{6,14}$/.test(waId) ? `+${waId}` : null;
}

/**
 * The id of the contact behind the wa_id, created on its first message. Its wa_id and the phone number it implies become
 * its channels (resolvers/contacts/channels.ts keeps the fields equal to the primary channels), on this
 * integration's provider.
 */
async function upsertContact(tx: Db, workspaceId: string, provider: string, contact: z.infer<typeof inboundInput>['contact']) {
  const profileName = contact.profile_name || null;
  const existing = await tx.customer.findUnique({ where: { company_id_wa_id: { company_id: workspaceId, wa_id: contact.wa_id } } });
  // An UPDATE for a known contact: it locks the contact's row until commit, so concurrent messages of one
  // contact serialize here and open a single conversation. A name set by the team is kept.
  const { id } = existing
    ? await tx.customer.update({
        where: { id: existing.id },
        data: { profile_name: profileName ?? existing.profile_name, name: existing.name ?? profileName },
        select: { id: true },
      })
    : await tx.customer.create({
        data: { company_id: workspaceId, wa_id: contact.wa_id, profile_name: profileName, name: profileName },
        select: { id: true },
      });
  const phone = phoneOf(contact.wa_id);
  const identities: Identity[] = [
    { type: 'wa_id', provider, value: contact.wa_id },
    ...(phone ? [{ type: 'phone' as const, provider, value: phone }] : []),
  ];
  await adoptReportedIdentities(tx, workspaceId, id, identities);
  return id;
}

const MAX_PASSES = 3;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}

async function store(ctx: Context, workspaceId: string, input: z.infer<typeof inboundInput>): Promise<MessageEventData | null> {
  const known = await ctx.prisma.message.findUnique({
    where: { company_id_provider_message_id: { company_id: workspaceId, provider_message_id: input.message.provider_message_id } },
    select: { id: true },
  });
  if (known) return null;
  // The provider's send time, never in the future (clock skew), starts the window.
  const sentAt = new Date(Math.min(input.message.sent_at.getTime(), Date.now()));
  return ctx.prisma.$transaction(async (tx) => {
    const integration = await tx.integration.findFirst({ where: { id: input.integrationId, company_id: workspaceId } });
    if (!integration) throw new DomainError('INTEGRATION_NOT_FOUND', 'No such integration in this workspace');
    const contactId = await upsertContact(tx, workspaceId, integration.provider, input.contact);
    const conversation = await openConversation(tx, workspaceId, contactId, integration);
    const message = await tx.message.create({
      data: {
        company_id: workspaceId,
        conversation_id: conversation.id,
        direction: 'inbound',
        type: 'text',
        body: input.message.body,
        status: INBOUND_STATUS,
        sender_type: 'contact',
        sender_id: contactId,
        sent_at: sentAt,
        provider_message_id: input.message.provider_message_id,
        created_at: sentAt,
      },
      select: { id: true },
    });
    // Only ever forward: a late redelivery of an older message must not shorten the window.
    const later = { OR: [{ last_message_at: null }, { last_message_at: { lt: sentAt } }] };
    await tx.conversation.updateMany({ where: { id: conversation.id, ...later }, data: { last_message_at: sentAt } });
    await tx.customer.updateMany({ where: { id: contactId, ...later }, data: { last_message_at: sentAt } });
    const data = await recordMessageEvent(tx, workspaceId, 'message.received', message.id);
    if (data.conversation.service_enabled)
      await enqueueAgentRun(tx, { workspaceId, conversationId: conversation.id, messageId: message.id });
    return data;
  });
}

/** Stores an inbound message for the actor's workspace; `stored` is false for a message already stored. */
export async function receiveInboundMessage(ctx: Context, raw: InboundMessage): Promise<{ stored: boolean }> {
  const { workspaceId } = requireActor(ctx);
  const input = parseInput(inboundInput, raw);
  // A concurrent delivery of the same message (unique provider message id) or the first message of a new
  // contact (unique wa_id) may win a race; the transaction rolls back and the next pass sees its result.
  // Each race is lost at most once (the contact then exists; the message is then known), so a pass that
  // loses both still leaves a third that succeeds.
  for (let pass = 1; ; pass++) {
    try {
      return { stored: (await store(ctx, workspaceId, input)) !== null };
    } catch (error) {
      if (!isUniqueViolation(error) || pass === MAX_PASSES) throw error;
    }
  }
}

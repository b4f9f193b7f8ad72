// An inbound message from a contact, reported by the provider: finds the contact by any identifier the
// provider sent (its wa_id, its business-scoped user id or the parent one; never the phone number alone,
// which the provider may withhold) or creates it, adopts the identifiers it sent together, finds the contact's open conversation on this
// integration or opens one, stores the message exactly once per provider message id, moves
// last_message_at (the start of the 24-hour window) forward, records message.received, and, when the
// conversation has the AI agent switched on, queues an agent run for the message, and applies a consent keyword
// (consentKeywords.ts), all in one transaction: the run exists if and only if the message does (workers/agent
// works it). A keyword's confirmation is sent after the commit.
import { z } from 'zod';
import type { Context, Db } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { recordMessageEvent } from './messageEvents.js';
import { INBOUND_STATUS } from './messageStatus.js';
import { openConversation } from './openConversation.js';
import { adoptReportedIdentities, claimIdentities, type ChannelType, type Identity } from '../contacts/channels.js';
import { recordContactCreated } from '../contacts/contactEvents.js';
import type { MessageEventData } from '../shared/views.js';
import { parseInput, uuid } from '../shared/validation.js';
import { enqueueAgentRun } from '../agent/runs.js';
import { applyConsentKeyword, sendConfirmation, type Confirmation } from './consentKeywords.js';
import type { Prisma } from '../../prisma/generated/prisma/client.js';

export const MAX_INBOUND_BODY_LENGTH = 65_536;

const reportedContact = z
  .object({
    wa_id: z.string().trim().min(1).max(128).nullable(),
    user_id: z.string().trim().min(1).max(160).nullable(),
    parent_user_id: z.string().trim().min(1).max(160).nullable(),
    username: z.string().trim().max(64).nullable(),
    profile_name: z.string().trim().max(256).nullable(),
  })
  .refine((contact) => contact.wa_id !== null || contact.user_id !== null, { message: 'needs a wa_id or a user_id' });

/** Who wrote, as the provider reports it: a wa_id, a business-scoped user id (user_id), or both. */
export type ReportedContact = z.input<typeof reportedContact>;

/** The file of an inbound media message, as the provider describes it; fetched only when asked for. */
export type InboundMedia = {
  id: string | null;
  mime_type: string | null;
  sha256: string | null;
  filename: string | null;
  caption: string | null;
  size: number | null;
};

/** What an inbound message is beyond who sent it and when: its kind, text, media, structured content
 * (location, contact cards, a reply's id and title, a reaction's emoji) and the provider id of the message it
 * answers or reacts to. */
export type InboundContent = {
  type: string;
  body: string;
  media: InboundMedia | null;
  content: Record<string, unknown> | null;
  reply_to_provider_message_id: string | null;
};

const inboundInput = z.object({
  integrationId: uuid,
  contact: reportedContact,
  message: z.object({
    provider_message_id: z.string().min(1).max(256),
    body: z.string().max(MAX_INBOUND_BODY_LENGTH),
    sent_at: z.date(),
    type: z.string().min(1).max(32).default('text'),
    media: z.custom<InboundMedia>().nullable().default(null),
    content: z.record(z.string(), z.unknown()).nullable().default(null),
    reply_to_provider_message_id: z.string().min(1).max(256).nullable().default(null),
  }),
});

export type InboundMessage = z.input<typeof inboundInput>;

/** A wa_id made of digits is the contact's phone number without the +; other ids are not. */
function phoneOf(waId: string): string | null {
  return /^[1-9]\d{6,14}$/.test(waId) ? `+${waId}` : null;
}

/** What the provider sent about the contact, as channels: the identifiers first, then the phone and username. */
function reportedIdentities(provider: string, contact: z.infer<typeof reportedContact>) {
  const keys: Identity[] = [];
  if (contact.user_id) keys.push({ type: 'bsuid', provider, value: contact.user_id });
  if (contact.parent_user_id) keys.push({ type: 'parent_bsuid', provider, value: contact.parent_user_id });
  if (contact.wa_id) keys.push({ type: 'wa_id', provider, value: contact.wa_id });
  const phone = contact.wa_id ? phoneOf(contact.wa_id) : null;
  const more: Identity[] = [
    ...(phone ? [{ type: 'phone' as const, provider, value: phone }] : []),
    ...(contact.username ? [{ type: 'username' as const, provider, value: contact.username }] : []),
  ];
  return { keys, all: [...keys, ...more] };
}

/** Usernames change: the last one reported replaces the one before. */
const CURRENT_TYPES: readonly ChannelType[] = ['username'];

/**
 * The id of the contact the provider's identifiers name, created on its first message. A contact is found
 * by any identifier (of any provider, as the wa_id column is unique whatever the provider), so a person who
 * first writes with a BSUID alone and later with a phone number too, or the reverse, stays one contact: the
 * identifiers sent together are adopted as its channels. When they name two contacts already (written
 * apart before), the oldest gets the message; they are not merged (see docs/api-decisions.md).
 */
async function upsertContact(tx: Db, workspaceId: string, provider: string, contact: z.infer<typeof reportedContact>) {
  const profileName = contact.profile_name || null;
  const { keys, all } = reportedIdentities(provider, contact);
  const holders = await tx.contactChannel.findMany({
    where: { company_id: workspaceId, OR: keys.map(({ type, value }) => ({ type, value })) },
    select: { customer_id: true },
    orderBy: { customer_id: 'asc' },
  });
  const byColumn = contact.wa_id
    ? await tx.customer.findUnique({ where: { company_id_wa_id: { company_id: workspaceId, wa_id: contact.wa_id } }, select: { id: true } })
    : null;
  const knownId = [...holders.map((holder) => holder.customer_id), ...(byColumn ? [byColumn.id] : [])].sort()[0];
  const existing = knownId ? await tx.customer.findUniqueOrThrow({ where: { id: knownId } }) : null;
  // An UPDATE for a known contact: it locks the contact's row until commit, so concurrent messages of one
  // contact serialize here and open a single conversation. A name set by the team is kept.
  const { id } = existing
    ? await tx.customer.update({
        where: { id: existing.id },
        data: { profile_name: profileName ?? existing.profile_name, name: existing.name ?? profileName },
        select: { id: true },
      })
    : await tx.customer.create({
        data: { company_id: workspaceId, profile_name: profileName, name: profileName },
        select: { id: true },
      });
  if (!existing) await claimIdentities(tx, workspaceId, id, keys);
  await adoptReportedIdentities(tx, workspaceId, id, all, CURRENT_TYPES);
  if (!existing) await recordContactCreated(tx, workspaceId, id);
  return id;
}

const MAX_PASSES = 3;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}

type Stored = { data: MessageEventData; confirmation: Confirmation | null };

async function store(ctx: Context, workspaceId: string, input: z.infer<typeof inboundInput>): Promise<Stored | null> {
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
    const { reply_to_provider_message_id: replyTo } = input.message;
    // The message answered or reacted to, when it is in this workspace (the provider may name one we never saw).
    const answered = replyTo
      ? await tx.message.findUnique({
          where: { company_id_provider_message_id: { company_id: workspaceId, provider_message_id: replyTo } },
          select: { id: true },
        })
      : null;
    const message = await tx.message.create({
      data: {
        company_id: workspaceId,
        conversation_id: conversation.id,
        direction: 'inbound',
        type: input.message.type,
        body: input.message.body,
        media: input.message.media ?? undefined,
        content: (input.message.content as Prisma.InputJsonObject | null) ?? undefined,
        reply_to_message_id: answered?.id ?? null,
        status: INBOUND_STATUS,
        sender_type: 'contact',
        sender_id: contactId,
        sent_at: sentAt,
        provider_message_id: input.message.provider_message_id,
        created_at: sentAt,
      },
      select: { id: true },
    });
    // Only ever forward: a late redelivery of an older message must not shorten the window. The contact's own
    // last_message_at follows by a trigger (migration 0050).
    const later = { OR: [{ last_message_at: null }, { last_message_at: { lt: sentAt } }] };
    await tx.conversation.updateMany({ where: { id: conversation.id, ...later }, data: { last_message_at: sentAt } });
    // The contact wrote again: a window the provider said was closed (131047) is open from this message.
    const notOlder = { OR: [{ last_message_at: null }, { last_message_at: { lte: sentAt } }] };
    await tx.conversation.updateMany({
      where: { id: conversation.id, window_closed_at: { not: null }, ...notOlder },
      data: { window_closed_at: null },
    });
    const data = await recordMessageEvent(tx, workspaceId, 'message.received', message.id);
    if (data.conversation.service_enabled)
      await enqueueAgentRun(tx, { workspaceId, conversationId: conversation.id, messageId: message.id });
    const keyword = { workspaceId, contactId, conversationId: conversation.id, messageId: message.id, type: input.message.type };
    const confirmation = await applyConsentKeyword(tx, { ...keyword, body: input.message.body });
    return { data, confirmation };
  });
}

/** Stores an inbound message for the actor's workspace; `stored` is false for a message already stored. */
export async function receiveInboundMessage(ctx: Context, raw: InboundMessage): Promise<{ stored: boolean }> {
  const { workspaceId } = requireActor(ctx);
  const input = parseInput(inboundInput, raw);
  // A concurrent delivery of the same message (unique provider message id) or the first message of a new
  // contact (its identifiers are unique channels) may win a race; the transaction rolls back and the next pass sees its result.
  // Each race is lost at most once (the contact then exists; the message is then known), so a pass that
  // loses both still leaves a third that succeeds.
  for (let pass = 1; ; pass++) {
    try {
      const stored = await store(ctx, workspaceId, input);
      if (stored?.confirmation) await sendConfirmation(ctx, workspaceId, stored.confirmation);
      return { stored: stored !== null };
    } catch (error) {
      if (!isUniqueViolation(error) || pass === MAX_PASSES) throw error;
    }
  }
}

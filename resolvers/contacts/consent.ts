// A contact's marketing consent: opted_in, opted_out or unknown, with where it came from and when. Set by the
// API or the console (contactConsentSet), by the contact's own keyword (resolvers/messaging/consentKeywords.ts)
// and by the provider (Meta's 131050, resolvers/messaging/failureEffects.ts); every change records contact.consent
// and a consent_changes row (the timeline's history) in its transaction. An opted-out contact gets no MARKETING
// template (assertMarketingAllowed).
import { z } from 'zod';
import type { Context, Db } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { recordEvent } from '../shared/outbox.js';
import { parseInput, uuid } from '../shared/validation.js';
import { contactDetail } from './contacts.js';

export const CONSENT_STATUSES = ['opted_in', 'opted_out', 'unknown'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];
/** Where a consent came from: the contact's keyword, the provider's refusal, or a person through the API or console. */
export const CONSENT_SOURCES = ['keyword', 'provider', 'api', 'console'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];
/** The sources a caller may name; keyword and provider are the service's own. */
export const SETTABLE_CONSENT_SOURCES = ['api', 'console'] as const;

export type MarketingConsent = { status: string; source: string | null; updated_at: string | Date | null };

/** The consent columns of a contact row, as every surface shows them. */
export function marketingConsentOf(row: {
  marketing_consent_status: string;
  marketing_consent_source: string | null;
  marketing_consent_updated_at: string | Date | null;
}): MarketingConsent {
  return { status: row.marketing_consent_status, source: row.marketing_consent_source, updated_at: row.marketing_consent_updated_at };
}

/**
 * Sets the contact's consent and records contact.consent, in the caller's transaction; nothing when the contact
 * already has this status (the source and time of the first say stay). Returns whether it changed.
 */
export async function changeConsent(
  tx: Db,
  change: { workspaceId: string; contactId: string; status: ConsentStatus; source: ConsentSource; messageId?: string | null },
): Promise<boolean> {
  const [before] = await tx.$queryRaw<{ marketing_consent_status: string }[]>`
    SELECT marketing_consent_status FROM customers
    WHERE id = ${change.contactId}::uuid AND company_id = ${change.workspaceId}::uuid FOR UPDATE`;
  if (!before || before.marketing_consent_status === change.status) return false;
  const updated = await tx.customer.update({
    where: { id: change.contactId },
    data: { marketing_consent_status: change.status, marketing_consent_source: change.source, marketing_consent_updated_at: new Date() },
    select: { marketing_consent_status: true, marketing_consent_source: true, marketing_consent_updated_at: true },
  });
  await tx.consentChange.create({
    data: {
      company_id: change.workspaceId,
      contact_id: change.contactId,
      status: change.status,
      previous_status: before.marketing_consent_status,
      source: change.source,
      message_id: change.messageId ?? null,
      created_at: updated.marketing_consent_updated_at ?? new Date(),
    },
  });
  await recordEvent(tx, {
    workspaceId: change.workspaceId,
    type: 'contact.consent',
    data: {
      contact_id: change.contactId,
      marketing_consent: marketingConsentOf(updated),
      previous_status: before.marketing_consent_status,
      message_id: change.messageId ?? null,
    },
  });
  return true;
}

const setInput = z.object({
  id: uuid,
  status: z.enum(CONSENT_STATUSES, { message: `must be one of ${CONSENT_STATUSES.join(', ')}` }),
  source: z.enum(SETTABLE_CONSENT_SOURCES, { message: `must be one of ${SETTABLE_CONSENT_SOURCES.join(', ')}` }).nullish(),
});

/** contactConsentSet: a person records the contact's consent (source api unless the console says console). */
export async function setContactConsent(ctx: Context, raw: { id: string; status: string; source?: string | null }) {
  const { workspaceId } = requireActor(ctx);
  const input = parseInput(setInput, raw);
  await ctx.prisma.$transaction(async (tx) => {
    const found = await tx.customer.findFirst({ where: { id: input.id, company_id: workspaceId }, select: { id: true } });
    if (!found) throw notFound('Customer');
    await changeConsent(tx, { workspaceId, contactId: input.id, status: input.status, source: input.source ?? 'api' });
  });
  const contact = await contactDetail(ctx.sql, workspaceId, input.id);
  if (!contact) throw notFound('Customer');
  return contact;
}

/** Refuses a MARKETING template to a contact who opted out: 409 CONTACT_OPTED_OUT, before anything is sent. */
export function assertMarketingAllowed(contact: { id: string; marketing_consent_status: string }, category: string | null): void {
  if (category !== 'MARKETING' || contact.marketing_consent_status !== 'opted_out') return;
  throw new DomainError('CONTACT_OPTED_OUT', 'The contact opted out of marketing messages; a MARKETING template cannot be sent to it', {
    contact_id: contact.id,
    category,
  });
}

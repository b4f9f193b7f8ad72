// Meta's phone_number_quality_update webhook read into the number's standing (resolvers/workspace/numberStanding.ts).
// It names the business account (entry.id) and the number by its display digits; `event` says what changed:
// UPGRADE, DOWNGRADE, ONBOARDING… carry the messaging-limit tier, as `max_daily_conversations_per_business` (the
// portfolio's limit, Meta's current form) or else the older `current_limit`; THROUGHPUT_UPGRADE raises the
// number to higher throughput (its `current_limit` TIER_UNLIMITED then speaks of throughput, not of the tier);
// FLAGGED means the quality rating fell to low (RED), UNFLAGGED that it is no longer low (UNKNOWN until read).
// Reference: https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/phone_number_quality_update
import { z } from 'zod';
import type { NumberStanding } from '../../adapters/providers/types.js';
import type { Db } from '../shared/context.js';
import { applyNumberStanding } from '../workspace/numberStanding.js';

export const NUMBER_QUALITY_FIELD = 'phone_number_quality_update';

/**
 * A change of a business account's number standing: `standing` for the number it names (`displayPhoneNumber`,
 * digits only), `portfolioTier` for every number of the account (Meta's limit is the business portfolio's).
 */
export type NumberWork = {
  kind: 'number';
  businessAccountId: string;
  displayPhoneNumber: string | null;
  standing: NumberStanding;
  portfolioTier: string | null;
};

const qualityChange = z.object({
  display_phone_number: z.string().max(32).optional(),
  event: z.string().min(1).max(64),
  current_limit: z.string().max(64).optional(),
  old_limit: z.string().max(64).optional(),
  max_daily_conversations_per_business: z.string().max(64).optional(),
});

const QUALITY_OF_EVENT: Record<string, string> = { FLAGGED: 'RED', UNFLAGGED: 'UNKNOWN' };

/** The standing a change tells, or why it is not the documented shape. */
export function readNumberQualityChange(account: string | undefined, value: unknown): NumberWork | string {
  if (!account) return 'entry.id: the business account is required';
  const parsed = qualityChange.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${['value', ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'invalid'}`;
  }
  const change = parsed.data;
  const event = change.event.toUpperCase();
  const throughputUpgrade = event === 'THROUGHPUT_UPGRADE';
  const digits = change.display_phone_number?.replace(/\D/g, '') || null;
  return {
    kind: 'number',
    businessAccountId: account,
    displayPhoneNumber: digits,
    standing: {
      messagingLimitTier: change.max_daily_conversations_per_business ?? (throughputUpgrade ? null : (change.current_limit ?? null)),
      throughputLevel: throughputUpgrade ? 'HIGH' : null,
      qualityRating: QUALITY_OF_EVENT[event] ?? null,
    },
    portfolioTier: change.max_daily_conversations_per_business ?? null,
  };
}

/**
 * Writes a change on the account's connected numbers it concerns: the one whose display number it names, or one
 * whose display number is not recorded (it cannot be told apart). The tier is the portfolio's, so a
 * `max_daily_conversations_per_business` reaches every number of the account.
 */
export async function applyNumberQualityChange(db: Db, accountIntegrationIds: string[], work: NumberWork): Promise<void> {
  if (accountIntegrationIds.length === 0) return;
  const numbers = await db.integration.findMany({
    where: { id: { in: accountIntegrationIds } },
    select: { id: true, display_phone_number: true },
  });
  const named = numbers.filter(
    (number) =>
      !work.displayPhoneNumber ||
      !number.display_phone_number ||
      number.display_phone_number.replace(/\D/g, '') === work.displayPhoneNumber,
  );
  const at = new Date();
  await applyNumberStanding(
    db,
    named.map((number) => number.id),
    work.standing,
    at,
  );
  const others = numbers.filter((number) => !named.includes(number)).map((number) => number.id);
  if (work.portfolioTier !== null) {
    await applyNumberStanding(db, others, { messagingLimitTier: work.portfolioTier, throughputLevel: null, qualityRating: null }, at);
  }
}

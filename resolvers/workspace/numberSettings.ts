// A business number's limits as its integration holds them: its throughput (messages per second, 1 to 1000; Meta's
// default is 80, 1000 for numbers Meta raised) and its messaging-limit tier (unique recipients per rolling 24 h),
// by Meta's names for them. Campaigns keep them (resolvers/campaigns/numberLimits.ts).

export const MESSAGING_LIMIT_TIERS = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
} as const satisfies Record<string, number | null>;
export type MessagingLimitTier = keyof typeof MESSAGING_LIMIT_TIERS;
export const MESSAGING_LIMIT_TIER_NAMES = Object.keys(MESSAGING_LIMIT_TIERS) as MessagingLimitTier[];

export const MAX_THROUGHPUT_PER_SECOND = 1_000;
export function isMessagingLimitTier(value: string): value is MessagingLimitTier {
  return value in MESSAGING_LIMIT_TIERS;
}

/** Unique recipients per rolling 24 h of a tier; null when unlimited or not known. */
export function tierLimit(tier: string | null): number | null {
  return tier && isMessagingLimitTier(tier) ? MESSAGING_LIMIT_TIERS[tier] : null;
}

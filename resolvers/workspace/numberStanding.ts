// A business number's standing as its provider tells it — messaging-limit tier, throughput level, quality rating —
// written on its integration with where it came from and when. The latest to tell wins: a tier or throughput an
// owner or admin set by hand (integrationUpdateLimits, source `manual`) stays until the provider tells again, and
// the provider's until a person sets another. What the provider leaves untold (null, TIER_NOT_SET, a name this
// service does not know) keeps the stored value. The provider tells by Meta's phone_number_quality_update webhook
// (resolvers/messaging/numberQuality.ts) and when the number is read: on connecting it and on request.
import type { Integration } from '../../prisma/generated/prisma/client.js';
import type { NumberStanding } from '../../adapters/providers/types.js';
import { ProviderError } from '../../adapters/providers/errors.js';
import type { Context, Db, Services } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { parseInput, uuid } from '../shared/validation.js';
import { providerFailure } from '../shared/providerFailure.js';
import { isMessagingLimitTier } from './numberSettings.js';
import { providerIntegration } from './integrations.js';

export const QUALITY_RATINGS = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'] as const;
export const LIMIT_SOURCES = ['provider', 'manual'] as const;

/** Meta's throughput levels in messages per second: 80 as standard, up to 1000 for numbers raised to higher throughput. */
const THROUGHPUT_OF_LEVEL: Record<string, number> = { STANDARD: 80, HIGH: 1000 };

/** The columns what the provider told writes; empty when it told nothing this service can keep. */
export function standingColumns(standing: NumberStanding, at: Date) {
  const tier = standing.messagingLimitTier?.toUpperCase();
  const throughput = THROUGHPUT_OF_LEVEL[standing.throughputLevel?.toUpperCase() ?? ''];
  const quality = QUALITY_RATINGS.find((rating) => rating === standing.qualityRating?.toUpperCase());
  return {
    ...(tier && isMessagingLimitTier(tier)
      ? { messaging_limit_tier: tier, messaging_limit_tier_source: 'provider', messaging_limit_tier_updated_at: at }
      : {}),
    ...(throughput ? { throughput_per_second: throughput, throughput_source: 'provider', throughput_updated_at: at } : {}),
    ...(quality ? { quality_rating: quality, quality_rating_updated_at: at } : {}),
  };
}

/** Writes what the provider told on the integrations it concerns. */
export async function applyNumberStanding(db: Db, integrationIds: string[], standing: NumberStanding, at = new Date()): Promise<void> {
  const data = standingColumns(standing, at);
  if (integrationIds.length === 0 || Object.keys(data).length === 0) return;
  await db.integration.updateMany({ where: { id: { in: integrationIds } }, data });
}

/** Reads the number's standing from its provider and writes it; a provider failure is the caller's to handle. */
export async function readNumberStanding(services: Pick<Services, 'prisma' | 'secrets' | 'messaging'>, integration: Integration) {
  const standing = await services.messaging.for(providerIntegration(services.secrets, integration)).readStanding();
  await applyNumberStanding(services.prisma, [integration.id], standing);
}

type Query = { select?: object; include?: object };

/** Reads a number's standing again on request (the console's "read from provider"); 502 PROVIDER_ERROR when it fails. */
export async function refreshIntegrationStanding(ctx: Context, id: string, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const integration = await ctx.prisma.integration.findFirst({ where: { id: parseInput(uuid, id), company_id: workspaceId } });
  if (!integration || integration.status !== 'connected') throw notFound('Integration');
  try {
    await readNumberStanding(ctx, integration);
  } catch (error) {
    throw providerFailure(error);
  }
  return ctx.prisma.integration.findUniqueOrThrow({ ...query, where: { id: integration.id } });
}

/**
 * Reads a just-connected number's standing. A provider that cannot answer now (a token without the
 * whatsapp_business_management permission, the Graph API away) does not undo the connection: the standing stays
 * unknown until its webhook or a refresh tells it, and the refresh says why it failed.
 */
export async function readStandingOnConnect(services: Pick<Services, 'prisma' | 'secrets' | 'messaging'>, integrationId: string) {
  const integration = await services.prisma.integration.findUniqueOrThrow({ where: { id: integrationId } });
  await readNumberStanding(services, integration).catch((error: unknown) => {
    if (!(error instanceof ProviderError)) throw error;
  });
}

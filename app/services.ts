// Builds the services shared by every request and background job (database, secrets, messaging providers),
// wiring the sandbox's delivery reports into the same status path the provider webhook uses. Shared by the
// server, the CLI and the test harness.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { PrismaClient } from '../prisma/generated/prisma/client.js';
import type { SecretBox } from '../infra/crypto/secrets.js';
import type { SqlConnection } from '../infra/db/sql.js';
import { loadSettings, type Settings } from '../infra/config/settings.js';
import { createMessagingProviders, type MessagingSettings } from '../adapters/providers/registry.js';
import type { Services } from '../resolvers/shared/context.js';
import type { TargetGuard } from '../infra/net/targetGuard.js';
import { integrationContext } from '../resolvers/workspace/integrations.js';
import { applyStatusUpdate } from '../resolvers/messaging/messageStatus.js';
import { trackedTemplates } from '../resolvers/templates/tracked.js';
import { createStatusMoves } from '../resolvers/messaging/statusMoves.js';
import { createPublicUrls } from './publicUrls.js';
import { createEventHub, type Listen } from '../resolvers/events/hub.js';
import { createKeyChanges } from '../resolvers/workspace/keyChanges.js';
import { createMediaFiles, type MediaFilesOptions } from '../infra/media/mediaFiles.js';
import { createOutboundClient } from '../infra/net/outbound.js';
import { createClientDocuments } from '../resolvers/oauth/clientDocuments.js';

export type ServiceOptions = {
  prisma: PrismaClient;
  /** The same database's SQL connection (Database.sql). */
  sql: SqlConnection;
  /** Its connection for search statements (Database.searchSql). */
  searchSql: SqlConnection;
  secrets: SecretBox;
  version: string;
  logger: Logger;
  messaging: MessagingSettings;
  webhookTargets: TargetGuard;
  /** Where the public reaches the service (PUBLIC_BASE_URL, else the server's own address), without a trailing slash. */
  publicBaseUrl: string | (() => string);
  /** The database's LISTEN, which feeds live updates (Database.listen). */
  listen: Listen;
  /** Where media files fetched from the provider are kept, and how many bytes of them at most. */
  media: MediaFilesOptions;
  /** OAuth token lifetimes, and extra CA certificates the client metadata documents' hosts may be signed by. */
  oauth?: { accessTokenSeconds: number; refreshTokenSeconds: number; extraCa?: string[] };
};

export function oauthSettings(settings: Settings): NonNullable<ServiceOptions['oauth']> {
  return {
    accessTokenSeconds: settings.OAUTH_ACCESS_TOKEN_SECONDS,
    refreshTokenSeconds: settings.OAUTH_REFRESH_TOKEN_SECONDS,
    ...(settings.WEBHOOK_CA_FILE ? { extraCa: [readFileSync(settings.WEBHOOK_CA_FILE, 'utf8')] } : {}),
  };
}

export function messagingSettings(settings: Settings): MessagingSettings {
  return {
    sandboxStatusIntervalMs: settings.SANDBOX_STATUS_INTERVAL_MS,
    sandboxTemplateReviewMs: settings.SANDBOX_TEMPLATE_REVIEW_MS,
    whatsappGraphUrl: settings.WHATSAPP_GRAPH_URL,
    whatsappTimeoutMs: settings.WHATSAPP_TIMEOUT_MS,
    whatsappMediaTimeoutMs: settings.WHATSAPP_MEDIA_TIMEOUT_MS,
    templateCacheTtlMs: settings.TEMPLATE_CACHE_TTL_SECONDS * 1000,
    sendRetry: {
      attempts: settings.SEND_RETRY_ATTEMPTS,
      baseDelayMs: settings.SEND_RETRY_BASE_MS,
      pairIntervalMs: settings.SEND_PAIR_INTERVAL_MS,
    },
  };
}

export function createServices(options: ServiceOptions): Services {
  const { logger } = options;
  const oauth = options.oauth ?? oauthSettings(loadSettings({}));
  const services: Services = {
    prisma: options.prisma,
    sql: options.sql,
    searchSql: options.searchSql,
    secrets: options.secrets,
    version: options.version,
    webhookTargets: options.webhookTargets,
    publicUrls: createPublicUrls(options.publicBaseUrl),
    mediaFiles: createMediaFiles(options.media),
    statusMoves: createStatusMoves(options.prisma),
    oauth: {
      accessTokenSeconds: oauth.accessTokenSeconds,
      refreshTokenSeconds: oauth.refreshTokenSeconds,
      clientDocuments: createClientDocuments(
        createOutboundClient({
          guard: options.webhookTargets,
          userAgent: `MessagingCRM-OAuth/${options.version}`,
          ...(oauth.extraCa ? { extraCa: oauth.extraCa } : {}),
        }),
      ),
    },
    keyChanges: createKeyChanges(options.listen, (err) => logger.error({ err }, 'key changes could not be heard')),
    events: createEventHub({
      prisma: options.prisma,
      listen: options.listen,
      onError: (err) => logger.error({ err }, 'live updates could not read new events'),
    }),
    messaging: createMessagingProviders(options.messaging, {
      onStatus: async (integration, update) => {
        await applyStatusUpdate(integrationContext(services, integration, `req_${randomUUID()}`), update);
      },
      onStatusError: (err) => logger.error({ err }, 'a sandbox status report failed'),
      tracked: (integration) => trackedTemplates(options.prisma, integration),
    }),
  };
  return services;
}

/** Stops background work (live updates, sandbox status timers) before the database closes. */
export async function closeServices(services: Services): Promise<void> {
  await services.events.close();
  await services.keyChanges.close();
  await services.messaging.close();
  services.oauth.clientDocuments.close();
}

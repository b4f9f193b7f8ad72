// Opens what the service runs on (database, migrations, secrets) from the settings. Shared by the server
// and the CLI so that both see the same database. On the embedded database the first of them to open DATA_DIR
// owns it and serves it to the other once migrated: the CLI works through a running server, and a second server
// on the same DATA_DIR is refused.
import { projectPath } from '../infra/paths.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../infra/config/settings.js';
import { openDatabase, type Database } from '../infra/db/database.js';
import { describeOwner, EmbeddedDatabaseInUse } from '../infra/db/ownership.js';
import { migrate } from '../infra/db/migrate.js';
import { createSecretBox, loadEncryptionKey } from '../infra/crypto/secrets.js';
import type { Logger } from 'pino';
import type { Services } from '../resolvers/shared/context.js';
import { createLogger } from '../infra/observability/logger.js';
import { closeServices, createServices, messagingSettings, oauthSettings } from './services.js';
import { createTargetGuard } from '../infra/net/targetGuard.js';
import { runningServerAddress } from './serverAddress.js';

export const VERSION = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;

export type Runtime = { db: Database; services: Services; close(): Promise<void> };

export type RuntimeOptions = {
  migrate: boolean;
  logger?: Logger;
  /** Who opens the embedded database (as another process is told), and whether it may work through its owner. */
  claim?: { role: string; throughOwner: boolean };
  /** The server's own address once it listens; other processes find the running server's (app/serverAddress.ts). */
  ownAddress?: () => string | undefined;
};

export async function openRuntime(settings: Settings, options: RuntimeOptions): Promise<Runtime> {
  const logger = options.logger ?? createLogger(settings.LOG_LEVEL);
  const db = await openDatabase({
    url: settings.DATABASE_URL,
    dataDir: settings.DATA_DIR,
    sharedBuffers: settings.EMBEDDED_DB_SHARED_BUFFERS,
    preparedStatements: settings.DATABASE_PREPARED_STATEMENTS,
    statementTimeoutMs: settings.REQUEST_TIMEOUT_MS,
    claim: options.claim,
    onServeError: (error) => logger.error({ err: error }, 'serving the embedded database to another process failed'),
  }).catch((error: unknown) => {
    throw error instanceof EmbeddedDatabaseInUse ? new Error(refusal(error)) : error;
  });
  if (options.migrate) await migrate(db.sql);
  db.serveOthers();
  const secrets = createSecretBox(loadEncryptionKey(settings.ENCRYPTION_KEY, settings.DATA_DIR));
  const services = createServices({
    prisma: db.prisma,
    sql: db.sql,
    searchSql: db.searchSql,
    listen: db.listen,
    secrets,
    version: VERSION,
    logger,
    messaging: messagingSettings(settings),
    oauth: oauthSettings(settings),
    media: { directory: join(settings.DATA_DIR, 'media'), maxBytes: settings.MEDIA_CACHE_MAX_BYTES },
    webhookTargets: createTargetGuard({ allowedHosts: settings.WEBHOOK_ALLOWED_HOSTS }),
    // PUBLIC_BASE_URL, else where the server listens: this process's own, or the running server's that the CLI works
    // beside; only with no server running, the address PORT will give it.
    publicBaseUrl: () =>
      settings.PUBLIC_BASE_URL ?? options.ownAddress?.() ?? runningServerAddress(settings.DATA_DIR) ?? `https://localhost:${settings.PORT}`,
  });
  return {
    db,
    services,
    async close() {
      await closeServices(services);
      await db.close();
    },
  };
}

function refusal(error: EmbeddedDatabaseInUse): string {
  const owner = describeOwner(error.owner);
  return [
    `The embedded database in DATA_DIR ${error.dataDir} is already open in ${owner}; one process at a time may open it.`,
    'Stop that process first, or give this one its own DATA_DIR, or run several servers on PostgreSQL (DATABASE_URL).',
    '`npm run cli` works while the server runs: it goes through the server.',
  ].join('\n');
}

// Opens what the service runs on (database, migrations, secrets) from the settings. Shared by the server
// and the CLI so that both see the same database.
import { readFileSync } from 'node:fs';
import type { Settings } from '../config/settings.js';
import { embeddedDatabaseDir, openDatabase, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { createSecretBox, loadEncryptionKey } from '../crypto/secrets.js';
import type { Logger } from 'pino';
import type { Services } from '../resolvers/context.js';
import { createLogger } from './logger.js';
import { closeServices, createServices, messagingSettings } from './services.js';
import { createTargetGuard } from '../webhooks/targets.js';

export const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

export type Runtime = { db: Database; services: Services; close(): Promise<void> };

export async function openRuntime(settings: Settings, options: { migrate: boolean; logger?: Logger }): Promise<Runtime> {
  const db = await openDatabase({ url: settings.DATABASE_URL, embeddedDir: embeddedDatabaseDir(settings.DATA_DIR) });
  if (options.migrate) await migrate(db.sql);
  const secrets = createSecretBox(loadEncryptionKey(settings.ENCRYPTION_KEY, settings.DATA_DIR));
  const services = createServices({
    prisma: db.prisma,
    secrets,
    version: VERSION,
    logger: options.logger ?? createLogger(settings.LOG_LEVEL),
    messaging: messagingSettings(settings),
    webhookTargets: createTargetGuard({ allowPrivate: settings.WEBHOOK_ALLOW_PRIVATE_TARGETS }),
    publicBaseUrl: settings.PUBLIC_BASE_URL,
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

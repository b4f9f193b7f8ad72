// What every resolver receives: the services it may use and who is asking. Nothing here knows about HTTP.
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { SecretBox } from '../crypto/secrets.js';
import type { MessagingProviders } from '../providers/registry.js';
import type { AgentDispatcher } from '../agents/dispatcher.js';
import type { TargetGuard } from '../webhooks/targets.js';
import { DomainError } from './errors.js';

/** A Prisma client or the client of an open transaction. */
export type Db = Prisma.TransactionClient;

export type Services = {
  prisma: PrismaClient;
  secrets: SecretBox;
  version: string;
  messaging: MessagingProviders;
  agents: AgentDispatcher;
  /** Which webhook receiver URLs are allowed (the SSRF guard). */
  webhookTargets: TargetGuard;
  /** Where the public sees the service (calendar feed URLs, widget snippets), without a trailing slash. */
  publicBaseUrl: string;
};

/** The authenticated caller: an API key of one workspace. */
export type Actor = {
  workspaceId: string;
  userId: string | null;
  keyId: string;
  keyPrefix: string;
  scopes: ReadonlySet<string>;
};

export type Context = Services & {
  actor: Actor | null;
  requestId: string;
  /** The request's Idempotency-Key, whatever transport carried it; null when absent. */
  idempotencyKey: string | null;
};

export function requireActor(ctx: Context): Actor {
  if (!ctx.actor) throw new DomainError('UNAUTHORIZED', 'Unauthorized');
  return ctx.actor;
}

// What every resolver receives: the services it may use and who is asking. Nothing here knows about HTTP.
import type { Prisma, PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { MediaFiles } from '../../infra/media/mediaFiles.js';
import type { SqlConnection } from '../../infra/db/sql.js';
import type { SecretBox } from '../../infra/crypto/secrets.js';
import type { MessagingProviders } from '../../adapters/providers/registry.js';
import type { TargetGuard } from '../../infra/net/targetGuard.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { ProviderName } from '../../adapters/providers/types.js';
import { DomainError } from './errors.js';
import type { EventHub } from './liveEvents.js';
import type { StatusMoves } from './statusMoves.js';

export type { Actor };

/**
 * Where the public reaches the key-less surfaces, as absolute URLs. The facades that serve them own their
 * paths; the start-up wiring builds these from those paths and PUBLIC_BASE_URL, so resolvers hand URLs out
 * without knowing an HTTP path.
 */
export type PublicUrls = {
  /** The booking page that the widget snippet frames. */
  booking(publicId: string): string;
  /** The iCalendar feed of the workspace whose feed token this is. */
  calendarFeed(token: string): string;
  /** The callback URL to give the provider for its webhooks. */
  providerCallback(provider: ProviderName): string;
  /** The console page where an invited person accepts an invitation with this token. */
  invitation(token: string): string;
  /** The OAuth authorization server's issuer (the service's own origin). */
  oauthIssuer(): string;
  /** The MCP server's public URL: the resource (RFC 8707) its OAuth tokens are bound to. */
  mcpResource(): string;
};

/** A client known by its Client ID Metadata Document: its URL, name and redirect URIs. */
export type ClientDocument = { client_id: string; client_name: string; redirect_uris: string[] };

/** The OAuth authorization server's settings and its one outbound need (resolvers/oauth/). */
export type OAuthServices = {
  /** How long an access token lives (OAUTH_ACCESS_TOKEN_SECONDS). */
  accessTokenSeconds: number;
  /** How long a refresh token lives unused (OAUTH_REFRESH_TOKEN_SECONDS); each use rotates it. */
  refreshTokenSeconds: number;
  /** Reads (and remembers) a client's metadata document through the guarded outbound client. */
  clientDocuments: { read(clientId: string): Promise<ClientDocument>; close(): void };
};

/** A Prisma client or the client of an open transaction. */
export type Db = Prisma.TransactionClient;

export type Services = {
  prisma: PrismaClient;
  /** The same database without Prisma, for the few read statements whose rows Prisma's mapping would cost more
   * than the statement itself (the contact pages and a contact's detail). */
  sql: SqlConnection;
  /** The same database for search statements (substringSearch.ts), each planned once for any term where the
   * database allows it (infra/db/database.ts, searchSessions). */
  searchSql: SqlConnection;
  secrets: SecretBox;
  version: string;
  messaging: MessagingProviders;
  /** Which webhook receiver URLs are allowed (the SSRF guard). */
  webhookTargets: TargetGuard;
  publicUrls: PublicUrls;
  /** Live updates: committed events handed to this process's subscribers (resolvers/events/hub.ts). */
  events: EventHub;
  /** Media files fetched from the provider, verified and kept by content (infra/media/mediaFiles.ts). */
  mediaFiles: MediaFiles;
  /** Changes to what a workspace's keys may do, heard from every instance (resolvers/workspace/keyChanges.ts). */
  keyChanges: KeyChanges;
  /** Delivery reports' status moves, applied together when they arrive together (resolvers/messaging/statusMoves.ts). */
  statusMoves: StatusMoves;
  oauth: OAuthServices;
};

export type Context = Services & {
  actor: Actor | null;
  requestId: string;
  /** The request's Idempotency-Key, whatever transport carried it; null when absent. */
  idempotencyKey: string | null;
  /** Set only while the console's sign-in door runs a sign-in operation: the one place the sign-in fields run
   * (schema/people/people.ts), with who is trying and where attempts are counted (resolvers/people/signIn.ts). */
  signInDoor?: SignInDoor;
  /** Set only while the /oauth routes run an OAuth operation (token, registration, revocation). */
  oauthDoor?: true;
};

/** Counts failed sign-ins per account and per client address, and says how long a locked one must wait. */
export type SignInAttempts = {
  /** Seconds until sign-in is allowed again for this account from this address; 0 when it is allowed now. */
  waitSeconds(account: string, address: string): Promise<number>;
  failed(account: string, address: string): Promise<void>;
  succeeded(account: string): Promise<void>;
};

/** Changes to what a workspace's keys may do, as every instance hears them (resolvers/workspace/keyChanges.ts). */
export type KeyChanges = {
  /** Calls `listener` with the workspace whose keys changed, or null for "any". */
  subscribe(listener: (workspaceId: string | null) => void): void;
  close(): Promise<void>;
};

export type SignInDoor = { clientAddress: string; attempts: SignInAttempts };

export function requireActor(ctx: Context): Actor {
  if (!ctx.actor) throw new DomainError('UNAUTHORIZED', 'Unauthorized');
  return ctx.actor;
}

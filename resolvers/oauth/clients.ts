// The MCP server's OAuth clients. Dynamic Client Registration (RFC 7591) stores a public client (PKCE, no secret)
// under a random client_id; a client_id that is an https URL is a Client ID Metadata Document, read through
// clientDocuments.ts and kept here so grants can name it. A redirect URI is https, or http to this machine (native
// apps' loopback redirect, RFC 8252), without a fragment; an authorization request must name one exactly.
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomToken } from '../../infra/crypto/tokens.js';
import type { Context } from '../shared/context.js';
import { isDocumentClientId } from './clientDocuments.js';
import { oauthError } from './oauthErrors.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const MAX_REDIRECT_URIS = 10;
const MAX_CLIENT_NAME = 200;

export type KnownClient = { id: string; client_id: string; client_name: string; redirect_uris: string[] };

function acceptableRedirectUri(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.hash !== '' || url.username !== '' || url.password !== '') return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}

function checkedRedirectUris(uris: string[]): string[] {
  if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw oauthError('invalid_redirect_uri', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  const refused = uris.find((uri) => !acceptableRedirectUri(uri));
  if (refused) {
    throw oauthError(
      'invalid_redirect_uri',
      `${refused} is not a redirect URI this server accepts: https, or http to 127.0.0.1, [::1] or localhost, without a fragment`,
    );
  }
  return uris;
}

/** RFC 7591's registration response for a public client. */
export type ClientRegistration = {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: string;
};

/** Registers a public client. Secret-based methods are replaced by `none` (RFC 7591 lets the server replace
 * values): every client proves itself with PKCE. */
export async function registerClient(ctx: Context, metadata: unknown): Promise<ClientRegistration> {
  const parsed = OAuthClientMetadataSchema.safeParse(metadata);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw oauthError('invalid_client_metadata', `${issue?.path.join('.') || 'metadata'}: ${issue?.message ?? 'invalid'}`);
  }
  const { client_name: name, grant_types: grantTypes, response_types: responseTypes } = parsed.data;
  const redirectUris = checkedRedirectUris(parsed.data.redirect_uris);
  if (grantTypes && !grantTypes.includes('authorization_code')) {
    throw oauthError('invalid_client_metadata', 'grant_types must include authorization_code: it is the only way to a token here');
  }
  if (responseTypes && responseTypes.some((type) => type !== 'code')) {
    throw oauthError('invalid_client_metadata', 'response_types may only be ["code"]');
  }
  const clientName = (name?.trim() || new URL(redirectUris[0]!).host).slice(0, MAX_CLIENT_NAME);
  const client = await ctx.prisma.oAuthClient.create({
    data: { client_id: `mcpc_${randomToken(18)}`, client_name: clientName, redirect_uris: redirectUris, kind: 'dcr' },
  });
  return {
    client_id: client.client_id,
    client_id_issued_at: Math.floor(client.created_at.getTime() / 1000),
    client_name: client.client_name,
    redirect_uris: client.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

const clientSelect = { id: true, client_id: true, client_name: true, redirect_uris: true } as const;

/** The client behind a client_id: a registered one, or the one its metadata document describes (read, or
 * remembered, and kept current in the table). */
export async function knownClient(ctx: Context, clientId: string): Promise<KnownClient> {
  if (!isDocumentClientId(clientId)) {
    const client =
      clientId.length <= 100 ? await ctx.prisma.oAuthClient.findUnique({ where: { client_id: clientId }, select: clientSelect }) : null;
    if (!client)
      throw oauthError('invalid_client', 'Unknown client_id: register the client first, or use a Client ID Metadata Document URL');
    return client;
  }
  const document = await ctx.oauth.clientDocuments.read(clientId);
  const redirectUris = checkedRedirectUris(document.redirect_uris);
  const kept = { client_name: document.client_name.slice(0, MAX_CLIENT_NAME), redirect_uris: redirectUris, fetched_at: new Date() };
  return ctx.prisma.oAuthClient.upsert({
    where: { client_id: clientId },
    create: { client_id: clientId, kind: 'cimd', ...kept },
    update: kept,
    select: clientSelect,
  });
}

/** A redirect URI must be one the client registered, character for character. */
export function requireRegisteredRedirect(client: KnownClient, redirectUri: string): void {
  if (!client.redirect_uris.includes(redirectUri)) {
    throw oauthError('invalid_request', 'redirect_uri is not one this client registered (it must match exactly)');
  }
}

// The authorization request (OAuth 2.1 authorization code with PKCE S256 only) and the person's answer on the
// console's consent page. The request is checked the same way when /oauth/authorize receives it, when the page
// shows it and when the person approves or denies: the client and its exact redirect URI first (errors shown, never
// redirected to an unchecked URI), then the rest (errors sent back to the client). A person grants at most what
// their role allows; the grant names the MCP resource (RFC 8707) its tokens are bound to.
import { randomToken, sha256Hex } from '../../infra/crypto/tokens.js';
import type { Context } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { roleKeyScopes } from '../workspace/roles.js';
import { KEY_SCOPES } from '../workspace/scopes.js';
import { knownClient, requireRegisteredRedirect, type KnownClient } from './clients.js';
import { oauthError } from './oauthErrors.js';

/** An authorization code lives this long: the client exchanges it at once. */
export const CODE_TTL_MS = 60_000;
export const CODE_PREFIX = 'mcpcode_';
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/;

export type AuthorizationRequest = {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  code_challenge?: string | null;
  code_challenge_method?: string | null;
  scope?: string | null;
  state?: string | null;
  resource?: string | null;
};

export type CheckedRequest = { client: KnownClient; scopes: string[]; resource: string; request: AuthorizationRequest };

/** Every key scope unless the request names some; unknown names are refused. */
function requestedScopes(scope: string | null | undefined): string[] {
  const names = (scope ?? '').split(' ').filter(Boolean);
  if (names.length === 0) return [...KEY_SCOPES];
  const unknown = names.filter((name) => !(KEY_SCOPES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw oauthError('invalid_scope', `Unknown scope ${unknown.join(', ')}; scopes are ${KEY_SCOPES.join(', ')}`, { redirectable: true });
  return [...new Set(names)];
}

export async function checkAuthorizationRequest(ctx: Context, request: AuthorizationRequest): Promise<CheckedRequest> {
  const client = await knownClient(ctx, request.client_id);
  requireRegisteredRedirect(client, request.redirect_uri);
  if (request.response_type !== 'code') {
    throw oauthError('unsupported_response_type', 'response_type must be code', { redirectable: true });
  }
  if (request.code_challenge_method !== 'S256' || !CODE_CHALLENGE.test(request.code_challenge ?? '')) {
    throw oauthError(
      'invalid_request',
      'PKCE is required: code_challenge (S256 of the verifier, base64url) with code_challenge_method S256',
      {
        redirectable: true,
      },
    );
  }
  const resource = ctx.publicUrls.mcpResource();
  if (request.resource && request.resource !== resource) {
    throw oauthError('invalid_target', `This server issues tokens only for its MCP server, ${resource}`, { redirectable: true });
  }
  return { client, scopes: requestedScopes(request.scope), resource, request };
}

/** Where the person's browser goes back to the client: the redirect URI with the answer's parameters, the state
 * and the issuer (RFC 9207) added to its own query. */
export function redirectTo(ctx: Context, request: AuthorizationRequest, answer: Record<string, string>): string {
  const url = new URL(request.redirect_uri);
  for (const [name, value] of Object.entries(answer)) url.searchParams.set(name, value);
  if (request.state) url.searchParams.set('state', request.state);
  url.searchParams.set('iss', ctx.publicUrls.oauthIssuer());
  return url.toString();
}

/** The signed-in person who answers a consent page (API keys cannot consent for anyone). */
async function consentingPerson(ctx: Context) {
  const actor = ctx.actor;
  if (!actor?.session || !actor.userId)
    throw new DomainError('FORBIDDEN', 'Only a person signed in to the console may answer an authorization request');
  return ctx.prisma.user.findUniqueOrThrow({
    where: { id: actor.userId },
    select: { id: true, company_id: true, role: true, workspace: { select: { name: true } } },
  });
}

export type ConsentView = {
  client_id: string;
  client_name: string;
  redirect_host: string;
  workspace_name: string;
  requested_scopes: string[];
  /** The requested scopes the person's role allows: what the page offers. */
  grantable_scopes: string[];
};

export async function consentView(ctx: Context, request: AuthorizationRequest): Promise<ConsentView> {
  const checked = await checkAuthorizationRequest(ctx, request);
  const person = await consentingPerson(ctx);
  const allowed = new Set<string>(roleKeyScopes(person.role));
  return {
    client_id: checked.client.client_id,
    client_name: checked.client.client_name,
    redirect_host: new URL(request.redirect_uri).host,
    workspace_name: person.workspace.name,
    requested_scopes: checked.scopes,
    grantable_scopes: checked.scopes.filter((scope) => allowed.has(scope)),
  };
}

/** The person approves with some of the grantable scopes: a grant and its one-time code, sent back to the client. */
export async function approveAuthorization(ctx: Context, request: AuthorizationRequest, scopes: string[]): Promise<string> {
  const checked = await checkAuthorizationRequest(ctx, request);
  const person = await consentingPerson(ctx);
  const allowed = new Set<string>(roleKeyScopes(person.role));
  const chosen = [...new Set(scopes)];
  const refused = chosen.filter((scope) => !checked.scopes.includes(scope) || !allowed.has(scope));
  if (chosen.length === 0) throw new DomainError('VALIDATION_ERROR', 'Choose at least one scope to grant', { scopes: 'is empty' });
  if (refused.length > 0) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `These scopes were not requested or your role (${person.role}) does not allow them: ${refused.join(', ')}`,
      {
        scopes: 'not grantable',
      },
    );
  }
  const code = `${CODE_PREFIX}${randomToken(32)}`;
  await ctx.prisma.oAuthGrant.create({
    data: {
      company_id: person.company_id,
      user_id: person.id,
      client_id: checked.client.id,
      scopes: chosen,
      resource: checked.resource,
      tokens: {
        create: {
          kind: 'code',
          token_hash: sha256Hex(code),
          expires_at: new Date(Date.now() + CODE_TTL_MS),
          code_challenge: request.code_challenge ?? null,
          redirect_uri: request.redirect_uri,
        },
      },
    },
  });
  return redirectTo(ctx, request, { code });
}

/** The person denies: the client hears access_denied. */
export async function denyAuthorization(ctx: Context, request: AuthorizationRequest): Promise<string> {
  await checkAuthorizationRequest(ctx, request);
  await consentingPerson(ctx);
  return redirectTo(ctx, request, { error: 'access_denied', error_description: 'The person denied the request' });
}

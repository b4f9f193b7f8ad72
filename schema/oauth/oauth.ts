// OAuth for the MCP server (resolvers/oauth/): the endpoints' fields, which only the /oauth routes run (the
// `oauthDoor`: token, registration, revocation, checking an authorization request), the consent page's fields and
// Settings → Connected apps, which only a person signed in to the console may use (`person`).
import { builder } from '../builder.js';
import {
  approveAuthorization,
  checkAuthorizationRequest,
  consentView,
  denyAuthorization,
  type AuthorizationRequest,
  type ConsentView,
} from '../../resolvers/oauth/authorization.js';
import { registerClient, type ClientRegistration } from '../../resolvers/oauth/clients.js';
import { exchangeCode, refreshTokens, revokeToken, type IssuedTokens } from '../../resolvers/oauth/tokens.js';
import { disconnectApp, listConnectedApps, type ConnectedApp } from '../../resolvers/oauth/connectedApps.js';
import { oauthError } from '../../resolvers/oauth/oauthErrors.js';

const oauthDoor = { oauthDoor: true } as const;
const person = { person: true } as const;

const AuthorizationRequestInput = builder.inputType('OAuthAuthorizationRequest', {
  description: 'The query parameters of an authorization request (/oauth/authorize), as the client sent them.',
  fields: (t) => ({
    response_type: t.string({ required: true }),
    client_id: t.string({ required: true }),
    redirect_uri: t.string({ required: true }),
    code_challenge: t.string(),
    code_challenge_method: t.string(),
    scope: t.string({ description: 'Space-separated key scopes; all of them when absent.' }),
    state: t.string(),
    resource: t.string({ description: 'The resource indicator (RFC 8707): the MCP server’s URL.' }),
  }),
});

const AuthorizationClient = builder
  .objectRef<{ client_id: string; client_name: string; redirect_host: string }>('OAuthAuthorizationClient')
  .implement({
    description: 'The client of a valid authorization request.',
    fields: (t) => ({
      client_id: t.exposeString('client_id'),
      client_name: t.exposeString('client_name'),
      redirect_host: t.exposeString('redirect_host'),
    }),
  });

const Consent = builder.objectRef<ConsentView>('OAuthConsent').implement({
  description: 'What the consent page shows: the client, where it sends the person back, and the scopes on offer.',
  fields: (t) => ({
    client_id: t.exposeString('client_id'),
    client_name: t.exposeString('client_name'),
    redirect_host: t.exposeString('redirect_host'),
    workspace_name: t.exposeString('workspace_name'),
    requested_scopes: t.exposeStringList('requested_scopes'),
    grantable_scopes: t.exposeStringList('grantable_scopes', { description: 'The requested scopes the person’s role allows.' }),
  }),
});

const Redirect = builder.objectRef<{ redirect_to: string }>('OAuthRedirect').implement({
  description: 'Where the browser goes next: the client’s redirect URI with the code, or with the error.',
  fields: (t) => ({ redirect_to: t.exposeString('redirect_to') }),
});

const Registration = builder.objectRef<ClientRegistration>('OAuthClientRegistration').implement({
  description: 'A registered public client (RFC 7591 §3.2.1).',
  fields: (t) => ({
    client_id: t.exposeString('client_id'),
    client_id_issued_at: t.exposeInt('client_id_issued_at'),
    client_name: t.exposeString('client_name'),
    redirect_uris: t.exposeStringList('redirect_uris'),
    grant_types: t.exposeStringList('grant_types'),
    response_types: t.exposeStringList('response_types'),
    token_endpoint_auth_method: t.exposeString('token_endpoint_auth_method'),
  }),
});

const Tokens = builder.objectRef<IssuedTokens>('OAuthTokens').implement({
  description: 'A token response (RFC 6749 §5.1).',
  fields: (t) => ({
    access_token: t.exposeString('access_token'),
    token_type: t.exposeString('token_type'),
    expires_in: t.exposeInt('expires_in'),
    refresh_token: t.exposeString('refresh_token'),
    scope: t.exposeString('scope'),
  }),
});

const ConnectedAppUser = builder.objectRef<ConnectedApp['user']>('ConnectedAppPerson').implement({
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name', { nullable: true }), email: t.exposeString('email') }),
});

const ConnectedAppType = builder.objectRef<ConnectedApp>('ConnectedApp').implement({
  description: 'An OAuth client (an AI assistant) a person let act for them on the MCP server.',
  fields: (t) => ({
    id: t.exposeID('id'),
    client_id: t.exposeString('client_id'),
    client_name: t.exposeString('client_name'),
    user: t.field({ type: ConnectedAppUser, description: 'The person it acts as, within their current role.', resolve: (app) => app.user }),
    scopes: t.exposeStringList('scopes'),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    last_used_at: t.expose('last_used_at', { type: 'DateTime', nullable: true, description: 'Recorded to the minute.' }),
  }),
});

const asRequest = (request: AuthorizationRequest): AuthorizationRequest => request;

builder.queryFields((t) => ({
  oauthAuthorizationCheck: t.field({
    type: AuthorizationClient,
    description: 'Checks an authorization request before the consent page opens (the /oauth/authorize route only).',
    authScopes: oauthDoor,
    args: { request: t.arg({ type: AuthorizationRequestInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const checked = await checkAuthorizationRequest(ctx, asRequest(args.request));
      return {
        client_id: checked.client.client_id,
        client_name: checked.client.client_name,
        redirect_host: new URL(args.request.redirect_uri).host,
      };
    },
  }),
  oauthConsent: t.field({
    type: Consent,
    description: 'The consent page’s view of an authorization request, for the signed-in person.',
    authScopes: person,
    args: { request: t.arg({ type: AuthorizationRequestInput, required: true }) },
    resolve: (_root, args, ctx) => consentView(ctx, asRequest(args.request)),
  }),
  connectedApps: t.field({
    type: [ConnectedAppType],
    description: 'Apps connected by OAuth: every one of the workspace for owners and admins, a member’s own for members.',
    authScopes: person,
    resolve: (_root, _args, ctx) => listConnectedApps(ctx),
  }),
}));

builder.mutationFields((t) => ({
  oauthApprove: t.field({
    type: Redirect,
    description: 'The signed-in person approves an authorization request with some of the grantable scopes.',
    authScopes: person,
    args: {
      request: t.arg({ type: AuthorizationRequestInput, required: true }),
      scopes: t.arg.stringList({ required: true }),
    },
    resolve: async (_root, args, ctx) => ({ redirect_to: await approveAuthorization(ctx, asRequest(args.request), args.scopes) }),
  }),
  oauthDeny: t.field({
    type: Redirect,
    description: 'The signed-in person denies an authorization request.',
    authScopes: person,
    args: { request: t.arg({ type: AuthorizationRequestInput, required: true }) },
    resolve: async (_root, args, ctx) => ({ redirect_to: await denyAuthorization(ctx, asRequest(args.request)) }),
  }),
  connectedAppDisconnect: t.field({
    type: ConnectedAppType,
    description: 'Disconnects an app: its grant is revoked and every token of it stops working at once.',
    authScopes: person,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => disconnectApp(ctx, String(args.id)),
  }),
  oauthRegisterClient: t.field({
    type: Registration,
    description: 'Dynamic Client Registration (RFC 7591), run by POST /oauth/register only.',
    authScopes: oauthDoor,
    args: { metadata: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => registerClient(ctx, args.metadata),
  }),
  oauthToken: t.field({
    type: Tokens,
    description: 'The token endpoint (authorization_code with PKCE, refresh_token), run by POST /oauth/token only.',
    authScopes: oauthDoor,
    args: {
      grant_type: t.arg.string({ required: true }),
      client_id: t.arg.string({ required: true }),
      code: t.arg.string(),
      code_verifier: t.arg.string(),
      redirect_uri: t.arg.string(),
      refresh_token: t.arg.string(),
      resource: t.arg.string(),
    },
    resolve: (_root, args, ctx) => {
      if (args.grant_type === 'authorization_code') {
        if (!args.code || !args.code_verifier || !args.redirect_uri) {
          throw oauthError('invalid_request', 'code, code_verifier and redirect_uri are required');
        }
        return exchangeCode(ctx, {
          client_id: args.client_id,
          code: args.code,
          code_verifier: args.code_verifier,
          redirect_uri: args.redirect_uri,
          resource: args.resource,
        });
      }
      if (args.grant_type === 'refresh_token') {
        if (!args.refresh_token) throw oauthError('invalid_request', 'refresh_token is required');
        return refreshTokens(ctx, { client_id: args.client_id, refresh_token: args.refresh_token, resource: args.resource });
      }
      throw oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    },
  }),
  oauthRevoke: t.boolean({
    description: 'Token revocation (RFC 7009), run by POST /oauth/revoke only: ends the token’s whole grant.',
    authScopes: oauthDoor,
    args: { token: t.arg.string({ required: true }), client_id: t.arg.string() },
    resolve: (_root, args, ctx) => revokeToken(ctx, { token: args.token, client_id: args.client_id }),
  }),
}));

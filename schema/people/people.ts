// People and their access: signing in (public fields the /auth routes run: facades/auth/routes.ts), who is
// asking (`viewer`), the team and its invitations, password changes, and the workspace's API keys. Keys, the
// team and integrations are managed only by a signed-in owner or admin (the session-only permissions).
import { builder } from '../builder.js';
import { acceptInvitation, isSetupRequired, setUp, signIn } from '../../resolvers/people/signIn.js';
import { closeSession } from '../../resolvers/people/sessions.js';
import {
  changePassword,
  inviteUser,
  listInvitations,
  removeUser,
  revokeInvitation,
  updateUserRole,
  viewer,
} from '../../resolvers/people/team.js';
import { createKeyAsPerson, listWorkspaceKeys, revokeWorkspaceKey } from '../../resolvers/workspace/apiKeys.js';
import { ROLES, sessionScopes } from '../../resolvers/workspace/roles.js';
import { KEY_SCOPES } from '../../resolvers/workspace/scopes.js';
import { EMAIL, URI } from '../shared/jsonSchemaHints.js';
import { IntegrationSecret } from '../workspace/integrations.js';

const Workspace = builder.prismaObject('Workspace', {
  description: 'The workspace (company) the caller belongs to.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    time_zone: t.exposeString('time_zone'),
    created_at: t.expose('created_at', { type: 'DateTime' }),
  }),
});

type SignedIn = Awaited<ReturnType<typeof signIn>> & Partial<Pick<Awaited<ReturnType<typeof setUp>>, 'new_integration'>>;

const Session = builder.objectRef<SignedIn>('Session').implement({
  description: 'A signed-in browser session. The facade puts `token` in an HttpOnly cookie; scripts never see it.',
  fields: (t) => ({
    token: t.exposeString('token'),
    csrf_token: t.exposeString('csrf_token', { description: 'Sent back in X-CSRF-Token on every cookie-authenticated request.' }),
    expires_at: t.expose('expires_at', { type: 'DateTime', description: 'When the session ends at the latest.' }),
    user_id: t.exposeID('user_id'),
    workspace_id: t.exposeID('workspace_id'),
    user: t.prismaField({
      type: 'User',
      resolve: (query, parent, _args, ctx) => ctx.prisma.user.findUniqueOrThrow({ ...query, where: { id: parent.user_id } }),
    }),
    workspace: t.prismaField({
      type: Workspace,
      resolve: (query, parent, _args, ctx) => ctx.prisma.workspace.findUniqueOrThrow({ ...query, where: { id: parent.workspace_id } }),
    }),
    new_integration: t.field({
      type: IntegrationSecret,
      nullable: true,
      description: "Only on the first run's setUp: the sandbox integration it created, with its app secret, answered this once.",
      resolve: (parent) => parent.new_integration ?? null,
    }),
    scopes: t.stringList({
      description: 'What the person may do: their role’s key scopes, plus keys, team and integrations for owners and admins.',
      resolve: async (parent, _args, ctx) => {
        const user = await ctx.prisma.user.findUniqueOrThrow({ where: { id: parent.user_id }, select: { role: true } });
        return [...sessionScopes(user.role)].sort();
      },
    }),
  }),
});

const Viewer = builder.objectRef<Awaited<ReturnType<typeof viewer>>>('Viewer').implement({
  description: 'Who is asking: the signed-in person, or the person who created the API key.',
  fields: (t) => ({
    user: t.prismaField({ type: 'User', nullable: true, resolve: (_query, parent) => parent.user }),
    workspace: t.prismaField({ type: Workspace, resolve: (_query, parent) => parent.workspace }),
    scopes: t.exposeStringList('scopes', {
      description: 'What the caller may do now: key scopes, plus keys, team and integrations for signed-in owners and admins.',
    }),
    via: t.exposeString('via', { description: 'session (a person signed in to the console) or api_key.' }),
  }),
});

const Invitation = builder.prismaObject('Invitation', {
  description: 'A one-time link inviting an e-mail address into the workspace with a role.',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email', EMAIL),
    role: t.exposeString('role', { description: 'owner, admin or member.' }),
    invited_by: t.relation('invited_by', { nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    expires_at: t.expose('expires_at', { type: 'DateTime' }),
  }),
});

const InvitationCreated = builder.objectRef<Awaited<ReturnType<typeof inviteUser>>>('InvitationCreated').implement({
  fields: (t) => ({
    invitation: t.prismaField({ type: Invitation, resolve: (_query, parent) => parent.invitation }),
    url: t.exposeString('url', { ...URI, description: 'The one-time link to give the invited person; shown this once.' }),
  }),
});

const ApiKey = builder.prismaObject('ApiKey', {
  description: 'An API key of the workspace. The key itself is shown once, when it is created; only its SHA-256 is kept.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The visible start of the key, safe to show and log.' }),
    scopes: t.exposeStringList('scopes', { description: "The key's own scopes; it acts within what its creator's current role allows." }),
    creator: t.relation('user', { nullable: true, description: 'The person who created the key (the owner for keys made by the CLI).' }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    last_used_at: t.expose('last_used_at', { type: 'DateTime', nullable: true, description: 'Recorded to the minute.' }),
    revoked_at: t.expose('revoked_at', { type: 'DateTime', nullable: true }),
  }),
});

const ApiKeyCreated = builder.objectRef<Awaited<ReturnType<typeof createKeyAsPerson>>>('ApiKeyCreated').implement({
  fields: (t) => ({
    api_key: t.exposeString('api_key', { description: 'The key: send it as `Authorization: Bearer <api_key>`. Shown this once.' }),
    key: t.prismaField({
      type: ApiKey,
      resolve: (query, parent, _args, ctx) => ctx.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: parent.key.id } }),
    }),
  }),
});

/** Reachable without a scope: fields every caller may use on themselves (each checks who asks). */
const session = { public: true } as const;
/** Sign-in fields: run only by the console's /auth routes, never by a /graphql, REST or MCP request, with a key or
 * a cookie, so every guess passes the lock-out and a request holds one (facades/auth/routes.ts). */
const signInDoor = { signInDoor: true } as const;

builder.queryFields((t) => ({
  setupRequired: t.boolean({
    description: 'Public: true while no workspace exists, when `npm start` prints the one-time setup link.',
    authScopes: session,
    resolve: (_root, _args, ctx) => isSetupRequired(ctx),
  }),
  viewer: t.field({
    type: Viewer,
    description: 'Who is asking and what they may do. Any signed-in person or key may ask.',
    authScopes: session,
    resolve: (_root, _args, ctx) => viewer(ctx),
  }),
  apiKeys: t.prismaField({
    type: [ApiKey],
    description: "The workspace's API keys, newest first, revoked ones included.",
    authScopes: { permission: 'keys' },
    resolve: (query, _root, _args, ctx) => listWorkspaceKeys(ctx, query),
  }),
  invitations: t.prismaField({
    type: [Invitation],
    description: 'Invitations not yet accepted, revoked or expired, newest first.',
    authScopes: { permission: 'team' },
    resolve: (query, _root, _args, ctx) => listInvitations(ctx, query),
  }),
}));

builder.mutationFields((t) => ({
  signIn: t.field({
    type: Session,
    description:
      'The console’s /auth routes only: opens a session for an e-mail and password. A wrong e-mail or password is UNAUTHORIZED, alike.',
    authScopes: signInDoor,
    args: { email: t.arg.string({ required: true, ...EMAIL }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => signIn(ctx, args),
  }),
  signOut: t.boolean({
    description: 'The console’s /auth routes only: ends the session whose cookie token this is; an ended or unknown one changes nothing.',
    authScopes: signInDoor,
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await closeSession(ctx.prisma, args.token);
      return true;
    },
  }),
  setUp: t.field({
    type: Session,
    description:
      'The console’s /auth routes only: with the one-time link `npm start` prints while no workspace exists, creates the workspace, its owner and a session.',
    authScopes: signInDoor,
    args: {
      token: t.arg.string({ required: true }),
      workspace_name: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      email: t.arg.string({ required: true, ...EMAIL }),
      password: t.arg.string({ required: true, description: 'At least 10 characters.' }),
    },
    resolve: (_root, args, ctx) => setUp(ctx, args),
  }),
  invitationAccept: t.field({
    type: Session,
    description:
      "The console’s /auth routes only: joins the workspace with an invitation link's token, with the invitation's role, and signs in.",
    authScopes: signInDoor,
    args: {
      token: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      password: t.arg.string({ required: true, description: 'At least 10 characters.' }),
    },
    resolve: (_root, args, ctx) => acceptInvitation(ctx, args),
  }),
  passwordChange: t.boolean({
    description: "Changes the signed-in person's password and ends their other sessions. Only for a signed-in person.",
    authScopes: session,
    args: { current_password: t.arg.string({ required: true }), new_password: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => changePassword(ctx, args),
  }),
  apiKeyCreate: t.field({
    type: ApiKeyCreated,
    description: 'Creates a key belonging to the signed-in person, with scopes their role allows. The key is shown this once.',
    authScopes: { permission: 'keys' },
    args: {
      name: t.arg.string({ required: true }),
      scopes: t.arg.stringList({ required: true, description: `Any of ${KEY_SCOPES.join(', ')}.` }),
    },
    resolve: (_root, args, ctx) => createKeyAsPerson(ctx, args),
  }),
  apiKeyRevoke: t.prismaField({
    type: ApiKey,
    description: 'Revokes a key; it stops working at once on this instance and within API_KEY_CACHE_SECONDS on others.',
    authScopes: { permission: 'keys' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => revokeWorkspaceKey(ctx, String(args.id), query),
  }),
  userInvite: t.field({
    type: InvitationCreated,
    description: `Invites an e-mail address with a role (${ROLES.join(', ')}); only an owner invites owners.`,
    authScopes: { permission: 'team' },
    args: { email: t.arg.string({ required: true, ...EMAIL }), role: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => inviteUser(ctx, args),
  }),
  invitationRevoke: t.prismaField({
    type: Invitation,
    description: 'Revokes an invitation that was not accepted; its link stops working.',
    authScopes: { permission: 'team' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) => revokeInvitation(ctx, String(args.id)),
  }),
  userRoleUpdate: t.prismaField({
    type: 'User',
    description: "Changes a person's role; their sessions and keys follow at their next request. A workspace keeps one owner.",
    authScopes: { permission: 'team' },
    args: { id: t.arg.id({ required: true }), role: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => updateUserRole(ctx, { id: String(args.id), role: args.role }, query),
  }),
  userRemove: t.prismaField({
    type: 'User',
    description: 'Removes a person: signed out everywhere, their keys stop working, their name stays on what they wrote.',
    authScopes: { permission: 'team' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => removeUser(ctx, String(args.id), query),
  }),
}));

// Settings → Connected apps: the grants people gave OAuth clients (AI assistants) in the workspace, with who gave
// them, their scopes and last use. Only people signed in to the console see or disconnect them: owners and admins
// every app of the workspace, members their own. Disconnecting revokes the grant, which ends all its tokens.
import type { Context } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { parseInput, uuid } from '../shared/validation.js';
import { revokeGrant } from './tokens.js';

export type ConnectedApp = {
  id: string;
  client_id: string;
  client_name: string;
  user: { id: string; name: string | null; email: string };
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
};

function signedInPerson(ctx: Context) {
  const actor = ctx.actor;
  if (!actor?.session || !actor.userId) throw new DomainError('FORBIDDEN', 'Connected apps are managed by people signed in to the console');
  const everyone = actor.session.role === 'owner' || actor.session.role === 'admin';
  return { workspaceId: actor.workspaceId, ...(everyone ? {} : { userId: actor.userId }) };
}

function visibleGrants(ctx: Context) {
  const person = signedInPerson(ctx);
  return { company_id: person.workspaceId, revoked_at: null, ...(person.userId ? { user_id: person.userId } : {}) };
}

const appSelect = {
  id: true,
  scopes: true,
  created_at: true,
  last_used_at: true,
  client: { select: { client_id: true, client_name: true } },
  user: { select: { id: true, name: true, email: true } },
} as const;

type AppRow = {
  id: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  client: { client_id: string; client_name: string };
  user: ConnectedApp['user'];
};

function connectedApp(row: AppRow): ConnectedApp {
  const { client, ...rest } = row;
  return { ...rest, client_id: client.client_id, client_name: client.client_name };
}

export async function listConnectedApps(ctx: Context): Promise<ConnectedApp[]> {
  const rows = await ctx.prisma.oAuthGrant.findMany({ where: visibleGrants(ctx), orderBy: { id: 'desc' }, select: appSelect });
  return rows.map(connectedApp);
}

export async function disconnectApp(ctx: Context, id: string): Promise<ConnectedApp> {
  const grantId = parseInput(uuid, id);
  const row = await ctx.prisma.oAuthGrant.findFirst({ where: { ...visibleGrants(ctx), id: grantId }, select: appSelect });
  if (!row) throw notFound('Connected app');
  await revokeGrant(ctx.prisma, grantId);
  return connectedApp(row);
}

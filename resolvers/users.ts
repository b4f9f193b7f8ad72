import type { Context } from './context.js';
import { requireActor } from './context.js';

type Query = { select?: object; include?: object };

export function listUsers(ctx: Context, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  return ctx.prisma.user.findMany({ ...query, where: { company_id: workspaceId }, orderBy: { id: 'asc' } });
}

import type { Context } from '../shared/context.js';
import { requireActor } from '../shared/context.js';

type Query = { select?: object; include?: object };

export function listUsers(ctx: Context, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  return ctx.prisma.user.findMany({ ...query, where: { company_id: workspaceId }, orderBy: { id: 'asc' } });
}

import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.js';
import { type Context, requireActor } from './context.js';
import { DomainError } from './errors.js';
import { parseInput } from './validation.js';

type Query = { select?: Prisma.TagSelect; include?: Prisma.TagInclude };

export async function listTags(ctx: Context, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const tags = await ctx.prisma.tag.findMany({ ...query, where: { company_id: workspaceId }, orderBy: { name: 'asc' } });
  return { tags };
}

const createInput = z.object({
  name: z.string().trim().min(1, { message: 'is required' }).max(100, { message: 'must be at most 100 characters' }),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'must be a hex color such as #1e88e5' })
    .nullish(),
});

export async function createTag(ctx: Context, input: z.input<typeof createInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { name, color } = parseInput(createInput, input);
  const existing = await ctx.prisma.tag.findFirst({ where: { company_id: workspaceId, name }, select: { id: true } });
  if (existing) throw new DomainError('CONFLICT', `A tag named "${name}" already exists`, { name: 'already exists' });
  return ctx.prisma.tag.create({ ...query, data: { company_id: workspaceId, name, color: color ?? null } });
}

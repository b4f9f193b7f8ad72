import { z } from 'zod';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { parseInput, uuid } from '../shared/validation.js';
import { addTagToContact } from './contactEvents.js';

type Query = { select?: Prisma.TagSelect; include?: Prisma.TagInclude };

/** Whether the contact (`contact` names its row) carries the tag; never, for no tag. */
export function carriesTag(contact: Prisma.Sql, tagId: string | null): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM customer_tags link WHERE link.customer_id = ${contact}.id AND link.tag_id = ${tagId}::uuid)`;
}

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

const assignmentInput = z.object({ customer_id: uuid, tag_id: uuid });

/** Assigning an assigned tag, or unassigning an unassigned one, succeeds and changes nothing (and records no tag.added). */
export async function setTagAssignment(ctx: Context, assigned: boolean, input: z.input<typeof assignmentInput>) {
  const { workspaceId } = requireActor(ctx);
  const { customer_id, tag_id } = parseInput(assignmentInput, input);
  const [contact, tag] = await Promise.all([
    ctx.prisma.customer.findFirst({ where: { id: customer_id, company_id: workspaceId }, select: { id: true } }),
    ctx.prisma.tag.findFirst({ where: { id: tag_id, company_id: workspaceId }, select: { id: true, name: true } }),
  ]);
  if (!contact) throw notFound('Customer');
  if (!tag) throw notFound('Tag');
  if (assigned) await ctx.prisma.$transaction((tx) => addTagToContact(tx, workspaceId, customer_id, tag));
  else await ctx.prisma.customerTag.deleteMany({ where: { customer_id, tag_id } });
  return { customer_id, tag_id, assigned };
}

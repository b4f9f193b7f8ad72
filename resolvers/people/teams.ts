// Teams of people of the workspace: named groups among whom automations assign conversations in turn, each
// person holding at most the team's `capacity` of open conversations (an assign action may say otherwise).
// Listed, created, renamed, deleted, and people added or removed; a removed person is no team's member.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { invalid, notFound } from '../shared/errors.js';
import { idInput, parseInput, uuid } from '../shared/validation.js';

type Query = { select?: Prisma.TeamSelect; include?: Prisma.TeamInclude };

export const MAX_TEAM_CAPACITY = 1000;

const name = z
  .string({ message: 'is required' })
  .trim()
  .min(1, { message: 'is required' })
  .max(100, { message: 'must be at most 100 characters' });
export const teamCapacity = z
  .number({ message: 'must be a whole number' })
  .int({ message: 'must be a whole number' })
  .min(1, { message: `must be between 1 and ${MAX_TEAM_CAPACITY}` })
  .max(MAX_TEAM_CAPACITY, { message: `must be between 1 and ${MAX_TEAM_CAPACITY}` });

const createInput = z.object({ name, capacity: teamCapacity.nullish() });
const updateInput = z.object({ id: uuid, name: name.nullish(), capacity: teamCapacity.nullish() });
const memberInput = z.object({ id: uuid, user_id: uuid });

async function findTeam(ctx: Context, id: string, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const team = await ctx.prisma.team.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!team) throw notFound('Team');
  return team;
}

export function listTeams(ctx: Context, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  return ctx.prisma.team.findMany({ ...query, where: { company_id: workspaceId }, orderBy: { name: 'asc' } });
}

export function getTeam(ctx: Context, input: { id: string }, query: Query = {}) {
  return findTeam(ctx, parseInput(idInput, input).id, query);
}

export async function createTeam(ctx: Context, input: Record<string, unknown>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const values = parseInput(createInput, input);
  return ctx.prisma.team.create({
    ...query,
    data: { company_id: workspaceId, name: values.name, capacity: values.capacity ?? undefined },
  });
}

export async function updateTeam(ctx: Context, input: Record<string, unknown>, query: Query = {}) {
  const { id, ...changes } = parseInput(updateInput, input);
  await findTeam(ctx, id);
  return ctx.prisma.team.update({
    ...query,
    where: { id },
    data: { name: changes.name ?? undefined, capacity: changes.capacity ?? undefined },
  });
}

/** Deletes the team; conversations waiting for its round robin stop waiting (they stay unassigned). */
export async function deleteTeam(ctx: Context, input: { id: string }, query: Query = {}) {
  const { id } = parseInput(idInput, input);
  const team = await findTeam(ctx, id, query);
  await ctx.prisma.team.delete({ where: { id } });
  return team;
}

/** Adds an active person of the workspace to the team; adding a member again changes nothing. */
export async function addTeamMember(ctx: Context, input: Record<string, unknown>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id, user_id } = parseInput(memberInput, input);
  await findTeam(ctx, id);
  const person = await ctx.prisma.user.findFirst({
    where: { id: user_id, company_id: workspaceId, status: 'active' },
    select: { id: true },
  });
  if (!person) throw invalid({ user_id: 'must be the id of an active person of this workspace' });
  await ctx.prisma.teamMember.createMany({ data: [{ team_id: id, user_id }], skipDuplicates: true });
  return findTeam(ctx, id, query);
}

/** Takes a person out of the team; their conversations stay assigned to them. */
export async function removeTeamMember(ctx: Context, input: Record<string, unknown>, query: Query = {}) {
  const { id, user_id } = parseInput(memberInput, input);
  await findTeam(ctx, id);
  const removed = await ctx.prisma.teamMember.deleteMany({ where: { team_id: id, user_id } });
  if (removed.count === 0) throw notFound('Team member');
  return findTeam(ctx, id, query);
}

/** The team's members (people still active), by name. */
export function teamMembers(ctx: Context, teamId: string) {
  return ctx.prisma.user.findMany({
    where: { team_memberships: { some: { team_id: teamId } }, status: 'active' },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
}

/** How many conversations wait for a free slot of the team's round robin. */
export function waitingCount(ctx: Context, teamId: string) {
  return ctx.prisma.assignmentWait.count({ where: { team_id: teamId } });
}

// The team: who the signed-in person is, inviting people by one-time link, changing roles, removing people and
// changing one's own password. Owners and admins manage the team (the `team` permission); only an owner makes
// or unmakes owners, and a workspace always keeps one owner.
import { z } from 'zod';
import { randomToken, sha256Hex } from '../../infra/crypto/tokens.js';
import type { Actor, Context, Db } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError, invalid, notFound } from '../shared/errors.js';
import { parseInput, uuid } from '../shared/validation.js';
import { hashPassword, passwordInput, verifyPassword } from './passwords.js';
import { ROLES, type Role } from '../workspace/roles.js';
import { announceKeyChange } from '../workspace/keyChanges.js';
import { closeSessionsOf } from './sessions.js';

type Query = { select?: object; include?: object };

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const role = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });

/** The person behind the request (a key's creator for a key), with the workspace and what the caller may do. */
export async function viewer(ctx: Context) {
  const actor = requireActor(ctx);
  const [user, workspace] = await Promise.all([
    actor.userId ? ctx.prisma.user.findFirst({ where: { id: actor.userId, company_id: actor.workspaceId } }) : null,
    ctx.prisma.workspace.findUniqueOrThrow({ where: { id: actor.workspaceId } }),
  ]);
  return { user, workspace, scopes: [...actor.scopes].sort(), via: actor.session ? 'session' : 'api_key' };
}

function requireRole(actor: Actor): Role {
  const held = actor.session?.role;
  if (held !== 'owner' && held !== 'admin' && held !== 'member') throw new DomainError('FORBIDDEN', 'Only a signed-in person can do this');
  return held;
}

/** Only an owner hands out or takes away the owner role. */
function assertMayGrant(actor: Actor, wanted: Role, current?: string) {
  if ((wanted === 'owner' || current === 'owner') && requireRole(actor) !== 'owner') {
    throw new DomainError('FORBIDDEN', 'Only an owner can make or change an owner');
  }
}

const inviteInput = z.object({ email: z.string().trim().toLowerCase().email({ message: 'must be an email address' }).max(320), role });

/** A one-time invitation link for `email` with `role`, valid INVITATION_TTL_MS; earlier open invitations to it end. */
export async function inviteUser(ctx: Context, input: { email: string; role: string }) {
  const actor = requireActor(ctx);
  const values = parseInput(inviteInput, input);
  assertMayGrant(actor, values.role);
  const member = await ctx.prisma.user.findFirst({
    where: { company_id: actor.workspaceId, email: values.email, status: 'active' },
    select: { id: true },
  });
  if (member)
    throw new DomainError('CONFLICT', 'This e-mail address is already a member of the workspace', { email: 'is already a member' });
  const token = randomToken(24);
  const invitation = await ctx.prisma.$transaction(async (tx) => {
    await tx.invitation.updateMany({
      where: { company_id: actor.workspaceId, email: values.email, accepted_at: null, revoked_at: null },
      data: { revoked_at: new Date() },
    });
    return tx.invitation.create({
      data: {
        company_id: actor.workspaceId,
        email: values.email,
        role: values.role,
        token_hash: sha256Hex(token),
        invited_by_user_id: actor.userId,
        expires_at: new Date(Date.now() + INVITATION_TTL_MS),
      },
    });
  });
  return { invitation, url: ctx.publicUrls.invitation(token) };
}

/** Invitations not yet accepted, revoked or expired, newest first. */
export function listInvitations(ctx: Context, query: { select?: object; include?: object } = {}) {
  const { workspaceId } = requireActor(ctx);
  return ctx.prisma.invitation.findMany({
    ...query,
    where: { company_id: workspaceId, accepted_at: null, revoked_at: null, expires_at: { gt: new Date() } },
    orderBy: { id: 'desc' },
  });
}

export async function revokeInvitation(ctx: Context, id: string) {
  const { workspaceId } = requireActor(ctx);
  const invitationId = parseInput(uuid, id);
  const invitation = await ctx.prisma.invitation.findFirst({ where: { id: invitationId, company_id: workspaceId } });
  if (!invitation) throw notFound('Invitation');
  if (invitation.accepted_at) throw new DomainError('CONFLICT', 'This invitation was accepted already');
  return ctx.prisma.invitation.update({ where: { id: invitation.id }, data: { revoked_at: invitation.revoked_at ?? new Date() } });
}

async function teamMember(ctx: Context, id: string) {
  const { workspaceId } = requireActor(ctx);
  const user = await ctx.prisma.user.findFirst({ where: { id: parseInput(uuid, id), company_id: workspaceId, status: 'active' } });
  if (!user) throw notFound('User');
  return user;
}

async function assertAnotherOwner(ctx: Context, workspaceId: string, userId: string) {
  const owners = await ctx.prisma.user.count({ where: { company_id: workspaceId, role: 'owner', status: 'active', id: { not: userId } } });
  if (owners === 0) throw new DomainError('CONFLICT', 'A workspace keeps at least one owner: make someone else owner first');
}

/** Changes a person's role; their sessions and keys follow at their next request, on every instance. */
export async function updateUserRole(ctx: Context, input: { id: string; role: string }, query: Query = {}) {
  const actor = requireActor(ctx);
  const wanted = parseInput(role, input.role);
  const user = await teamMember(ctx, input.id);
  assertMayGrant(actor, wanted, user.role);
  if (user.role === 'owner' && wanted !== 'owner') await assertAnotherOwner(ctx, actor.workspaceId, user.id);
  const updated = await ctx.prisma.user.update({ ...query, where: { id: user.id }, data: { role: wanted } });
  await announceKeyChange(ctx.prisma, actor.workspaceId);
  return updated;
}

/**
 * Removes a person from the team: signed out everywhere, their keys stop working (keys act within their
 * creator's role), their name stays on what they wrote. Inviting them again brings them back.
 */
export async function removeUser(ctx: Context, id: string, query: Query = {}) {
  const actor = requireActor(ctx);
  const user = await teamMember(ctx, id);
  assertMayGrant(actor, 'member', user.role);
  if (user.role === 'owner') await assertAnotherOwner(ctx, actor.workspaceId, user.id);
  return ctx.prisma.$transaction(async (tx) => {
    await closeSessionsOf(tx, user.id);
    // Told at commit: the person's keys stop on every instance at once.
    await announceKeyChange(tx, actor.workspaceId);
    return tx.user.update({ ...query, where: { id: user.id }, data: { status: 'removed', password_hash: null } });
  });
}

const passwordChangeInput = z.object({ current_password: z.string().max(200), new_password: passwordInput });

/** Changes the signed-in person's password and ends their other sessions. */
export async function changePassword(ctx: Context, input: { current_password: string; new_password: string }): Promise<boolean> {
  const actor = requireActor(ctx);
  requireRole(actor);
  const values = parseInput(passwordChangeInput, input);
  const user = await ctx.prisma.user.findUniqueOrThrow({ where: { id: actor.userId ?? '' }, select: { id: true, password_hash: true } });
  if (!(await verifyPassword(values.current_password, user.password_hash))) {
    throw invalid({ current_password: 'is not your current password' });
  }
  const passwordHash = await hashPassword(values.new_password);
  await ctx.prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { password_hash: passwordHash, password_changed_at: new Date() } });
    await closeSessionsOf(tx, user.id, actor.session?.id);
  });
  return true;
}

const setPasswordInput = z.object({
  email: z.string().trim().toLowerCase().email({ message: 'must be an email address' }),
  workspace: uuid.optional(),
  password: passwordInput,
});

/** The operator's way in (`npm run cli -- user set-password`): sets a person's password and signs them out everywhere. */
export async function setPassword(db: Db, input: { email: string; workspace?: string | undefined; password: string }) {
  const values = parseInput(setPasswordInput, input);
  const people = await db.user.findMany({
    where: { email: values.email, status: 'active', ...(values.workspace ? { company_id: values.workspace } : {}) },
    select: { id: true, company_id: true },
  });
  if (people.length === 0) throw notFound('User');
  if (people.length > 1) throw invalid({ workspace: 'is required: this e-mail address is a member of several workspaces' });
  const [person] = people as [{ id: string; company_id: string }];
  await db.user.update({
    where: { id: person.id },
    data: { password_hash: await hashPassword(values.password), password_changed_at: new Date() },
  });
  await closeSessionsOf(db, person.id);
  return { user_id: person.id, workspace_id: person.company_id };
}

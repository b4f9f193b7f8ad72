// How a person gets a session: signing in with e-mail and password, the one-time setup link that creates the
// first workspace and its owner, and accepting an invitation. Each answers the session the transport turns into
// a cookie. Wrong e-mail and wrong password get the same answer in the same time (passwords.ts). Every attempt
// is counted here, per account and per client address, wherever it arrived: past either limit sign-in is
// RATE_LIMITED even with the right password (the counter: infra/limits/signInLimit.ts).
import { z } from 'zod';
import { randomToken, sha256Hex } from '../../infra/crypto/tokens.js';
import type { Context, Services } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import { hashPassword, passwordInput, verifyPassword } from './passwords.js';
import { openSession, type OpenedSession } from './sessions.js';
import { createWorkspaceIn } from '../workspace/workspaces.js';

const email = z.string().trim().toLowerCase().email({ message: 'must be an email address' }).max(320);
const personName = z.string().trim().min(1, { message: 'is required' }).max(200);

const signInInput = z.object({ email: z.string().trim().toLowerCase().max(320), password: z.string().max(200) });

const INVALID_SIGN_IN = 'Invalid e-mail or password';

/**
 * The person with this e-mail and password. An address may belong to people of several workspaces, each with
 * their own password: the newest matching account is signed in.
 */
export async function signIn(ctx: Context, input: { email: string; password: string }): Promise<OpenedSession> {
  const door = ctx.signInDoor;
  if (!door) throw new DomainError('FORBIDDEN', SIGN_IN_DOOR_ONLY);
  const { email: address, password } = parseInput(signInInput, input);
  const wait = await door.attempts.waitSeconds(address, door.clientAddress);
  if (wait > 0) {
    throw new DomainError('RATE_LIMITED', `Too many failed sign-ins; try again in ${wait} seconds`, { retry_after: wait });
  }
  try {
    const opened = await checkPassword(ctx, address, password);
    await door.attempts.succeeded(address);
    return opened;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'UNAUTHORIZED') await door.attempts.failed(address, door.clientAddress);
    throw error;
  }
}

/** What a caller outside the console's /auth routes is told when it asks for a sign-in field. */
export const SIGN_IN_DOOR_ONLY = 'Signing in, setting up and accepting invitations happen only through the console’s /auth routes';

async function checkPassword(ctx: Context, address: string, password: string): Promise<OpenedSession> {
  const candidates = await ctx.prisma.user.findMany({
    where: { email: address, status: 'active', password_hash: { not: null } },
    orderBy: { id: 'desc' },
    select: { id: true, company_id: true, password_hash: true },
  });
  if (candidates.length === 0) {
    await verifyPassword(password, null);
    throw new DomainError('UNAUTHORIZED', INVALID_SIGN_IN);
  }
  for (const candidate of candidates) {
    if (await verifyPassword(password, candidate.password_hash)) return openSession(ctx.prisma, candidate);
  }
  throw new DomainError('UNAUTHORIZED', INVALID_SIGN_IN);
}

export async function isSetupRequired(ctx: Pick<Services, 'prisma'>): Promise<boolean> {
  return (await ctx.prisma.workspace.count()) === 0;
}

/** A new setup token while no workspace exists (printed by `npm start`), else null. Earlier unused tokens stay valid. */
export async function issueSetupToken(services: Pick<Services, 'prisma'>): Promise<string | null> {
  if (!(await isSetupRequired(services))) return null;
  const token = randomToken(24);
  await services.prisma.setupToken.create({ data: { token_hash: sha256Hex(token) } });
  return token;
}

const setUpInput = z.object({
  token: z.string().min(1, { message: 'is required' }).max(200),
  workspace_name: z.string().trim().min(1, { message: 'is required' }).max(200),
  name: personName,
  email,
  password: passwordInput,
});

/** Serialises set-ups: two people racing with two printed links still make one first workspace. */
const SETUP_LOCK = 7_310_512;

/** The first session, with the sandbox integration's app secret: answered this once, as a created key is. */
export type SetUpSession = OpenedSession & { new_integration: { integration_id: string; app_secret: string } };

export async function setUp(
  ctx: Context,
  input: { token: string; workspace_name: string; name: string; email: string; password: string },
): Promise<SetUpSession> {
  const values = parseInput(setUpInput, input);
  const passwordHash = await hashPassword(values.password);
  return ctx.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`;
    const used = await tx.setupToken.updateMany({
      where: { token_hash: sha256Hex(values.token), used_at: null },
      data: { used_at: new Date() },
    });
    if (used.count === 0 || (await tx.workspace.count()) > 0) {
      throw new DomainError('FORBIDDEN', 'This setup link is not valid: it was used already, or the service is set up');
    }
    await tx.setupToken.updateMany({ where: { used_at: null }, data: { used_at: new Date() } });
    const created = await createWorkspaceIn(
      tx,
      ctx.secrets,
      { name: values.workspace_name, email: values.email, userName: values.name, passwordHash },
      { withKey: false },
    );
    const session = await openSession(tx, { id: created.user_id, company_id: created.workspace_id });
    return { ...session, new_integration: { integration_id: created.integration_id, app_secret: created.app_secret } };
  });
}

const acceptInput = z.object({ token: z.string().min(1, { message: 'is required' }).max(200), name: personName, password: passwordInput });

/** Joins the invited person to the workspace with the invitation's role (again, if they had been removed). */
export async function acceptInvitation(ctx: Context, input: { token: string; name: string; password: string }): Promise<OpenedSession> {
  const values = parseInput(acceptInput, input);
  const passwordHash = await hashPassword(values.password);
  return ctx.prisma.$transaction(async (tx) => {
    const invitation = await tx.invitation.findUnique({ where: { token_hash: sha256Hex(values.token) } });
    const now = new Date();
    if (!invitation || invitation.accepted_at || invitation.revoked_at || invitation.expires_at <= now) {
      throw new DomainError('FORBIDDEN', 'This invitation link is not valid: it was used, revoked or has expired');
    }
    const accepted = await tx.invitation.updateMany({ where: { id: invitation.id, accepted_at: null }, data: { accepted_at: now } });
    if (accepted.count === 0) throw new DomainError('FORBIDDEN', 'This invitation link was used already');
    const existing = await tx.user.findUnique({
      where: { company_id_email: { company_id: invitation.company_id, email: invitation.email } },
      select: { status: true },
    });
    if (existing?.status === 'active') throw new DomainError('CONFLICT', 'This e-mail address is already a member of the workspace');
    const person = {
      name: values.name,
      role: invitation.role,
      status: 'active',
      password_hash: passwordHash,
      password_changed_at: now,
    };
    const user = await tx.user.upsert({
      where: { company_id_email: { company_id: invitation.company_id, email: invitation.email } },
      create: { company_id: invitation.company_id, email: invitation.email, ...person },
      update: person,
      select: { id: true, company_id: true },
    });
    return openSession(tx, user);
  });
}

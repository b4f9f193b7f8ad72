// Round-robin assignment among a team's people: the next person is the one online (not away), still active, with
// fewer open (not closed) conversations than the capacity, whose last assignment by this team is the oldest. When
// nobody has a free slot the conversation waits (assignment_waits, one row per conversation) and the automations
// worker assigns it when a slot frees: a conversation of a member closes or is unassigned, or a member comes online.
// Locks are always taken in one order (conversation, then team, then the waiting row), so concurrent runs and
// workers never deadlock; the team's lock makes picks for one team take turns, so no one passes the capacity, and
// a waiting row is assigned and deleted in one transaction under its lock, so exactly once.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { Db } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { changeInTransaction } from '../conversations/changes.js';
import { conversationViewSelect } from '../shared/views.js';

export type RoundRobin = { workspaceId: string; conversationId: string; teamId: string; capacity: number | null };

/** Locks the conversation and then the team; the team's capacity, or null when it is not a team of the workspace. */
async function lockInOrder(tx: Db, turn: RoundRobin): Promise<number | null> {
  await tx.$executeRaw`SELECT 1 FROM conversations WHERE id = ${turn.conversationId}::uuid FOR UPDATE`;
  const [team] = await tx.$queryRaw<{ capacity: number }[]>`
    SELECT capacity FROM teams WHERE id = ${turn.teamId}::uuid AND company_id = ${turn.workspaceId}::uuid FOR UPDATE`;
  return team?.capacity ?? null;
}

/** The member whose turn it is, under the team's lock; null when nobody online has a free slot. */
async function nextInTurn(tx: Db, turn: RoundRobin, capacity: number): Promise<string | null> {
  const [next] = await tx.$queryRaw<{ user_id: string }[]>`
    SELECT member.user_id::text AS user_id
    FROM team_members member JOIN users person ON person.id = member.user_id
    WHERE member.team_id = ${turn.teamId}::uuid AND person.status = 'active' AND person.availability = 'online'
      AND (SELECT count(*) FROM conversations held
           WHERE held.company_id = ${turn.workspaceId}::uuid AND held.assigned_user_id = member.user_id
             AND held.status <> 'closed') < ${capacity}
    ORDER BY member.last_assigned_at ASC NULLS FIRST, member.created_at ASC, member.user_id ASC
    LIMIT 1`;
  return next?.user_id ?? null;
}

async function assignTo(tx: Db, turn: RoundRobin, userId: string, now: Date) {
  await changeInTransaction(tx, turn.workspaceId, turn.conversationId, (inner) =>
    inner.conversation.update({
      where: { id: turn.conversationId },
      data: { assigned_user_id: userId },
      select: conversationViewSelect,
    }),
  );
  await tx.teamMember.update({ where: { team_id_user_id: { team_id: turn.teamId, user_id: userId } }, data: { last_assigned_at: now } });
  await tx.assignmentWait.deleteMany({ where: { conversation_id: turn.conversationId } });
}

/** The assign action's round robin, in the run's transaction: assigns the conversation, or leaves it waiting. */
export async function assignInTurn(tx: Db, turn: RoundRobin, now: Date): Promise<void> {
  const teamCapacity = await lockInOrder(tx, turn);
  if (teamCapacity === null) throw new DomainError('VALIDATION_ERROR', 'The team to assign in turn is not a team of this workspace');
  const next = await nextInTurn(tx, turn, turn.capacity ?? teamCapacity);
  if (next) return assignTo(tx, turn, next, now);
  await tx.assignmentWait.upsert({
    where: { conversation_id: turn.conversationId },
    create: { company_id: turn.workspaceId, conversation_id: turn.conversationId, team_id: turn.teamId, capacity: turn.capacity },
    update: { team_id: turn.teamId, capacity: turn.capacity },
  });
}

type Waiting = { id: string; company_id: string; conversation_id: string; team_id: string; capacity: number | null };

/** Waiting conversations, oldest first, whose team has a member online with a free slot now. */
function assignableWaits(prisma: PrismaClient, limit: number) {
  return prisma.$queryRaw<Waiting[]>`
    SELECT wait.id::text AS id, wait.company_id::text AS company_id, wait.conversation_id::text AS conversation_id,
           wait.team_id::text AS team_id, wait.capacity
    FROM assignment_waits wait JOIN teams team ON team.id = wait.team_id
    WHERE EXISTS (
      SELECT 1 FROM team_members member JOIN users person ON person.id = member.user_id
      WHERE member.team_id = wait.team_id AND person.status = 'active' AND person.availability = 'online'
        AND (SELECT count(*) FROM conversations held
             WHERE held.company_id = wait.company_id AND held.assigned_user_id = member.user_id
               AND held.status <> 'closed') < COALESCE(wait.capacity, team.capacity))
    ORDER BY wait.id
    LIMIT ${limit}::int`;
}

/** Assigns one waiting conversation if it still waits and a member has a slot; a conversation closed or assigned
 * meanwhile stops waiting. Another worker holding the conversation makes this one pass it by. */
async function assignWaiting(prisma: PrismaClient, wait: Waiting, now: Date): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const [conversation] = await tx.$queryRaw<{ status: string; assigned_user_id: string | null }[]>`
      SELECT status, assigned_user_id::text AS assigned_user_id FROM conversations
      WHERE id = ${wait.conversation_id}::uuid FOR UPDATE SKIP LOCKED`;
    if (!conversation) return false;
    const turn = { workspaceId: wait.company_id, conversationId: wait.conversation_id, teamId: wait.team_id, capacity: wait.capacity };
    const teamCapacity = await lockInOrder(tx, turn);
    const still = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM assignment_waits WHERE id = ${wait.id}::uuid FOR UPDATE`;
    if (still.length === 0 || teamCapacity === null) return false;
    if (conversation.status === 'closed' || conversation.assigned_user_id !== null) {
      await tx.assignmentWait.delete({ where: { id: wait.id } });
      return false;
    }
    const next = await nextInTurn(tx, turn, wait.capacity ?? teamCapacity);
    if (!next) return false;
    await assignTo(tx, turn, next, now);
    return true;
  });
}

/** One pass over the waiting conversations that a free slot could take; how many were assigned. */
export async function assignWaitingConversations(prisma: PrismaClient, now: Date, limit = 20): Promise<number> {
  let assigned = 0;
  for (const wait of await assignableWaits(prisma, limit)) if (await assignWaiting(prisma, wait, now)) assigned++;
  return assigned;
}

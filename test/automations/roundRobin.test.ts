// Round-robin assignment by an automation, with two workers sharing the database: over three people with
// capacity 2, seven new conversations are assigned 2-2-2 and the seventh waits, exactly once, until a slot frees;
// then it goes to the person whose slot freed. A person who is away is skipped. A snooze makes the conversation
// pending until its time on the rules' clock, then active again.
import { describe, expect, it } from 'vitest';
import { openAutomationWorld } from '../support/automations.js';
import { getJson, postJson, sendJson } from '../support/restFixtures.js';
import { createApiKey } from '../../resolvers/workspace/apiKeys.js';
import type { MessagingWorkspace } from '../support/messaging.js';

const { world, prisma, startWorker, rule, contact, say, conversationOf, harness } = await openAutomationWorld();
let now = Date.now();
const clock = () => new Date(now);
startWorker({ clock });
startWorker({ clock });

/** Three people of the workspace in a team of capacity 2, each with a key of their own for their availability. */
async function supportTeam(ws: MessagingWorkspace) {
  const people = [];
  for (const name of ['Ana', 'Bea', 'Cid']) {
    const user = await prisma.user.create({ data: { company_id: ws.workspaceId, name, email: `${name}-${now}@example.com` } });
    const { api_key } = await createApiKey(prisma, { workspaceId: ws.workspaceId, userId: user.id, scopes: ['users'] });
    people.push({ id: user.id, key: api_key });
  }
  const team = await postJson(harness, '/api/v1/teams', ws.apiKey, { name: 'Support', capacity: 2 });
  expect(team.status).toBe(201);
  const teamId = (team.body as { id: string }).id;
  for (const person of people)
    expect((await sendJson(harness, 'PUT', `/api/v1/teams/${teamId}/members/${person.id}`, ws.apiKey)).status).toBe(200);
  await rule(ws, {
    name: 'In turn',
    trigger: { event: 'conversation.created' },
    actions: [{ type: 'assign', team_id: teamId, strategy: 'round_robin' }],
  });
  return { people, teamId };
}

const heldBy = async (ws: MessagingWorkspace) => {
  const rows = await prisma.conversation.groupBy({
    by: ['assigned_user_id'],
    where: { company_id: ws.workspaceId },
    _count: { _all: true },
  });
  return new Map(rows.map((row) => [row.assigned_user_id, row._count._all]));
};

describe('round robin among a team', () => {
  it('assigns 7 conversations 2-2-2, keeps 1 waiting, and gives it to the person whose slot freed', async () => {
    const ws = await world.workspace();
    const { people, teamId } = await supportTeam(ws);
    const contacts = Array.from({ length: 7 }, () => contact());
    for (const from of contacts) await say(ws, from, 'Hello');
    await expect.poll(async () => await prisma.assignmentWait.count({ where: { team_id: teamId } }), { timeout: 15_000 }).toBe(1);
    const held = await heldBy(ws);
    expect(people.map((person) => held.get(person.id))).toEqual([2, 2, 2]);
    expect(held.get(null)).toBe(1);
    expect(((await getJson(harness, `/api/v1/teams/${teamId}`, { key: ws.apiKey })).body as { waiting_count: number }).waiting_count).toBe(
      1,
    );

    const waiting = await prisma.assignmentWait.findFirstOrThrow({ where: { team_id: teamId } });
    const freed = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId, assigned_user_id: people[1]!.id } });
    expect((await postJson(harness, `/api/v1/conversations/${freed.id}/close`, ws.apiKey, {})).status).toBe(200);
    await expect
      .poll(async () => (await prisma.conversation.findUniqueOrThrow({ where: { id: waiting.conversation_id } })).assigned_user_id, {
        timeout: 10_000,
      })
      .toBe(people[1]!.id);
    expect(await prisma.assignmentWait.count({ where: { team_id: teamId } })).toBe(0);
    // Assigned once: one conversation.updated announcing the assignment of the waiting conversation.
    const announced = await prisma.event.findMany({ where: { company_id: ws.workspaceId, type: 'conversation.updated' } });
    expect(
      announced.filter((event) => event.body.includes(waiting.conversation_id) && event.body.includes('assigned_user_id')),
    ).toHaveLength(1);
  });

  it('skips a person who is away', async () => {
    const ws = await world.workspace();
    const { people } = await supportTeam(ws);
    const away = await sendJson(harness, 'PUT', '/api/v1/users/me/availability', people[0]!.key, { availability: 'away' });
    expect(away.status).toBe(200);
    expect(away.body).toMatchObject({ id: people[0]!.id, availability: 'away' });
    const contacts = [contact(), contact(), contact(), contact()];
    for (const from of contacts) await say(ws, from, 'Hi');
    await expect.poll(async () => (await heldBy(ws)).get(null) ?? 0, { timeout: 15_000 }).toBe(0);
    const held = await heldBy(ws);
    expect(people.map((person) => held.get(person.id) ?? 0)).toEqual([0, 2, 2]);
  });
});

describe('snoozing', () => {
  it('makes the conversation pending until the snooze ends on the rules’ clock, then active again', async () => {
    const ws = await world.workspace();
    await rule(ws, {
      name: 'Later',
      trigger: { event: 'conversation.created' },
      actions: [{ type: 'set_status', status: 'snoozed', until: 'PT1H' }],
    });
    const from = contact();
    await say(ws, from, 'Call me back');
    await expect.poll(async () => (await conversationOf(ws, from)).status, { timeout: 10_000 }).toBe('pending');
    expect((await conversationOf(ws, from)).snoozed_until?.getTime()).toBeGreaterThan(now + 59 * 60_000);
    now += 61 * 60_000;
    await expect.poll(async () => (await conversationOf(ws, from)).status, { timeout: 10_000 }).toBe('active');
    expect((await conversationOf(ws, from)).snoozed_until).toBeNull();
  });
});

// Teams on REST and GraphQL: created, listed with members and their availability, renamed, members added and
// removed (people of the workspace only), deleted; names unique (409); another workspace's team is 404; reading
// needs `users` or `settings`, changing needs `settings` (owners and admins). A person sets their own availability.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { getJson, sendJson } from '../support/restFixtures.js';
import { asPerson, invitePerson, ownerSession } from '../support/people.js';

const harness = await openHarness();

describe('teams', () => {
  it('are created, listed with members, changed, and deleted', async () => {
    const ws = await harness.workspace();
    const created = await sendJson(harness, 'POST', '/api/v1/teams', ws.api_key, { name: 'Billing' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Billing', capacity: 10, members: [], waiting_count: 0 });
    const id = created.body.id as string;
    expect((await sendJson(harness, 'POST', '/api/v1/teams', ws.api_key, { name: 'Billing' })).status).toBe(409);
    const added = await sendJson(harness, 'PUT', `/api/v1/teams/${id}/members/${ws.user_id}`, ws.api_key);
    expect(added.status).toBe(200);
    expect(added.body.members).toEqual([{ id: ws.user_id, name: null, email: expect.any(String), availability: 'online' }]);
    const stranger = await sendJson(harness, 'PUT', `/api/v1/teams/${id}/members/0190aaaa-0000-7000-8000-000000000000`, ws.api_key);
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.details).toEqual({ user_id: 'must be the id of an active person of this workspace' });
    const changed = await sendJson(harness, 'PATCH', `/api/v1/teams/${id}`, ws.api_key, { name: 'Billing EU', capacity: 3 });
    expect(changed.body).toMatchObject({ name: 'Billing EU', capacity: 3 });
    expect((await sendJson(harness, 'PATCH', `/api/v1/teams/${id}`, ws.api_key, { capacity: 0 })).body.error.details).toEqual({
      capacity: 'must be between 1 and 1000',
    });
    const listed = await getJson(harness, '/api/v1/teams', { key: ws.api_key });
    expect(listed.body.map((team: { name: string }) => team.name)).toEqual(['Billing EU']);
    const other = await harness.workspace();
    expect((await getJson(harness, `/api/v1/teams/${id}`, { key: other.api_key })).status).toBe(404);
    expect((await sendJson(harness, 'DELETE', `/api/v1/teams/${id}/members/${ws.user_id}`, ws.api_key)).body.members).toEqual([]);
    expect((await sendJson(harness, 'DELETE', `/api/v1/teams/${id}`, ws.api_key)).status).toBe(200);
    expect((await getJson(harness, `/api/v1/teams/${id}`, { key: ws.api_key })).status).toBe(404);
  });

  it('are read with users or settings, changed only with settings: a member reads but cannot change them', async () => {
    const ws = await harness.workspace();
    expect((await getJson(harness, '/api/v1/teams')).status).toBe(401);
    const tagsOnly = await harness.key(ws.workspace_id, ['tags']);
    expect((await getJson(harness, '/api/v1/teams', { key: tagsOnly })).status).toBe(403);
    const usersOnly = await harness.key(ws.workspace_id, ['users']);
    expect((await getJson(harness, '/api/v1/teams', { key: usersOnly })).status).toBe(200);
    expect((await sendJson(harness, 'POST', '/api/v1/teams', usersOnly, { name: 'Nope' })).status).toBe(403);
    const owner = await ownerSession(harness, ws);
    const member = await invitePerson(harness, owner, `member-${Date.now()}@example.com`, 'member');
    expect((await asPerson(harness, member, '{ teams { id } }')).body.data.teams).toEqual([]);
    const refused = await asPerson(harness, member, 'mutation { teamCreate(name: "Mine") { id } }');
    expect(refused.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect((await asPerson(harness, owner, 'mutation { teamCreate(name: "Ours") { name } }')).body.data.teamCreate).toEqual({
      name: 'Ours',
    });
  });
});

describe('availability', () => {
  it('is set by each person for themselves, and refused when not online or away', async () => {
    const ws = await harness.workspace();
    const owner = await ownerSession(harness, ws);
    const member = await invitePerson(harness, owner, `away-${Date.now()}@example.com`, 'member');
    const set = await asPerson(harness, member, 'mutation { availabilityUpdate(availability: "away") { id availability } }');
    expect(set.body.data.availabilityUpdate).toMatchObject({ availability: 'away' });
    const bad = await sendJson(harness, 'PUT', '/api/v1/users/me/availability', ws.api_key, { availability: 'asleep' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ availability: 'must be one of online, away' });
    const mine = await sendJson(harness, 'PUT', '/api/v1/users/me/availability', ws.api_key, { availability: 'away' });
    expect(mine.body).toMatchObject({ id: ws.user_id, availability: 'away' });
  });
});

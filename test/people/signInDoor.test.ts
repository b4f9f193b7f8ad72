// Sign-in has one door (issue 34 point 1): the sign-in mutations run only through the console's /auth routes.
// Through /graphql, with any workspace's key or a signed-in cookie, they are refused before anything runs (403),
// so a hundred aliased guesses get no token, open no session and count as no success; the lock-out counts every
// attempt in the resolver; a request checks one password at most (aliases refused 400), and batches are refused.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { asPerson, ownerSession, PASSWORD, postAuth } from '../support/people.js';

const harness = await openHarness({ apiKeyCacheSeconds: 0 });
const victim = await harness.workspace('Victim');
const attacker = await harness.workspace('Attacker');
const owner = await ownerSession(harness, victim);
const email: string = owner.body.user.email;

async function postGraphQL(headers: Record<string, string>, body: unknown) {
  const response = await harness.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const sessionsOf = () => harness.db.prisma.userSession.count({ where: { company_id: victim.workspace_id } });

describe('the sign-in fields through /graphql', () => {
  it('refuses 100 aliased guesses, the right password among them, sent with another workspace’s contacts:read key', async () => {
    const key = await harness.key(attacker.workspace_id, ['contacts:read']);
    // Four failures through the door: one more makes the lock-out.
    for (let failure = 0; failure < 4; failure++) {
      expect((await postAuth(harness, '/auth/sign-in', { email, password: `wrong ${failure}` })).status).toBe(401);
    }
    const before = await sessionsOf();
    const guesses = Array.from(
      { length: 100 },
      (_, index) => `g${index}: signIn(email: $email, password: "${index === 57 ? PASSWORD : `guess ${index}`}") { token }`,
    );
    const answer = await postGraphQL(
      { authorization: `Bearer ${key}` },
      { query: `mutation($email: String!) { ${guesses.join(' ')} }`, variables: { email } },
    );
    expect(answer.status).toBe(403);
    expect(answer.text).not.toMatch(/"token"/);
    expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await sessionsOf()).toBe(before);
    // The right guess was not a success that cleared the count: the fifth failure through the door locks.
    expect((await postAuth(harness, '/auth/sign-in', { email, password: 'wrong 4' })).status).toBe(401);
    const locked = await postAuth(harness, '/auth/sign-in', { email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await locked.json()).error).toMatchObject({ code: 'RATE_LIMITED', request_id: expect.any(String) });
  });

  it.each([
    ['signIn', 'mutation { signIn(email: "a@example.com", password: "p") { token } }'],
    ['setUp', 'mutation { setUp(token: "t", workspace_name: "W", name: "N", email: "a@example.com", password: "0123456789") { token } }'],
    ['invitationAccept', 'mutation { invitationAccept(token: "t", name: "N", password: "0123456789") { token } }'],
    ['signOut', 'mutation { signOut(token: "t") }'],
  ])('refuses %s with a key and with a signed-in cookie', async (_field, query) => {
    const withKey = await postGraphQL({ authorization: `Bearer ${victim.api_key}` }, { query });
    expect(withKey.status).toBe(403);
    expect(JSON.parse(withKey.text).errors[0].extensions.code).toBe('FORBIDDEN');
    const withCookie = await asPerson(harness, owner, query);
    expect(withCookie.status).toBe(403);
    expect(withCookie.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('refuses a batch of operations, and a request that checks the password twice', async () => {
    const batch = await postGraphQL({ authorization: `Bearer ${victim.api_key}` }, [
      { query: '{ viewer { via } }' },
      { query: '{ viewer { via } }' },
    ]);
    expect(batch.status).toBe(400);
    const twice = await asPerson(
      harness,
      owner,
      'mutation { a: passwordChange(current_password: "guess one", new_password: "a new password") b: passwordChange(current_password: "guess two", new_password: "a new password") }',
    );
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    // A key never changes a password.
    const withKey = await postGraphQL(
      { authorization: `Bearer ${victim.api_key}` },
      { query: 'mutation { passwordChange(current_password: "x", new_password: "a new password") }' },
    );
    expect(JSON.parse(withKey.text).errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

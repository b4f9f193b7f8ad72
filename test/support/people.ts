// People in tests, as a browser would be: a cookie jar of one session with its CSRF token, signing in through
// /auth, and GraphQL calls carrying both. Owners of harness workspaces get a password the operator's way
// (`user set-password`, resolvers/people/team.ts).
import { expect } from 'vitest';
import type { Harness } from './harness.js';
import { setPassword } from '../../resolvers/people/team.js';

export const ORIGIN = 'http://service.test';
export const PASSWORD = 'correct horse battery';

export type Browser = { cookie: string; csrf: string; body: Record<string, any> };

function cookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  const pair = header.split(';')[0] ?? '';
  expect(pair).toMatch(/^mcrm_session=.+/);
  return pair;
}

export async function postAuth(harness: Harness, path: string, body: unknown, headers: Record<string, string> = {}) {
  return harness.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers },
    body: JSON.stringify(body),
  });
}

/** Signs in and keeps the session as a browser would (the cookie) and as the console does (the CSRF token). */
export async function signIn(harness: Harness, email: string, password = PASSWORD): Promise<Browser> {
  const response = await postAuth(harness, '/auth/sign-in', { email, password });
  expect(response.status, await response.clone().text()).toBe(200);
  const body = await response.json();
  return { cookie: cookieOf(response), csrf: body.csrf_token, body };
}

/** The session opened by a successful /auth answer (setup, invitation). */
export async function sessionFrom(response: Response, status = 201): Promise<Browser> {
  expect(response.status, await response.clone().text()).toBe(status);
  const body = await response.json();
  return { cookie: cookieOf(response), csrf: body.csrf_token, body };
}

export async function ownerSession(harness: Harness, workspace: { workspace_id: string }): Promise<Browser> {
  const owner = await harness.db.prisma.user.findFirstOrThrow({ where: { company_id: workspace.workspace_id, role: 'owner' } });
  await setPassword(harness.db.prisma, { email: owner.email, workspace: workspace.workspace_id, password: PASSWORD });
  return signIn(harness, owner.email);
}

/** A GraphQL call as the console makes it: the cookie, and the CSRF token unless `csrf` is false. */
export async function asPerson(
  harness: Harness,
  browser: Browser,
  query: string,
  variables?: Record<string, unknown>,
  options: { csrf?: boolean } = {},
) {
  const response = await harness.fetch('/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: browser.cookie,
      ...(options.csrf === false ? {} : { 'x-csrf-token': browser.csrf }),
    },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any; error?: any } };
}

/** Invites `email` with `role` as `inviter` and accepts the link: the new person's session. */
export async function invitePerson(harness: Harness, inviter: Browser, email: string, role: string): Promise<Browser> {
  const invited = await asPerson(harness, inviter, 'mutation($e: String!, $r: String!) { userInvite(email: $e, role: $r) { url } }', {
    e: email,
    r: role,
  });
  expect(invited.body.errors ?? []).toEqual([]);
  const token = new URL(invited.body.data.userInvite.url).hash.slice(1);
  return sessionFrom(await postAuth(harness, '/auth/invitations/accept', { token, name: `Person ${role}`, password: PASSWORD }));
}

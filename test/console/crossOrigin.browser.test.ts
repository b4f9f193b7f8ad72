// No cross-origin credentials, in Chromium (issue 34 point 2): a page served on another port of the same host (the
// same site, so the browser sends the SameSite=Lax cookie along) cannot read /auth/session or /graphql as the
// signed-in person, and none of its attempts to act as them succeeds: a credentialed fetch, one guessing the CSRF
// header, GraphQL over GET, a form post. The person's own console keeps working.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { openBrowserOn, type BrowserSession } from '../support/browser.js';
import { ownerSession, PASSWORD } from '../support/people.js';

const harness = await openHarness();
const acme = await harness.workspace('Acme');
const owner = await ownerSession(harness, acme);
let session: BrowserSession;
let attackerOrigin: string;
const attacker = createServer((_request, response) => {
  response.setHeader('content-type', 'text/html');
  response.end('<!doctype html><title>Another port</title>');
});

beforeAll(async () => {
  session = await openBrowserOn(harness);
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => attacker.close(resolve));
});

const invitations = () => harness.db.prisma.invitation.count({ where: { company_id: acme.workspace_id } });

describe('a page on another port of the same host', () => {
  it('reads nothing and changes nothing with the signed-in person’s cookie', async () => {
    const context = await session.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${session.origin}/sign-in`);
    const signedIn = await page.evaluate(
      async (body) => {
        const response = await fetch('/auth/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        return response.status;
      },
      JSON.stringify({ email: owner.body.user.email, password: PASSWORD }),
    );
    expect(signedIn).toBe(200);
    const before = await invitations();

    await page.goto(attackerOrigin);
    const outcomes = await page.evaluate(async (origin) => {
      const invite = JSON.stringify({ query: 'mutation { userInvite(email: "mallory@example.com", role: "owner") { url } }' });
      const attempt = async (run: () => Promise<Response>) => {
        try {
          const response = await run();
          return response.type === 'opaque' ? 'opaque' : `read ${response.status}: ${await response.text()}`;
        } catch {
          return 'blocked';
        }
      };
      return {
        session: await attempt(() => fetch(`${origin}/auth/session`, { credentials: 'include' })),
        viewer: await attempt(() =>
          fetch(`${origin}/graphql?query=${encodeURIComponent('{ viewer { via } }')}`, { credentials: 'include' }),
        ),
        write: await attempt(() =>
          fetch(`${origin}/graphql`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/json' },
            body: invite,
          }),
        ),
        guessedToken: await attempt(() =>
          fetch(`${origin}/graphql`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/json', 'x-csrf-token': 'guess' },
            body: invite,
          }),
        ),
        noCors: await attempt(() => fetch(`${origin}/graphql`, { method: 'POST', mode: 'no-cors', credentials: 'include', body: invite })),
        getMutation: await attempt(() =>
          fetch(`${origin}/graphql?query=${encodeURIComponent('mutation { userInvite(email: "m@example.com", role: "owner") { url } }')}`, {
            mode: 'no-cors',
            credentials: 'include',
          }),
        ),
      };
    }, session.origin);
    expect(outcomes).toEqual({
      session: 'blocked',
      viewer: 'blocked',
      write: 'blocked',
      guessedToken: 'blocked',
      noCors: 'opaque',
      getMutation: 'opaque',
    });
    expect(await invitations()).toBe(before);

    // The person's own console still reads the session with its token.
    await page.goto(`${session.origin}/inbox`);
    const own = await page.evaluate(async () => (await fetch('/auth/session')).json());
    expect(own.csrf_token).toEqual(expect.any(String));
    await context.close();
  });
});

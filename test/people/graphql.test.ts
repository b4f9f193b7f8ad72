// People sign in to the console: sessions in an HttpOnly cookie with a CSRF token, lock-out of guessed
// passwords, sign-out and password change, invitations, roles, and API keys that act within their creator's
// current role. Driven through /auth and /graphql as the console does (test/support/people.ts).
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { hubSignature, inboundPayload } from '../support/whatsappPayloads.js';
import { asPerson, invitePerson, ORIGIN, ownerSession, PASSWORD, postAuth, signIn } from '../support/people.js';

const harness = await openHarness({ apiKeyCacheSeconds: 0 });

let counter = 0;
const newEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;

describe('signing in', () => {
  it('sets an HttpOnly, Secure, SameSite=Lax cookie, never shows the token, and answers the session with its CSRF token', async () => {
    const acme = await harness.workspace('Acme');
    const owner = await ownerSession(harness, acme);
    const response = await postAuth(harness, '/auth/sign-in', { email: owner.body.user.email, password: PASSWORD });
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^mcrm_session=[^;]+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/);
    const body = await response.json();
    expect(body).toEqual({
      user: { id: expect.any(String), name: null, email: owner.body.user.email, role: 'owner' },
      workspace: { id: acme.workspace_id, name: 'Acme' },
      scopes: expect.arrayContaining(['keys', 'team', 'integrations', 'webhooks', 'conversations']),
      csrf_token: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(JSON.stringify(body)).not.toContain(cookie.split(';')[0]!.split('=')[1]);

    const session = await harness.fetch('/auth/session', { headers: { cookie: owner.cookie } });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ user: { role: 'owner' }, workspace: { id: acme.workspace_id }, csrf_token: owner.csrf });
  });

  it('answers a wrong password and an unknown e-mail alike, and locks an account out after 5 failures even with the right password', async () => {
    const acme = await harness.workspace();
    const owner = await ownerSession(harness, acme);
    const email = owner.body.user.email as string;
    const wrong = await postAuth(harness, '/auth/sign-in', { email, password: 'not the password' });
    const unknown = await postAuth(harness, '/auth/sign-in', { email: newEmail('nobody'), password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [wrongBody, unknownBody] = [await wrong.json(), await unknown.json()];
    expect(wrongBody.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid e-mail or password' });
    expect(unknownBody.error.message).toBe(wrongBody.error.message);

    for (let attempt = 2; attempt <= 5; attempt++) {
      expect((await postAuth(harness, '/auth/sign-in', { email, password: `guess ${attempt}` })).status).toBe(401);
    }
    const locked = await postAuth(harness, '/auth/sign-in', { email: email.toUpperCase(), password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await locked.json()).error).toMatchObject({ code: 'RATE_LIMITED', request_id: expect.any(String) });
    // The session opened before the lock-out still works.
    expect((await asPerson(harness, owner, '{ viewer { via } }')).body.data.viewer.via).toBe('session');
  });

  it('refuses a cookie-authenticated GraphQL write without the CSRF token, and cross-site or form-encoded posts to /auth', async () => {
    const owner = await ownerSession(harness, await harness.workspace());
    const noToken = await asPerson(harness, owner, 'mutation { tagCreate(input: { name: "csrf" }) { id } }', undefined, { csrf: false });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error).toMatchObject({ code: 'FORBIDDEN', request_id: expect.any(String) });
    const wrongToken = await harness.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookie, 'x-csrf-token': 'forged' },
      body: JSON.stringify({ query: '{ viewer { via } }' }),
    });
    expect(wrongToken.status).toBe(403);

    const crossSite = await postAuth(
      harness,
      '/auth/sign-in',
      { email: owner.body.user.email, password: PASSWORD },
      { origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    const form = await harness.fetch('/auth/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      body: `email=${encodeURIComponent(owner.body.user.email)}&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(form.status).toBe(415);
    expect(form.headers.get('set-cookie')).toBeNull();
  });

  it('ends the session at sign-out: the cookie is cleared and no longer authenticates', async () => {
    const owner = await ownerSession(harness, await harness.workspace());
    const out = await postAuth(harness, '/auth/sign-out', {}, { cookie: owner.cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^mcrm_session=; Max-Age=0/);
    expect((await asPerson(harness, owner, '{ viewer { via } }')).status).toBe(401);
    const session = await harness.fetch('/auth/session', { headers: { cookie: owner.cookie } });
    expect(session.status).toBe(401);
    expect((await session.json()).error.details).toEqual({ setup_required: false });
  });

  it('ends a session idle for 12 hours and one older than 14 days', async () => {
    const owner = await ownerSession(harness, await harness.workspace());
    const other = await signIn(harness, owner.body.user.email);
    const hours = (n: number) => new Date(Date.now() - n * 3600_000);
    await harness.db.prisma.userSession.updateMany({ where: { csrf_token: owner.csrf }, data: { last_seen_at: hours(13) } });
    await harness.db.prisma.userSession.updateMany({ where: { csrf_token: other.csrf }, data: { expires_at: hours(0.01) } });
    expect((await asPerson(harness, owner, '{ viewer { via } }')).status).toBe(401);
    expect((await asPerson(harness, other, '{ viewer { via } }')).status).toBe(401);
  });

  it('changes the password: the old one stops working and the person’s other sessions end', async () => {
    const owner = await ownerSession(harness, await harness.workspace());
    const laptop = await signIn(harness, owner.body.user.email);
    const wrongCurrent = await asPerson(
      harness,
      owner,
      'mutation { passwordChange(current_password: "nope", new_password: "another long one") }',
    );
    expect(wrongCurrent.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { current_password: expect.any(String) },
    });
    const tooShort = await asPerson(harness, owner, `mutation { passwordChange(current_password: "${PASSWORD}", new_password: "short") }`);
    expect(tooShort.body.errors[0].extensions.details).toEqual({ new_password: 'must be at least 10 characters' });
    const changed = await asPerson(
      harness,
      owner,
      `mutation { passwordChange(current_password: "${PASSWORD}", new_password: "another long one") }`,
    );
    expect(changed.body).toEqual({ data: { passwordChange: true } });
    expect((await asPerson(harness, owner, '{ viewer { via } }')).status).toBe(200);
    expect((await asPerson(harness, laptop, '{ viewer { via } }')).status).toBe(401);
    expect((await postAuth(harness, '/auth/sign-in', { email: owner.body.user.email, password: PASSWORD })).status).toBe(401);
    await signIn(harness, owner.body.user.email, 'another long one');
  });
});

describe('the team', () => {
  it('invites by one-time link: the invited person joins with the role and signs in; the link works once', async () => {
    const acme = await harness.workspace();
    const owner = await ownerSession(harness, acme);
    const email = newEmail('member');
    const invited = await asPerson(
      harness,
      owner,
      'mutation($e: String!) { userInvite(email: $e, role: "member") { url invitation { email role } } }',
      {
        e: email,
      },
    );
    expect(invited.body.data.userInvite.invitation).toEqual({ email, role: 'member' });
    expect(invited.body.data.userInvite.url).toMatch(/^https:\/\/crm\.example\.test\/invite#.{20,}$/);
    expect((await asPerson(harness, owner, '{ invitations { email } }')).body.data.invitations).toEqual([{ email }]);
    const token = new URL(invited.body.data.userInvite.url).hash.slice(1);
    const accepted = await postAuth(harness, '/auth/invitations/accept', { token, name: 'Mia', password: PASSWORD });
    expect(accepted.status).toBe(201);
    expect(await accepted.json()).toMatchObject({ user: { email, name: 'Mia', role: 'member' }, workspace: { id: acme.workspace_id } });
    const again = await postAuth(harness, '/auth/invitations/accept', { token, name: 'Eve', password: PASSWORD });
    expect(again.status).toBe(403);
    expect((await asPerson(harness, owner, '{ invitations { email } }')).body.data.invitations).toEqual([]);
    const users = await asPerson(harness, owner, '{ users { email role status } }');
    expect(users.body.data.users).toContainEqual({ email, role: 'member', status: 'active' });
  });

  it('lets a member use the inbox and contacts but not keys, webhooks, integrations or the team', async () => {
    const owner = await ownerSession(harness, await harness.workspace());
    const member = await invitePerson(harness, owner, newEmail('member'), 'member');
    expect((await asPerson(harness, member, '{ conversations { data { id } } contacts { data { id } } }')).status).toBe(200);
    for (const [query, needed] of [
      ['{ apiKeys { id } }', 'keys'],
      ['mutation { apiKeyCreate(name: "mine", scopes: ["tags"]) { api_key } }', 'keys'],
      ['{ webhooks { webhooks { id } } }', 'webhooks'],
      ['mutation { userInvite(email: "x@example.com", role: "admin") { url } }', 'team'],
    ] as const) {
      const refused = await asPerson(harness, member, query);
      expect(refused.body.errors[0].extensions, query).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
      expect(refused.body.errors[0].message, query).toContain(needed);
    }
  });

  it('keeps one owner, and lets only an owner make or change owners', async () => {
    const acme = await harness.workspace();
    const owner = await ownerSession(harness, acme);
    const admin = await invitePerson(harness, owner, newEmail('admin'), 'admin');
    const selfDemote = await asPerson(harness, owner, 'mutation($id: ID!) { userRoleUpdate(id: $id, role: "admin") { role } }', {
      id: owner.body.user.id,
    });
    expect(selfDemote.body.errors[0].extensions.code).toBe('CONFLICT');
    const adminPromotes = await asPerson(harness, admin, 'mutation($id: ID!) { userRoleUpdate(id: $id, role: "owner") { role } }', {
      id: admin.body.user.id,
    });
    expect(adminPromotes.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const adminRemovesOwner = await asPerson(harness, admin, 'mutation($id: ID!) { userRemove(id: $id) { status } }', {
      id: owner.body.user.id,
    });
    expect(adminRemovesOwner.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('API keys inherit their creator’s permissions', () => {
  it('creates a key shown once with scopes the creator’s role allows, lists it with its creator, and revokes it', async () => {
    const owner = await ownerSession(harness, await harness.workspace());
    const created = await asPerson(
      harness,
      owner,
      'mutation { apiKeyCreate(name: "Zapier", scopes: ["tags", "conversations"]) { api_key key { id name prefix scopes creator { email } revoked_at } } }',
    );
    const { api_key, key } = created.body.data.apiKeyCreate;
    expect(api_key.startsWith(key.prefix)).toBe(true);
    expect(key).toMatchObject({
      name: 'Zapier',
      scopes: ['tags', 'conversations'],
      creator: { email: owner.body.user.email },
      revoked_at: null,
    });
    const tags = await harness.fetch('/api/v1/tags', { key: api_key });
    expect(tags.status).toBe(200);
    const listed = await asPerson(harness, owner, '{ apiKeys { id prefix last_used_at } }');
    expect(listed.body.data.apiKeys.find((listedKey: { id: string }) => listedKey.id === key.id)).toMatchObject({ prefix: key.prefix });
    expect(JSON.stringify(listed.body)).not.toContain(api_key);
    await asPerson(harness, owner, 'mutation($id: ID!) { apiKeyRevoke(id: $id) { revoked_at } }', { id: key.id });
    expect((await harness.fetch('/api/v1/tags', { key: api_key })).status).toBe(401);
  });

  it('refuses a key with scopes beyond the creator’s role, and a key cannot create keys', async () => {
    const owner = await ownerSession(harness, await harness.workspace());
    const admin = await invitePerson(harness, owner, newEmail('admin'), 'admin');
    const made = await asPerson(harness, admin, 'mutation { apiKeyCreate(name: "hooks", scopes: ["webhooks"]) { api_key } }');
    const key = made.body.data.apiKeyCreate.api_key as string;
    const byKey = await harness.graphql(key, 'mutation { apiKeyCreate(name: "child", scopes: ["webhooks"]) { api_key } }');
    expect(byKey.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_SCOPE');
    const unknown = await asPerson(harness, admin, 'mutation { apiKeyCreate(name: "x", scopes: ["root"]) { api_key } }');
    expect(unknown.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { 'scopes.0': expect.any(String) } });
  });

  it('takes from a key what its creator loses: demoted, the key loses webhooks; removed, the key stops working', async () => {
    const owner = await ownerSession(harness, await harness.workspace());
    const admin = await invitePerson(harness, owner, newEmail('admin'), 'admin');
    const made = await asPerson(harness, admin, 'mutation { apiKeyCreate(name: "ops", scopes: ["webhooks", "tags"]) { api_key } }');
    const key = made.body.data.apiKeyCreate.api_key as string;
    expect((await harness.fetch('/api/v1/webhooks', { key })).status).toBe(200);

    await asPerson(harness, owner, 'mutation($id: ID!) { userRoleUpdate(id: $id, role: "member") { role } }', { id: admin.body.user.id });
    const demoted = await harness.fetch('/api/v1/webhooks', { key });
    expect(demoted.status).toBe(403);
    expect((await demoted.json()).error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await harness.fetch('/api/v1/tags', { key })).status).toBe(200);
    const viewer = await harness.graphql(key, '{ viewer { via scopes user { role } } }');
    expect(viewer.body.data).toEqual({ viewer: { via: 'api_key', scopes: ['tags'], user: { role: 'member' } } });
    // The demoted person's own session lost the same.
    expect((await asPerson(harness, admin, '{ webhooks { webhooks { id } } }')).body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');

    await asPerson(harness, owner, 'mutation($id: ID!) { userRemove(id: $id) { status } }', { id: admin.body.user.id });
    expect((await harness.fetch('/api/v1/tags', { key })).status).toBe(401);
    expect((await asPerson(harness, admin, '{ viewer { via } }')).status).toBe(401);
    expect((await postAuth(harness, '/auth/sign-in', { email: admin.body.user.email, password: PASSWORD })).status).toBe(401);
  });
});

describe('integrations and read state in the console', () => {
  it('connects a WhatsApp number for an owner with the callback URL and verify token to give Meta; a member cannot see them', async () => {
    const owner = await ownerSession(harness, await harness.workspace());
    const phoneNumberId = `1${Date.now()}`;
    const connected = await asPerson(
      harness,
      owner,
      `mutation($p: String!) { integrationCreate(phone_number_id: $p, business_account_id: "10987654321", access_token: "EAAG-token",
         app_secret: "app-secret-1", display_phone_number: "+15551230000") { id provider status callback_url verify_token } }`,
      { p: phoneNumberId },
    );
    expect(connected.body.data.integrationCreate).toMatchObject({
      provider: 'whatsapp',
      status: 'connected',
      callback_url: 'https://crm.example.test/webhooks/whatsapp',
      verify_token: expect.stringMatching(/.{8,}/),
    });
    expect(JSON.stringify(connected.body)).not.toContain('EAAG-token');
    const listed = await asPerson(harness, owner, '{ integrations { phone_number_id } }');
    expect(listed.body.data.integrations.map((row: { phone_number_id: string }) => row.phone_number_id)).toContain(phoneNumberId);
    const member = await invitePerson(harness, owner, newEmail('member'), 'member');
    expect((await asPerson(harness, member, '{ integrations { id } }')).body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('counts unread inbound messages per person until they mark the conversation read', async () => {
    const acme = await harness.workspace();
    const owner = await ownerSession(harness, acme);
    const member = await invitePerson(harness, owner, newEmail('member'), 'member');
    for (const text of ['Hi', 'Are you open?']) {
      const payload = inboundPayload(acme.phone_number_id, { from: '15550009999', text });
      const raw = JSON.stringify(payload);
      const delivered = await harness.fetch('/webhooks/whatsapp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, acme.app_secret) },
        body: raw,
      });
      expect(delivered.status).toBe(200);
    }
    const inbox = '{ conversations { data { id unread_count last_read_at } } }';
    const [conversation] = (await asPerson(harness, owner, inbox)).body.data.conversations.data;
    expect(conversation).toMatchObject({ unread_count: 2, last_read_at: null });
    const read = await asPerson(harness, owner, 'mutation($id: ID!) { conversationMarkRead(id: $id) { unread_count last_read_at } }', {
      id: conversation.id,
    });
    expect(read.body.data.conversationMarkRead).toMatchObject({ unread_count: 0, last_read_at: expect.any(String) });
    expect((await asPerson(harness, member, inbox)).body.data.conversations.data[0].unread_count).toBe(2);
  });
});

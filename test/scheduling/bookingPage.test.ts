// The public booking page that the widget snippet frames, and its key-less API, driven over HTTP as a visitor's
// browser and a workspace's API key meet them: GET /book/<public_id> (HTML, strict CSP, framable), the JSON
// routes under /api/v1/public/booking/<public_id> (types, slots, booking), workspace isolation, the JSON-only
// POST, and the rate limit per client address that stands in for the missing key.
import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app/createApp.js';
import { createEdge } from '../../app/edge.js';
import { createLogger } from '../../infra/observability/logger.js';
import { loadSettings } from '../../infra/config/settings.js';
import { schema } from '../../schema/index.js';
import { openHarness } from '../support/harness.js';
import { expectError, expectRateLimited, getJson, sendJson } from '../support/restFixtures.js';

const h = await openHarness({ rateLimitPerMinute: 1000 });
const prisma = h.db.prisma;

const ZONE = 'America/New_York';
const WEEKDAYS_9_TO_5 = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekday) => ({
  weekday,
  start: '09:00',
  end: '17:00',
}));

/** A workspace with a time zone, a bookable type (30 minutes, weekdays 09:00–17:00 local) and its public id. */
async function bookableWorkspace(name: string) {
  const workspace = await h.workspace(name);
  const key = workspace.api_key;
  expect((await sendJson(h, 'PATCH', '/api/v1/scheduling/settings', key, { time_zone: ZONE })).status).toBe(200);
  const created = await sendJson(h, 'POST', '/api/v1/appointment-types', key, {
    name: 'Consultation',
    duration_minutes: 30,
    availability: WEEKDAYS_9_TO_5,
  });
  expect(created.status).toBe(201);
  const widget = await getJson(h, '/api/v1/scheduling/widget', { key });
  return { key, workspaceId: workspace.workspace_id, typeId: created.body.id as string, publicId: widget.body.public_id as string };
}

const clinic = await bookableWorkspace(`Ada's <b>Clinic</b> & "Co"`);
const other = await bookableWorkspace('Other clinic');

/** Monday of next week, local midnight in ZONE; `at(day, hour, minute)` is a time of that week as UTC ISO. */
const nextMonday = DateTime.now().setZone(ZONE).startOf('week').plus({ weeks: 1 });
const at = (day: number, hour: number, minute = 0) => nextMonday.plus({ days: day }).set({ hour, minute }).toUTC().toISO()!;

const api = (publicId: string, rest = '') => `/api/v1/public/booking/${publicId}${rest}`;
const book = (publicId: string, body: Record<string, unknown>, init: { key?: string } = {}) =>
  sendJson(h, 'POST', api(publicId, '/appointments'), init.key ?? '', body);

let phoneCounter = 0;
/** A phone number no other test of this file uses. */
const freshPhone = () => `+1555${String(Date.now() % 1_000_000).padStart(6, '0')}${++phoneCounter}`;

describe('GET /book/<public_id>', () => {
  it('renders the workspace name and its active types, escaped, with a hash-based CSP that allows framing and nosniff', async () => {
    const hidden = await sendJson(h, 'POST', '/api/v1/appointment-types', clinic.key, {
      name: 'Retired service',
      duration_minutes: 30,
      availability: WEEKDAYS_9_TO_5,
      active: false,
    });
    expect(hidden.status).toBe(201);
    const tricky = await sendJson(h, 'POST', '/api/v1/appointment-types', clinic.key, {
      name: '<img src=x onerror=alert(1)>',
      duration_minutes: 45,
      availability: WEEKDAYS_9_TO_5,
    });
    expect(tricky.status).toBe(201);

    const response = await h.fetch(`/book/${clinic.publicId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBeNull();
    const page = await response.text();

    const csp = response.headers.get('content-security-policy')!;
    const directives = Object.fromEntries(csp.split(/;\s*/).map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]));
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(['*']);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(csp).not.toContain('unsafe');
    // The one inline script and the one inline style are exactly what the CSP hashes allow.
    const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(directives['script-src']).toEqual([hashOf(scripts[0]!)]);
    expect(directives['style-src']).toEqual([hashOf(styles[0]!)]);
    // Nothing is loaded from anywhere: no src or href attributes, no inline event handlers or style attributes.
    const markup = page
      .replace(/<script>[\s\S]*?<\/script>/, '')
      .replace(/<style>[\s\S]*?<\/style>/, '')
      .replace(/"[^"]*"/g, '""');
    expect(markup).not.toMatch(/<[^>]*\s(src|href|style|on\w+)=/i);

    expect(page).toContain('<title>Book an appointment with Ada&#39;s &lt;b&gt;Clinic&lt;/b&gt; &amp; &quot;Co&quot;</title>');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain('<img');
    expect(page).toContain(`value="${clinic.typeId}" data-name="Consultation"`);
    expect(page).toContain(`value="${tricky.body.id}"`);
    expect(page).not.toContain('Retired service');
    expect(page).toContain(`data-api="../api/v1/public/booking/${clinic.publicId}"`);
    expect(page).toContain(`data-time-zone="${ZONE}"`);
    expect((await sendJson(h, 'DELETE', `/api/v1/appointment-types/${tricky.body.id}`, clinic.key)).status).toBe(200);
  });

  it('answers an unknown or malformed public id with a 404 page under the same headers', async () => {
    for (const path of ['/book/no-such-page-here', '/book/%E0%A4%A', `/book/${'x'.repeat(200)}`, '/book/%00']) {
      const response = await h.fetch(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const page = await response.text();
      expect(page).toContain('Booking page not found');
      expect(page).not.toContain('<script>');
    }
  });
});

describe('GET /api/v1/public/booking/<public_id> and /slots (no API key)', () => {
  it('gives the workspace name, time zone and active types, and nothing else', async () => {
    const answer = await getJson(h, api(clinic.publicId));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: `Ada's <b>Clinic</b> & "Co"`,
      time_zone: ZONE,
      appointment_types: [{ id: clinic.typeId, name: 'Consultation', duration_minutes: 30 }],
    });
    expect(answer.headers.get('ratelimit-policy')).toBe('"perip";q=1000;w=60');
  });

  it('gives the same slots as the authenticated calendar slots, in the workspace time zone', async () => {
    const range = `from=${encodeURIComponent(at(0, 0))}&to=${encodeURIComponent(at(7, 0))}`;
    const own = await getJson(h, `/api/v1/calendar/slots?appointment_type_id=${clinic.typeId}&${range}`, { key: clinic.key });
    const visitor = await getJson(h, api(clinic.publicId, `/slots?appointment_type_id=${clinic.typeId}&${range}`));
    expect(own.status).toBe(200);
    expect(visitor.status).toBe(200);
    expect(visitor.body).toEqual(own.body);
    // Five weekdays of 09:00–17:00 in 30-minute slots, local times in New York.
    expect(visitor.body.slots).toHaveLength(5 * 16);
    expect(visitor.body.slots[0].local_start).toBe(`${nextMonday.toISODate()}T09:00:00${nextMonday.set({ hour: 9 }).toFormat('ZZ')}`);
  });

  it('caps the range at 31 days and refuses bad arguments with details per field', async () => {
    const tooLong = await getJson(
      h,
      api(
        clinic.publicId,
        `/slots?appointment_type_id=${clinic.typeId}&from=${encodeURIComponent(at(0, 0))}&to=${encodeURIComponent(at(32, 0))}`,
      ),
    );
    expectError(tooLong, 400, { code: 'VALIDATION_ERROR', details: { to: 'must be at most 31 days after from' } });
    const badType = await getJson(
      h,
      api(clinic.publicId, `/slots?appointment_type_id=nope&from=${encodeURIComponent(at(0, 0))}&to=${encodeURIComponent(at(1, 0))}`),
    );
    expectError(badType, 400, { code: 'VALIDATION_ERROR', details: { appointment_type_id: 'must be a UUID' } });
    const missing = await getJson(h, api(clinic.publicId, '/slots'));
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.error.details).sort()).toEqual(['appointment_type_id', 'from', 'to']);
  });

  it('answers 404 for an unknown public id', async () => {
    expectError(await getJson(h, api('no-such-page-here')), 404, { code: 'NOT_FOUND', message: 'Booking page not found' });
    const slots = await getJson(
      h,
      api(
        'no-such-page-here',
        `/slots?appointment_type_id=${clinic.typeId}&from=${encodeURIComponent(at(0, 0))}&to=${encodeURIComponent(at(1, 0))}`,
      ),
    );
    expectError(slots, 404, { code: 'NOT_FOUND', message: 'Booking page not found' });
  });
});

describe('POST /api/v1/public/booking/<public_id>/appointments', () => {
  it('creates the contact and the appointment, answers only what the visitor needs, and the team sees both', async () => {
    const phone = freshPhone();
    const answer = await book(clinic.publicId, {
      appointment_type_id: clinic.typeId,
      start_at: at(0, 10),
      name: '  Grace Hopper ',
      phone,
      email: 'Grace@Example.com',
      notes: 'First visit',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      appointment_id: expect.any(String),
      appointment_type_name: 'Consultation',
      start_at: new Date(at(0, 10)).toISOString(),
      end_at: new Date(at(0, 10, 30)).toISOString(),
      local_start: nextMonday.set({ hour: 10 }).toISO({ suppressMilliseconds: true }),
      local_end: nextMonday.set({ hour: 10, minute: 30 }).toISO({ suppressMilliseconds: true }),
      time_zone: ZONE,
    });

    const appointment = await getJson(h, `/api/v1/appointments/${answer.body.appointment_id}`, { key: clinic.key });
    expect(appointment.status).toBe(200);
    expect(appointment.body).toMatchObject({ appointment_type_id: clinic.typeId, status: 'scheduled', notes: 'First visit' });
    const contact = await getJson(h, `/api/v1/contacts/${appointment.body.customer_id}`, { key: clinic.key });
    expect(contact.body).toMatchObject({
      name: 'Grace Hopper',
      phone_number: phone,
      email: 'grace@example.com',
      metadata: { source: 'booking_page' },
    });
    // The other workspace sees none of it.
    const foreign = await getJson(h, `/api/v1/appointments/${answer.body.appointment_id}`, { key: other.key });
    expect(foreign.status).toBe(404);
  });

  it('books for the existing contact with that phone number without changing the contact', async () => {
    const phone = freshPhone();
    const existing = await sendJson(h, 'POST', '/api/v1/contacts', clinic.key, { name: 'Ana Silva', phone_number: phone });
    expect(existing.status).toBe(201);
    const answer = await book(clinic.publicId, {
      appointment_type_id: clinic.typeId,
      start_at: at(0, 11),
      name: 'Someone Else',
      phone,
      email: 'else@example.com',
    });
    expect(answer.status).toBe(201);
    const appointment = await getJson(h, `/api/v1/appointments/${answer.body.appointment_id}`, { key: clinic.key });
    expect(appointment.body.customer_id).toBe(existing.body.id);
    const contact = await getJson(h, `/api/v1/contacts/${existing.body.id}`, { key: clinic.key });
    expect(contact.body).toMatchObject({ name: 'Ana Silva', email: null });
    expect(await prisma.customer.count({ where: { company_id: clinic.workspaceId, phone_number: phone } })).toBe(1);
  });

  it('creates a new contact without an email that another contact has, and does not say so', async () => {
    const taken = `taken${Date.now()}@example.com`;
    expect((await sendJson(h, 'POST', '/api/v1/contacts', clinic.key, { name: 'Owner', email: taken })).status).toBe(201);
    const phone = freshPhone();
    const answer = await book(clinic.publicId, {
      appointment_type_id: clinic.typeId,
      start_at: at(0, 11, 30),
      name: 'Newcomer',
      phone,
      email: taken,
    });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual([
      'appointment_id',
      'appointment_type_name',
      'end_at',
      'local_end',
      'local_start',
      'start_at',
      'time_zone',
    ]);
    const created = await prisma.customer.findFirstOrThrow({ where: { company_id: clinic.workspaceId, phone_number: phone } });
    expect(created).toMatchObject({ name: 'Newcomer', email: null });
  });

  it('refuses a taken slot with 409 CONFLICT that names no other appointment, and leaves no new contact behind', async () => {
    const first = await book(clinic.publicId, {
      appointment_type_id: clinic.typeId,
      start_at: at(1, 9),
      name: 'First',
      phone: freshPhone(),
    });
    expect(first.status).toBe(201);
    const phone = freshPhone();
    const second = await book(clinic.publicId, { appointment_type_id: clinic.typeId, start_at: at(1, 9), name: 'Second', phone });
    expectError(second, 409, { code: 'CONFLICT', details: { start_at: 'overlaps another scheduled appointment' } });
    expect(JSON.stringify(second.body)).not.toContain(first.body.appointment_id);
    expect(await prisma.customer.count({ where: { company_id: clinic.workspaceId, phone_number: phone } })).toBe(0);
    // The taken slot is gone from the visitor's slots.
    const slots = await getJson(
      h,
      api(
        clinic.publicId,
        `/slots?appointment_type_id=${clinic.typeId}&from=${encodeURIComponent(at(1, 0))}&to=${encodeURIComponent(at(2, 0))}`,
      ),
    );
    expect(slots.body.slots.map((slot: { start_at: string }) => slot.start_at)).not.toContain(new Date(at(1, 9)).toISOString());
  });

  it('refuses a time outside the availability with 400 and details, writing nothing', async () => {
    const phone = freshPhone();
    const answer = await book(clinic.publicId, { appointment_type_id: clinic.typeId, start_at: at(1, 7), name: 'Early bird', phone });
    expectError(answer, 400, {
      code: 'VALIDATION_ERROR',
      details: { start_at: `is outside the availability of the appointment type (in ${ZONE})` },
    });
    const saturday = await book(clinic.publicId, { appointment_type_id: clinic.typeId, start_at: at(5, 10), name: 'Weekend', phone });
    expect(saturday.status).toBe(400);
    expect(await prisma.customer.count({ where: { company_id: clinic.workspaceId, phone_number: phone } })).toBe(0);
  });

  it('refuses a bad phone, a missing name, a bad email or a time in the past with 400 and a reason per field', async () => {
    const valid = { appointment_type_id: clinic.typeId, start_at: at(1, 12), name: 'Valid', phone: freshPhone() };
    expectError(await book(clinic.publicId, { ...valid, phone: '0912 345 678' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { phone: 'must be an E.164 phone number such as +14155550123' },
    });
    expectError(await book(clinic.publicId, { ...valid, name: '   ' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { name: 'is required' },
    });
    expectError(await book(clinic.publicId, { ...valid, email: 'not an address' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { email: 'must be an email address' },
    });
    const { name: _name, ...withoutName } = valid;
    expect((await book(clinic.publicId, withoutName)).body.error.details).toEqual({ name: expect.any(String) });
    expectError(await book(clinic.publicId, { ...valid, start_at: '2020-01-06T15:00:00Z' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { start_at: 'must be in the future' },
    });
    expectError(await book(clinic.publicId, { ...valid, start_at: 'tomorrow' }), 400, { code: 'VALIDATION_ERROR' });
    expect(await prisma.customer.count({ where: { company_id: clinic.workspaceId, phone_number: valid.phone } })).toBe(0);
  });

  it('under concurrent bookings keeps one contact per phone and one appointment per slot', async () => {
    const phone = freshPhone();
    const samePhone = await Promise.all(
      [at(2, 9), at(2, 9, 30)].map((start_at) =>
        book(clinic.publicId, { appointment_type_id: clinic.typeId, start_at, name: 'Twin', phone }),
      ),
    );
    expect(samePhone.map((answer) => answer.status)).toEqual([201, 201]);
    const contacts = await prisma.customer.findMany({
      where: { company_id: clinic.workspaceId, phone_number: phone },
      select: { id: true },
    });
    expect(contacts).toHaveLength(1);
    const [first, second] = await Promise.all(
      samePhone.map((answer) => getJson(h, `/api/v1/appointments/${answer.body.appointment_id}`, { key: clinic.key })),
    );
    expect([first!.body.customer_id, second!.body.customer_id]).toEqual([contacts[0]!.id, contacts[0]!.id]);

    const phones = [freshPhone(), freshPhone()];
    const sameSlot = await Promise.all(
      phones.map((racer) =>
        book(clinic.publicId, { appointment_type_id: clinic.typeId, start_at: at(2, 14), name: 'Racer', phone: racer }),
      ),
    );
    expect(sameSlot.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(await prisma.customer.count({ where: { company_id: clinic.workspaceId, phone_number: { in: phones } } })).toBe(1);
  });

  it('accepts JSON only: a form post or text body gets 415 and books nothing', async () => {
    const before = await prisma.appointment.count({ where: { company_id: clinic.workspaceId } });
    for (const [type, body] of [
      [
        'application/x-www-form-urlencoded',
        `appointment_type_id=${clinic.typeId}&start_at=${encodeURIComponent(at(1, 13))}&name=Form&phone=%2B15550000001`,
      ],
      ['text/plain', JSON.stringify({ appointment_type_id: clinic.typeId, start_at: at(1, 13), name: 'Text', phone: '+15550000002' })],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nForm\r\n--x--\r\n'],
    ]) {
      const answer = await getJson(h, api(clinic.publicId, '/appointments'), { method: 'POST', headers: { 'content-type': type! }, body });
      expectError(answer, 415, { code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    expect(await prisma.appointment.count({ where: { company_id: clinic.workspaceId } })).toBe(before);
  });
});

describe('workspace isolation', () => {
  it("answers 404 for another workspace's type, on slots and bookings, and writes nothing in either workspace", async () => {
    const range = `from=${encodeURIComponent(at(0, 0))}&to=${encodeURIComponent(at(7, 0))}`;
    expectError(await getJson(h, api(clinic.publicId, `/slots?appointment_type_id=${other.typeId}&${range}`)), 404, {
      code: 'NOT_FOUND',
      message: 'Appointment type not found',
    });
    const phone = freshPhone();
    const answer = await book(clinic.publicId, { appointment_type_id: other.typeId, start_at: at(2, 10), name: 'Crossing', phone });
    expectError(answer, 404, { code: 'NOT_FOUND', message: 'Appointment type not found' });
    expect(await prisma.customer.count({ where: { phone_number: phone } })).toBe(0);
    expect(await prisma.appointment.count({ where: { company_id: other.workspaceId } })).toBe(0);
  });

  it('ignores an API key sent along: the public id alone selects the workspace', async () => {
    const page = await getJson(h, api(clinic.publicId), { key: other.key });
    expect(page.body.name).toBe(clinic && `Ada's <b>Clinic</b> & "Co"`);
    expect(page.headers.get('ratelimit-policy')).toMatch(/^"perip";/);
    const answer = await book(
      clinic.publicId,
      { appointment_type_id: other.typeId, start_at: at(2, 10), name: 'Keyed', phone: freshPhone() },
      { key: other.key },
    );
    expect(answer.status).toBe(404);
  });

  it('opens no other GraphQL field: every root field declares its scopes, and only these need no key', () => {
    const publicFields: string[] = [];
    const signInDoorFields: string[] = [];
    for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
      for (const field of Object.values(root.getFields())) {
        const scopes = (field.extensions as { pothosOptions?: { authScopes?: Record<string, unknown> } }).pothosOptions?.authScopes;
        expect(scopes, `${root.name}.${field.name} declares authScopes`).toBeDefined();
        if (scopes!['public'] === true) publicFields.push(field.name);
        if (scopes!['signInDoor'] === true) signInDoorFields.push(field.name);
      }
    }
    expect(publicFields.sort()).toEqual([
      'bookingPage',
      'bookingPageBook',
      'bookingPageSlots',
      'calendarFeed',
      'health',
      // A person's own password change and who is asking (schema/people/people.ts): each checks its own session.
      'passwordChange',
      'providerCallbackChallenge',
      'providerCallbackReceive',
      'setupRequired',
      'viewer',
    ]);
    // Signing in runs only behind the /auth routes (facades/auth/routes.ts), never for a key or a /graphql request.
    expect(signInDoorFields.sort()).toEqual(['invitationAccept', 'setUp', 'signIn', 'signOut']);
  });
});

describe('rate limit per client address (no key to count)', () => {
  const logger = createLogger('silent');
  const appWith = (env: Record<string, string>) =>
    createApp(h.services, {
      graphiql: false,
      logger,
      edge: createEdge(loadSettings({ RATE_LIMIT_PER_MINUTE: '3', ...env }), { logger }),
      sessionStore: h.sessionStore(),
    });
  /** A request as the Node adapter hands it over: the socket's peer address in the server context. */
  const fromPeer = (app: ReturnType<typeof appWith>, path: string, peer: string, headers: Record<string, string> = {}) =>
    app.yoga.fetch(`http://service.test${path}`, { headers }, { req: { socket: { remoteAddress: peer } } });

  it('counts the page and its API together per peer address; the next request gets 429; another address is not affected', async () => {
    const app = appWith({});
    const statuses: number[] = [];
    for (const path of [`/book/${clinic.publicId}`, api(clinic.publicId), api(clinic.publicId)]) {
      const response = await fromPeer(app, path, '203.0.113.7');
      statuses.push(response.status);
      expect(response.headers.get('ratelimit-policy')).toBe('"perip";q=3;w=60');
      await response.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 200]);
    // Without TRUST_PROXY a forwarded address is the client's word, and ignored.
    const refused = await fromPeer(app, api(clinic.publicId), '203.0.113.7', { 'x-forwarded-for': '198.51.100.1' });
    await expectRateLimited(refused, 3, 'this client address');
    expect((await fromPeer(app, api(clinic.publicId), '203.0.113.8')).status).toBe(200);
    // IPv4-mapped IPv6 is the same client; IPv6 addresses of one /64 share a budget.
    expect((await fromPeer(app, api(clinic.publicId), '::ffff:203.0.113.7')).status).toBe(429);
    for (let index = 1; index <= 3; index++) expect((await fromPeer(app, api(clinic.publicId), `2001:db8:1:2::${index}`)).status).toBe(200);
    expect((await fromPeer(app, api(clinic.publicId), '2001:db8:1:2:ffff::9')).status).toBe(429);
    expect((await fromPeer(app, api(clinic.publicId), '2001:db8:1:3::1')).status).toBe(200);
  });

  it('behind a trusted proxy (TRUST_PROXY) counts the last X-Forwarded-For entry, which the client cannot forge', async () => {
    const app = appWith({ TRUST_PROXY: 'true' });
    const via = (chain: string) => fromPeer(app, api(clinic.publicId), '10.0.0.2', { 'x-forwarded-for': chain });
    for (let index = 0; index < 3; index++) expect((await via('198.51.100.20')).status).toBe(200);
    expect((await via('192.0.2.1, 198.51.100.20')).status).toBe(429);
    expect((await via('198.51.100.21')).status).toBe(200);
  });

  it('leaves keyed requests to the per-key limit', async () => {
    const app = appWith({});
    for (let index = 0; index < 3; index++) await (await fromPeer(app, api(clinic.publicId), '203.0.113.50')).body?.cancel();
    const keyed = await fromPeer(app, '/api/v1/scheduling/settings', '203.0.113.50', { authorization: `Bearer ${clinic.key}` });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('ratelimit-policy')).toBe('"perkey";q=3;w=60');
  });
});

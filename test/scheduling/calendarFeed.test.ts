// The public calendar feed (GET /calendar/<token>.ics, no API key) and the booking-widget embed metadata.
// The feed is valid iCalendar (RFC 5545): CRLF lines, UTC times, escaped text; rotating the token makes
// the old URL answer 404 at once. Each workspace's feed and widget show only that workspace.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';

const harness = await openHarness();
const { data, error } = graphqlCalls(harness);
const prisma = harness.db.prisma;

const ROTATE = 'mutation { calendarFeedTokenRotate { url rotated_at } }';

async function clinicWithAppointments(name: string) {
  const workspace = await harness.workspace(name);
  const key = workspace.api_key;
  const ana = await prisma.customer.create({ data: { company_id: workspace.workspace_id, name: 'Ana Silva' } });
  const { appointmentTypeCreate: type } = await data<{ appointmentTypeCreate: { id: string } }>(
    key,
    `mutation { appointmentTypeCreate(name: "Consultation", duration_minutes: 45, availability: [
      { weekday: monday, start: "09:00", end: "17:00" }, { weekday: tuesday, start: "09:00", end: "17:00" }]) { id } }`,
  );
  const book = async (start: string, notes?: string) =>
    (
      await data<{ appointmentBook: { id: string } }>(
        key,
        'mutation($c: ID!, $t: ID!, $s: DateTime!, $n: String) { appointmentBook(customer_id: $c, appointment_type_id: $t, start_at: $s, notes: $n) { id } }',
        { c: ana.id, t: type.id, s: start, n: notes },
      )
    ).appointmentBook;
  return { workspace, key, type, book };
}

/** The feed's content lines, unfolded (RFC 5545 3.1: CRLF followed by a space continues a line). */
function contentLines(body: string): string[] {
  return body
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((line) => line !== '');
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}

describe('calendar feed', async () => {
  const clinic = await clinicWithAppointments('Feed clinic');
  const visit = await clinic.book('2030-07-01T09:00:00.000Z', 'Bring reports, x-rays; and\nthe referral letter \\ signed');
  const cancelled = await clinic.book('2030-07-02T13:30:00.000Z');
  await data(clinic.key, 'mutation($id: ID!) { appointmentCancel(id: $id) { id } }', { id: cancelled.id });
  const { calendarFeedTokenRotate: issued } = await data<{ calendarFeedTokenRotate: { url: string; rotated_at: string } }>(
    clinic.key,
    ROTATE,
  );

  it('issues a secret feed URL under the public base URL and records that a feed exists', async () => {
    expect(issued.url).toMatch(/^https:\/\/crm\.example\.test\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const settings = await data(clinic.key, '{ schedulingSettings { calendar_feed_enabled calendar_feed_rotated_at } }');
    expect(settings['schedulingSettings']).toEqual({ calendar_feed_enabled: true, calendar_feed_rotated_at: issued.rotated_at });
    const stored = await prisma.workspace.findUniqueOrThrow({ where: { id: clinic.workspace.workspace_id } });
    expect(stored.calendar_feed_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.url).not.toContain(stored.calendar_feed_token_hash);
  });

  it('serves the appointments as iCalendar without an API key: CRLF lines, UTC times, escaped text', async () => {
    const response = await harness.fetch(pathOf(issued.url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const body = await response.text();
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(body.endsWith('\r\n')).toBe(true);
    for (const line of body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const lines = contentLines(body);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(lines).toEqual(
      expect.arrayContaining(['VERSION:2.0', 'PRODID:-//messaging-crm//appointments//EN', 'X-WR-CALNAME:Feed clinic appointments']),
    );

    const events = body
      .split('BEGIN:VEVENT')
      .slice(1)
      .map((chunk) => contentLines(`BEGIN:VEVENT${chunk}`));
    expect(events).toHaveLength(2);
    const [first, second] = events as [string[], string[]];
    expect(first).toEqual(
      expect.arrayContaining([
        `UID:${visit.id}`,
        'DTSTART:20300701T090000Z',
        'DTEND:20300701T094500Z',
        'SUMMARY:Consultation with Ana Silva',
        'DESCRIPTION:Bring reports\\, x-rays\\; and\\nthe referral letter \\\\ signed',
        'STATUS:CONFIRMED',
        'END:VEVENT',
      ]),
    );
    expect(first.find((line) => line.startsWith('DTSTAMP:'))).toMatch(/^DTSTAMP:\d{8}T\d{6}Z$/);
    expect(second).toEqual(expect.arrayContaining([`UID:${cancelled.id}`, 'DTSTART:20300702T133000Z', 'STATUS:CANCELLED']));
  });

  it('stops serving the old URL once the token is rotated, and serves the new one', async () => {
    const { calendarFeedTokenRotate: rotated } = await data<{ calendarFeedTokenRotate: { url: string } }>(clinic.key, ROTATE);
    expect(rotated.url).not.toBe(issued.url);
    const old = await harness.fetch(pathOf(issued.url));
    expect(old.status).toBe(404);
    expect(await old.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Calendar feed not found' } });
    const current = await harness.fetch(pathOf(rotated.url));
    expect(current.status).toBe(200);
    expect(await current.text()).toContain(`UID:${visit.id}`);
  });

  it('answers 404 for an unknown or malformed token', async () => {
    for (const path of [
      '/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics',
      '/calendar/short.ics',
      '/calendar/%00.ics',
      '/calendar/%E0%A4%A.ics',
      '/calendar/a.b.ics',
    ]) {
      expect((await harness.fetch(path)).status).toBe(404);
    }
  });

  it("shows in a workspace's feed only that workspace's appointments", async () => {
    const other = await clinicWithAppointments('Other feed clinic');
    const own = await other.book('2030-07-01T09:00:00.000Z');
    const { calendarFeedTokenRotate: otherFeed } = await data<{ calendarFeedTokenRotate: { url: string } }>(other.key, ROTATE);
    const body = await (await harness.fetch(pathOf(otherFeed.url))).text();
    expect(body).toContain(`UID:${own.id}`);
    expect(body).not.toContain(visit.id);
    expect(body).toContain('X-WR-CALNAME:Other feed clinic appointments');
  });

  it('requires the scheduling scope to rotate the token', async () => {
    const tagsOnly = await harness.key(clinic.workspace.workspace_id, ['tags']);
    expect(await error(tagsOnly, ROTATE)).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
  });
});

describe('booking widget embed metadata', async () => {
  const shop = await harness.workspace('Dr. "Smile" <Clinic> & Co');
  const key = shop.api_key;
  await data(key, 'mutation { schedulingSettingsUpdate(time_zone: "Europe/Lisbon") { time_zone } }');
  const availability = '[{ weekday: friday, start: "10:00", end: "12:00" }]';
  await data(key, `mutation { appointmentTypeCreate(name: "Cleaning", duration_minutes: 30, availability: ${availability}) { id } }`);
  await data(
    key,
    `mutation { appointmentTypeCreate(name: "Retired", duration_minutes: 30, active: false, availability: ${availability}) { id } }`,
  );
  const WIDGET = '{ widgetEmbed { public_id time_zone booking_url html_snippet appointment_types { name duration_minutes } } }';

  it('gives the public id (not the internal id), the bookable types and an HTML snippet that frames the booking page', async () => {
    const { widgetEmbed } = await data<{ widgetEmbed: Record<string, unknown> & { public_id: string } }>(key, WIDGET);
    const settings = await data<{ schedulingSettings: { public_id: string } }>(key, '{ schedulingSettings { public_id } }');
    expect(widgetEmbed.public_id).toBe(settings.schedulingSettings.public_id);
    expect(widgetEmbed.public_id).not.toContain(shop.workspace_id);
    expect(widgetEmbed).toEqual({
      public_id: widgetEmbed.public_id,
      time_zone: 'Europe/Lisbon',
      booking_url: `https://crm.example.test/book/${widgetEmbed.public_id}`,
      html_snippet:
        `<iframe src="https://crm.example.test/book/${widgetEmbed.public_id}" ` +
        'title="Book an appointment with Dr. &quot;Smile&quot; &lt;Clinic&gt; &amp; Co" width="100%" height="700" style="border:0" loading="lazy"></iframe>',
      appointment_types: [{ name: 'Cleaning', duration_minutes: 30 }],
    });
  });

  it("never shows another workspace's public id or types", async () => {
    const other = await harness.workspace('Widget other');
    const { widgetEmbed } = await data<{ widgetEmbed: { public_id: string; appointment_types: unknown[] } }>(other.api_key, WIDGET);
    const mine = await data<{ widgetEmbed: { public_id: string } }>(key, WIDGET);
    expect(widgetEmbed.public_id).not.toBe(mine.widgetEmbed.public_id);
    expect(widgetEmbed.appointment_types).toEqual([]);
  });
});

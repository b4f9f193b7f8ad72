// Business hours: the pure calculation (within hours, minutes counted in hours, holidays, time zone) and the
// setting on REST and GraphQL: open around the clock until set, each part replaced when given, 400s naming the
// field at fault, and its doors (no key, a key without the scope, a member who may read but not change them).
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { getJson, sendJson } from '../support/restFixtures.js';
import { asPerson, invitePerson, ownerSession } from '../support/people.js';
import { businessMinutesBetween, isWithinBusinessHours, type BusinessHours } from '../../resolvers/workspace/businessHours.js';

const harness = await openHarness();

const LISBON: BusinessHours = {
  time_zone: 'Europe/Lisbon',
  hours: [
    { weekday: 'monday', start: '09:00', end: '12:00' },
    { weekday: 'monday', start: '13:00', end: '17:30' },
    { weekday: 'tuesday', start: '09:00', end: '17:30' },
  ],
  holidays: [{ date: '2026-12-08', name: 'Immaculate Conception' }],
};

describe('the business-hours calculation', () => {
  it('answers within or outside in the workspace time zone, holidays closed', () => {
    // Monday 2026-11-30: Lisbon is on UTC in winter.
    expect(isWithinBusinessHours(LISBON, new Date('2026-11-30T09:00:00Z'))).toBe(true);
    expect(isWithinBusinessHours(LISBON, new Date('2026-11-30T12:30:00Z'))).toBe(false);
    expect(isWithinBusinessHours(LISBON, new Date('2026-11-30T17:30:00Z'))).toBe(false);
    expect(isWithinBusinessHours(LISBON, new Date('2026-12-02T10:00:00Z'))).toBe(false);
    // Tuesday 2026-12-08 is a holiday.
    expect(isWithinBusinessHours(LISBON, new Date('2026-12-08T10:00:00Z'))).toBe(false);
    // Summer: 09:00 in Lisbon is 08:00 UTC.
    expect(isWithinBusinessHours(LISBON, new Date('2026-06-01T08:00:00Z'))).toBe(true);
  });

  it('counts only the minutes inside business hours between two instants', () => {
    // Monday 11:00 to Tuesday 10:00: 60 + 270 + 60 minutes.
    expect(businessMinutesBetween(LISBON, new Date('2026-11-30T11:00:00Z'), new Date('2026-12-01T10:00:00Z'))).toBe(390);
    // Across the holiday Tuesday: Monday 2026-12-07 17:00 to Wednesday: only 30 minutes on Monday.
    expect(businessMinutesBetween(LISBON, new Date('2026-12-07T17:00:00Z'), new Date('2026-12-09T12:00:00Z'))).toBe(30);
    expect(businessMinutesBetween(LISBON, new Date('2026-12-01T10:00:00Z'), new Date('2026-11-30T10:00:00Z'))).toBe(0);
  });
});

describe('the business-hours setting', () => {
  it('is open around the clock until set, and PATCH replaces what it names', async () => {
    const ws = await harness.workspace();
    const initial = await getJson(harness, '/api/v1/business-hours', { key: ws.api_key });
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ time_zone: 'UTC', holidays: [], open_now: true });
    expect(initial.body.hours).toHaveLength(7);
    const changed = await sendJson(harness, 'PATCH', '/api/v1/business-hours', ws.api_key, {
      time_zone: LISBON.time_zone,
      hours: LISBON.hours,
      holidays: [{ date: '2026-12-25', name: 'Christmas' }, { date: '2026-12-08' }],
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      time_zone: 'Europe/Lisbon',
      hours: LISBON.hours,
      holidays: [
        { date: '2026-12-08', name: null },
        { date: '2026-12-25', name: 'Christmas' },
      ],
    });
    const closed = await sendJson(harness, 'PATCH', '/api/v1/business-hours', ws.api_key, { hours: [] });
    expect(closed.body).toMatchObject({ time_zone: 'Europe/Lisbon', hours: [], open_now: false });
    expect(closed.body.holidays).toHaveLength(2);
  });

  it('answers 400 naming the field: overlapping windows, an end before its start, a bad zone, a repeated holiday', async () => {
    const ws = await harness.workspace();
    const refused = async (body: unknown) => {
      const response = await sendJson(harness, 'PATCH', '/api/v1/business-hours', ws.api_key, body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      return response.body.error.details;
    };
    expect(
      await refused({
        hours: [
          { weekday: 'monday', start: '09:00', end: '13:00' },
          { weekday: 'monday', start: '12:00', end: '17:00' },
        ],
      }),
    ).toEqual({ 'hours.1': 'overlaps window 0' });
    expect(await refused({ hours: [{ weekday: 'friday', start: '17:00', end: '09:00' }] })).toEqual({
      'hours.0.end': 'must be after start',
    });
    expect(await refused({ time_zone: 'Mars/Olympus' })).toEqual({ time_zone: 'must be an IANA time zone such as Europe/Lisbon' });
    expect(await refused({ holidays: [{ date: '2026-12-25' }, { date: '2026-12-25' }] })).toEqual({ 'holidays.1.date': 'repeats a date' });
    expect(await refused({ holidays: [{ date: '2026-02-30' }] })).toEqual({ 'holidays.0.date': 'must be a date YYYY-MM-DD' });
  });

  it('is refused without a key, to a key without the scope, and changed only by owners and admins', async () => {
    const ws = await harness.workspace();
    expect((await getJson(harness, '/api/v1/business-hours')).status).toBe(401);
    const messagesOnly = await harness.key(ws.workspace_id, ['messages']);
    const narrow = await getJson(harness, '/api/v1/business-hours', { key: messagesOnly });
    expect(narrow.status).toBe(403);
    expect(narrow.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const usersOnly = await harness.key(ws.workspace_id, ['users']);
    expect((await getJson(harness, '/api/v1/business-hours', { key: usersOnly })).status).toBe(200);
    expect((await sendJson(harness, 'PATCH', '/api/v1/business-hours', usersOnly, { hours: [] })).status).toBe(403);

    const owner = await ownerSession(harness, ws);
    const member = await invitePerson(harness, owner, `member-${Date.now()}@example.com`, 'member');
    const read = await asPerson(harness, member, '{ businessHours { time_zone open_now } }');
    expect(read.body.data.businessHours).toMatchObject({ time_zone: 'UTC' });
    const write = await asPerson(harness, member, 'mutation { businessHoursUpdate(hours: []) { open_now } }');
    expect(write.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    const admin = await asPerson(harness, owner, 'mutation { businessHoursUpdate(hours: []) { open_now } }');
    expect(admin.body.data.businessHoursUpdate).toEqual({ open_now: false });
  });
});

// Calendar slots through GraphQL: free times of a type over a range, read in the workspace's time zone
// across daylight-saving changes (America/New_York and Europe/Lisbon), leaving out times taken by
// scheduled appointments or their buffers (the candidate's and the existing one's), and times already begun.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';

const harness = await openHarness();
const { data, error } = graphqlCalls(harness);
const prisma = harness.db.prisma;

const SLOTS = `query($type: ID!, $from: DateTime!, $to: DateTime!) {
  calendarSlots(appointment_type_id: $type, from: $from, to: $to) { appointment_type_id time_zone slots { start_at end_at local_start local_end } } }`;

type Slot = { start_at: string; end_at: string; local_start: string; local_end: string };

async function workspaceIn(timeZone: string) {
  const workspace = await harness.workspace(`Slots ${timeZone}`);
  await data(workspace.api_key, 'mutation($tz: String!) { schedulingSettingsUpdate(time_zone: $tz) { time_zone } }', { tz: timeZone });
  const customer = await prisma.customer.create({ data: { company_id: workspace.workspace_id, name: 'Slot Tester' } });
  return { key: workspace.api_key, customerId: customer.id };
}

async function createType(
  apiKey: string,
  duration: number,
  buffer: number,
  availability: { weekday: string; start: string; end: string }[],
) {
  const result = await data<{ appointmentTypeCreate: { id: string } }>(
    apiKey,
    `mutation($duration: Int!, $buffer: Int, $availability: [AvailabilityWindowInput!]!) {
      appointmentTypeCreate(name: "Type", duration_minutes: $duration, buffer_minutes: $buffer, availability: $availability) { id } }`,
    { duration, buffer, availability },
  );
  return result.appointmentTypeCreate.id;
}

async function slots(apiKey: string, type: string, from: string, to: string) {
  return (await data<{ calendarSlots: { time_zone: string; slots: Slot[] } }>(apiKey, SLOTS, { type, from, to })).calendarSlots;
}

async function book(apiKey: string, customer: string, type: string, start: string) {
  return (
    await data<{ appointmentBook: { id: string } }>(
      apiKey,
      'mutation($c: ID!, $t: ID!, $s: DateTime!) { appointmentBook(customer_id: $c, appointment_type_id: $t, start_at: $s) { id } }',
      { c: customer, t: type, s: start },
    )
  ).appointmentBook;
}

describe('America/New_York across both daylight-saving changes of 2030', async () => {
  const { key, customerId } = await workspaceIn('America/New_York');
  const type = await createType(key, 60, 0, [
    ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekday) => ({ weekday, start: '09:00', end: '11:00' })),
    { weekday: 'sunday', start: '00:00', end: '04:00' },
  ]);

  it('keeps 09:00 local across the spring change and skips the hour that does not exist on 10 March', async () => {
    const result = await slots(key, type, '2030-03-08T05:00:00.000Z', '2030-03-12T04:00:00.000Z');
    expect(result.time_zone).toBe('America/New_York');
    expect(result.slots.map((slot) => [slot.start_at, slot.local_start, slot.local_end])).toEqual([
      ['2030-03-08T14:00:00.000Z', '2030-03-08T09:00:00-05:00', '2030-03-08T10:00:00-05:00'], // Friday, EST
      ['2030-03-08T15:00:00.000Z', '2030-03-08T10:00:00-05:00', '2030-03-08T11:00:00-05:00'],
      // Sunday 00:00–04:00 local holds three real hours: 02:00–03:00 does not exist that night.
      ['2030-03-10T05:00:00.000Z', '2030-03-10T00:00:00-05:00', '2030-03-10T01:00:00-05:00'],
      ['2030-03-10T06:00:00.000Z', '2030-03-10T01:00:00-05:00', '2030-03-10T03:00:00-04:00'],
      ['2030-03-10T07:00:00.000Z', '2030-03-10T03:00:00-04:00', '2030-03-10T04:00:00-04:00'],
      ['2030-03-11T13:00:00.000Z', '2030-03-11T09:00:00-04:00', '2030-03-11T10:00:00-04:00'], // Monday, EDT
      ['2030-03-11T14:00:00.000Z', '2030-03-11T10:00:00-04:00', '2030-03-11T11:00:00-04:00'],
    ]);
  });

  it('offers the repeated hour on 3 November: 00:00–04:00 local holds five real hours', async () => {
    const result = await slots(key, type, '2030-11-02T04:00:00.000Z', '2030-11-05T05:00:00.000Z');
    expect(result.slots.map((slot) => [slot.start_at, slot.local_start])).toEqual([
      ['2030-11-03T04:00:00.000Z', '2030-11-03T00:00:00-04:00'],
      ['2030-11-03T05:00:00.000Z', '2030-11-03T01:00:00-04:00'],
      ['2030-11-03T06:00:00.000Z', '2030-11-03T01:00:00-05:00'],
      ['2030-11-03T07:00:00.000Z', '2030-11-03T02:00:00-05:00'],
      ['2030-11-03T08:00:00.000Z', '2030-11-03T03:00:00-05:00'],
      ['2030-11-04T14:00:00.000Z', '2030-11-04T09:00:00-05:00'], // Monday, back on EST
      ['2030-11-04T15:00:00.000Z', '2030-11-04T10:00:00-05:00'],
    ]);
  });

  it('accepts a booking into a slot of the DST day and then no longer offers it', async () => {
    await book(key, customerId, type, '2030-03-10T06:00:00.000Z'); // 01:00 EST, ends 03:00 EDT
    const result = await slots(key, type, '2030-03-10T05:00:00.000Z', '2030-03-10T08:00:00.000Z');
    expect(result.slots.map((slot) => slot.start_at)).toEqual(['2030-03-10T05:00:00.000Z', '2030-03-10T07:00:00.000Z']);
  });
});

describe('Europe/Lisbon in the week of its spring change (31 March 2030), with buffers and bookings', async () => {
  const { key, customerId } = await workspaceIn('Europe/Lisbon');
  // 30 minutes plus 15 of buffer: slots every 45 minutes from the window start, 09:00 and 09:45.
  const consultation = await createType(key, 30, 15, [
    { weekday: 'monday', start: '09:00', end: '10:30' },
    { weekday: 'friday', start: '09:00', end: '10:30' },
  ]);
  const call = await createType(key, 15, 0, [{ weekday: 'monday', start: '09:00', end: '12:00' }]);
  const range = { from: '2030-03-25T00:00:00.000Z', to: '2030-04-02T00:00:00.000Z' };

  it('offers 09:00 and 09:45 local on each open day, moving from UTC+0 to UTC+1', async () => {
    const result = await slots(key, consultation, range.from, range.to);
    expect(result.slots.map((slot) => slot.local_start)).toEqual([
      '2030-03-25T09:00:00+00:00',
      '2030-03-25T09:45:00+00:00',
      '2030-03-29T09:00:00+00:00',
      '2030-03-29T09:45:00+00:00',
      '2030-04-01T09:00:00+01:00',
      '2030-04-01T09:45:00+01:00',
    ]);
    expect(result.slots.map((slot) => slot.start_at)).toEqual([
      '2030-03-25T09:00:00.000Z',
      '2030-03-25T09:45:00.000Z',
      '2030-03-29T09:00:00.000Z',
      '2030-03-29T09:45:00.000Z',
      '2030-04-01T08:00:00.000Z',
      '2030-04-01T08:45:00.000Z',
    ]);
  });

  it("leaves out slots taken by scheduled appointments or reached by the candidate's buffer; cancelled ones free theirs", async () => {
    await book(key, customerId, consultation, '2030-03-29T09:00:00.000Z'); // takes Friday 09:00 (blocks to 09:45)
    await book(key, customerId, call, '2030-03-25T09:30:00.000Z'); // 09:00's buffer (to 09:45) would reach it
    await book(key, customerId, call, '2030-04-01T08:50:00.000Z'); // inside the 08:45 slot
    const cancelled = await book(key, customerId, consultation, '2030-04-01T08:00:00.000Z');
    await data(key, 'mutation($id: ID!) { appointmentCancel(id: $id) { id } }', { id: cancelled.id });

    const result = await slots(key, consultation, range.from, range.to);
    expect(result.slots.map((slot) => slot.start_at)).toEqual([
      '2030-03-25T09:45:00.000Z',
      '2030-03-29T09:45:00.000Z',
      '2030-04-01T08:00:00.000Z',
    ]);
  });

  it('only offers slots that start within [from, to)', async () => {
    const result = await slots(key, consultation, '2030-04-01T08:30:00.000Z', '2030-04-01T08:46:00.000Z');
    expect(result.slots.map((slot) => slot.start_at)).toEqual([]);
    const wider = await slots(key, consultation, '2030-04-01T07:59:00.000Z', '2030-04-01T08:01:00.000Z');
    expect(wider.slots.map((slot) => slot.start_at)).toEqual(['2030-04-01T08:00:00.000Z']);
  });
});

describe('range rules', async () => {
  const { key } = await workspaceIn('UTC');
  const allDay = await createType(
    key,
    60,
    0,
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekday) => ({
      weekday,
      start: '00:00',
      end: '24:00',
    })),
  );

  it('never offers a slot that has already begun', async () => {
    const now = Date.now();
    const result = await slots(key, allDay, new Date(now - 2 * 86_400_000).toISOString(), new Date(now + 86_400_000).toISOString());
    const starts = result.slots.map((slot) => Date.parse(slot.start_at));
    expect(starts.length).toBeGreaterThan(20);
    expect(Math.min(...starts)).toBeGreaterThan(now);
    expect(Math.min(...starts) - now).toBeLessThanOrEqual(3_600_000);
  });

  it.each([
    ['to is not after from', '2030-01-02T00:00:00.000Z', '2030-01-01T00:00:00.000Z', 'must be after from'],
    ['the range exceeds 62 days', '2030-01-01T00:00:00.000Z', '2030-03-05T00:00:00.000Z', 'must be at most 62 days after from'],
  ])('refuses a range where %s', async (_case, from, to, reason) => {
    const failure = await error(key, SLOTS, { type: allDay, from, to });
    expect(failure).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { to: reason } });
  });

  it("answers NOT_FOUND for another workspace's appointment type", async () => {
    const { key: otherKey } = await workspaceIn('UTC');
    const failure = await error(otherKey, SLOTS, { type: allDay, from: '2030-01-01T00:00:00.000Z', to: '2030-01-02T00:00:00.000Z' });
    expect(failure).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Appointment type not found' });
  });
});

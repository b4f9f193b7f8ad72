// Scheduling through GraphQL: the workspace time zone, appointment types, and appointments — booking into
// availability, refusing overlaps (buffers included, also under concurrent bookings), the status rules,
// rescheduling, listing — each scoped to the caller's workspace and to the `scheduling` scope.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';

const harness = await openHarness();
const { data, error } = graphqlCalls(harness);
const prisma = harness.db.prisma;
const clinic = await harness.workspace('Clinic');
const other = await harness.workspace('Other clinic');
const key = clinic.api_key;

const ana = await prisma.customer.create({ data: { company_id: clinic.workspace_id, name: 'Ana Silva', phone_number: '+351912345678' } });
const bruno = await prisma.customer.create({ data: { company_id: clinic.workspace_id, name: 'Bruno Costa' } });
const foreignCustomer = await prisma.customer.create({ data: { company_id: other.workspace_id, name: 'Elsewhere' } });

const WEEKDAYS_9_TO_12 = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekday) => ({
  weekday,
  start: '09:00',
  end: '12:00',
}));

const TYPE_FIELDS = 'id name duration_minutes buffer_minutes active availability { weekday start end }';
const APPOINTMENT_FIELDS = 'id customer_id appointment_type_id start_at end_at status notes';

async function createType(apiKey: string, variables: Record<string, unknown>) {
  const result = await data<{ appointmentTypeCreate: { id: string } }>(
    apiKey,
    `mutation($name: String!, $duration: Int!, $buffer: Int, $availability: [AvailabilityWindowInput!]!, $active: Boolean) {
      appointmentTypeCreate(name: $name, duration_minutes: $duration, buffer_minutes: $buffer, availability: $availability, active: $active) { ${TYPE_FIELDS} } }`,
    variables,
  );
  return result.appointmentTypeCreate;
}

const BOOK = `mutation($customer: ID!, $type: ID!, $start: DateTime!, $notes: String) {
  appointmentBook(customer_id: $customer, appointment_type_id: $type, start_at: $start, notes: $notes) { ${APPOINTMENT_FIELDS} } }`;

async function book(start: string, typeId: string, customerId = ana.id, notes?: string) {
  return (
    await data<{ appointmentBook: { id: string; start_at: string; end_at: string; status: string } }>(key, BOOK, {
      customer: customerId,
      type: typeId,
      start,
      notes,
    })
  ).appointmentBook;
}

const UPDATE = `mutation($id: ID!, $start: DateTime, $notes: String, $status: String) {
  appointmentUpdate(id: $id, start_at: $start, notes: $notes, status: $status) { ${APPOINTMENT_FIELDS} } }`;

// Every availability of the clinic is read in Europe/Lisbon (UTC+1 in July 2030). The describe blocks below
// book while they are collected, before any test runs, so the zone is set here first.
await data(key, 'mutation { schedulingSettingsUpdate(time_zone: "Europe/Lisbon") { time_zone } }');

describe('workspace time zone', () => {
  it('defaults to UTC and is set by schedulingSettingsUpdate to an IANA zone', async () => {
    const fresh = await harness.workspace('Time zones');
    const before = await data<{ schedulingSettings: { time_zone: string } }>(fresh.api_key, '{ schedulingSettings { time_zone } }');
    expect(before.schedulingSettings.time_zone).toBe('UTC');
    const after = await data(fresh.api_key, 'mutation { schedulingSettingsUpdate(time_zone: "America/New_York") { time_zone public_id } }');
    expect(after['schedulingSettingsUpdate']).toEqual({
      time_zone: 'America/New_York',
      public_id: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/),
    });
  });

  it('refuses a name that is not an IANA time zone', async () => {
    const failure = await error(key, 'mutation { schedulingSettingsUpdate(time_zone: "Mars/Olympus") { time_zone } }');
    expect(failure).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { time_zone: expect.stringContaining('IANA') } });
  });
});

describe('appointment types', () => {
  it('creates a type with its duration, buffer and weekly availability', async () => {
    const created = await createType(key, { name: 'Consultation', duration: 30, buffer: 10, availability: WEEKDAYS_9_TO_12 });
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Consultation',
      duration_minutes: 30,
      buffer_minutes: 10,
      active: true,
      availability: WEEKDAYS_9_TO_12,
    });
  });

  it.each([
    ['a zero duration', { duration: 0 }, 'duration_minutes'],
    ['a negative buffer', { buffer: -5 }, 'buffer_minutes'],
    ['a window that ends before it starts', { availability: [{ weekday: 'monday', start: '10:00', end: '09:00' }] }, 'availability.0.end'],
    ['a malformed time', { availability: [{ weekday: 'monday', start: '9am', end: '12:00' }] }, 'availability.0.start'],
    [
      'overlapping windows on one weekday',
      {
        availability: [
          { weekday: 'monday', start: '09:00', end: '12:00' },
          { weekday: 'monday', start: '11:00', end: '13:00' },
        ],
      },
      'availability.1',
    ],
  ])('refuses %s with VALIDATION_ERROR naming the field', async (_case, change, field) => {
    const failure = await error(
      key,
      `mutation($duration: Int!, $buffer: Int, $availability: [AvailabilityWindowInput!]!) {
        appointmentTypeCreate(name: "Bad", duration_minutes: $duration, buffer_minutes: $buffer, availability: $availability) { id } }`,
      { duration: 30, availability: WEEKDAYS_9_TO_12, ...change },
    );
    expect(failure.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(failure.details ?? {})).toEqual([field]);
  });

  it('lists, filters by active, gets, updates and deletes types', async () => {
    const trial = await createType(key, { name: 'A trial call', duration: 15, availability: [], active: false });
    type Names = { appointmentTypes: { appointment_types: { name: string }[] } };
    const all = (await data<Names>(key, '{ appointmentTypes { appointment_types { name } } }')).appointmentTypes.appointment_types.map(
      (type) => type.name,
    );
    expect(all).toEqual(expect.arrayContaining(['A trial call', 'Consultation']));
    expect(all).toEqual([...all].sort());
    const active = (
      await data<Names>(key, '{ appointmentTypes(active: true) { appointment_types { name } } }')
    ).appointmentTypes.appointment_types.map((type) => type.name);
    expect(active).toContain('Consultation');
    expect(active).not.toContain('A trial call');

    const updated = await data(
      key,
      `mutation($id: ID!) { appointmentTypeUpdate(id: $id, name: "Intro call", active: true, buffer_minutes: 5) { ${TYPE_FIELDS} } }`,
      { id: trial.id },
    );
    expect(updated['appointmentTypeUpdate']).toMatchObject({ name: 'Intro call', active: true, buffer_minutes: 5, duration_minutes: 15 });
    const fetched = await data(key, 'query($id: ID!) { appointmentType(id: $id) { name } }', { id: trial.id });
    expect(fetched['appointmentType']).toEqual({ name: 'Intro call' });

    const deleted = await data(key, 'mutation($id: ID!) { appointmentTypeDelete(id: $id) { id name } }', { id: trial.id });
    expect(deleted['appointmentTypeDelete']).toEqual({ id: trial.id, name: 'Intro call' });
    expect((await error(key, 'query($id: ID!) { appointmentType(id: $id) { id } }', { id: trial.id })).code).toBe('NOT_FOUND');
  });

  it('refuses to delete a type that has appointments (CONFLICT) and suggests deactivating it', async () => {
    const type = await createType(key, {
      name: 'Follow-up',
      duration: 20,
      availability: [{ weekday: 'saturday', start: '10:00', end: '12:00' }],
    });
    await book('2030-07-06T09:00:00.000Z', type.id); // Saturday 10:00 in Lisbon
    const failure = await error(key, 'mutation($id: ID!) { appointmentTypeDelete(id: $id) { id } }', { id: type.id });
    expect(failure).toMatchObject({ status: 409, code: 'CONFLICT', message: expect.stringContaining('active to false') });
  });
});

describe('booking', async () => {
  const consultation = await createType(key, { name: 'Consultation (booking)', duration: 30, buffer: 10, availability: WEEKDAYS_9_TO_12 });
  // Monday 1 July 2030; Lisbon is UTC+1, so 09:00 local is 08:00Z.
  const first = await book('2030-07-01T08:00:00.000Z', consultation.id, ana.id, 'First visit');

  it('books into availability; end_at is start plus the duration', async () => {
    expect(first).toMatchObject({
      start_at: '2030-07-01T08:00:00.000Z',
      end_at: '2030-07-01T08:30:00.000Z',
      status: 'scheduled',
      customer_id: ana.id,
      appointment_type_id: consultation.id,
      notes: 'First visit',
    });
  });

  it.each([
    ['overlaps it', '2030-07-01T08:20:00.000Z'],
    ['starts inside its 10-minute buffer', '2030-07-01T08:35:00.000Z'],
  ])('refuses with CONFLICT a booking that %s', async (_case, start) => {
    const failure = await error(key, BOOK, { customer: bruno.id, type: consultation.id, start });
    expect(failure).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      message: 'The time overlaps another scheduled appointment (buffers included)',
      details: { start_at: 'overlaps another scheduled appointment', conflicting_appointment_id: first.id },
    });
  });

  it('accepts a booking that starts exactly when the buffer ends', async () => {
    const next = await book('2030-07-01T08:40:00.000Z', consultation.id, bruno.id);
    expect(next.start_at).toBe('2030-07-01T08:40:00.000Z');
  });

  it('refuses a booking whose own buffer would reach the next appointment, and accepts one that just fits', async () => {
    // Friday 12 July: 09:00Z is booked. 08:25Z would end at 08:55Z, but its buffer runs to 09:05Z.
    const later = await book('2030-07-12T09:00:00.000Z', consultation.id, bruno.id);
    const failure = await error(key, BOOK, { customer: ana.id, type: consultation.id, start: '2030-07-12T08:25:00.000Z' });
    expect(failure).toMatchObject({ code: 'CONFLICT', details: { conflicting_appointment_id: later.id } });
    expect((await book('2030-07-12T08:20:00.000Z', consultation.id)).end_at).toBe('2030-07-12T08:50:00.000Z');
  });

  it.each([
    ['after the window ends (12:45 local)', '2030-07-01T11:45:00.000Z'],
    ['running past the window end (11:40–12:10 local)', '2030-07-01T10:40:00.000Z'],
    ['on a day without availability (Saturday)', '2030-07-06T09:00:00.000Z'],
  ])('refuses with VALIDATION_ERROR a booking %s', async (_case, start) => {
    const failure = await error(key, BOOK, { customer: ana.id, type: consultation.id, start });
    expect(failure).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { start_at: 'is outside the availability of the appointment type (in Europe/Lisbon)' },
    });
  });

  it('refuses a booking in the past', async () => {
    const failure = await error(key, BOOK, { customer: ana.id, type: consultation.id, start: '2020-07-01T08:00:00.000Z' });
    expect(failure).toMatchObject({ code: 'VALIDATION_ERROR', details: { start_at: 'must be in the future' } });
  });

  it('refuses a booking of an inactive type', async () => {
    const paused = await createType(key, { name: 'Paused', duration: 30, availability: WEEKDAYS_9_TO_12, active: false });
    const failure = await error(key, BOOK, { customer: ana.id, type: paused.id, start: '2030-07-02T08:00:00.000Z' });
    expect(failure).toMatchObject({ code: 'VALIDATION_ERROR', details: { appointment_type_id: 'is not active' } });
  });

  it('lets exactly one of several concurrent bookings of the same time win; the others get CONFLICT', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () =>
        harness.graphql(key, BOOK, { customer: ana.id, type: consultation.id, start: '2030-07-02T09:00:00.000Z' }),
      ),
    );
    const won = attempts.filter((attempt) => !attempt.body.errors);
    const lost = attempts.filter((attempt) => attempt.body.errors);
    expect(won).toHaveLength(1);
    expect(lost.map((attempt) => [attempt.status, attempt.body.errors?.[0]?.extensions.code])).toEqual(Array(4).fill([200, 'CONFLICT']));
    const stored = await prisma.appointment.count({
      where: { company_id: clinic.workspace_id, start_at: new Date('2030-07-02T09:00:00.000Z') },
    });
    expect(stored).toBe(1);
  });
});

describe('status rules and rescheduling', async () => {
  const type = await createType(key, { name: 'Consultation (rules)', duration: 30, availability: WEEKDAYS_9_TO_12 });

  it('cancels a scheduled appointment, frees its time, and treats a second cancel as a no-op', async () => {
    const appointment = await book('2030-07-03T08:00:00.000Z', type.id);
    const cancelled = await data(key, `mutation($id: ID!) { appointmentCancel(id: $id) { ${APPOINTMENT_FIELDS} } }`, {
      id: appointment.id,
    });
    expect(cancelled['appointmentCancel']).toMatchObject({ id: appointment.id, status: 'cancelled' });
    const again = await data(key, 'mutation($id: ID!) { appointmentCancel(id: $id) { status } }', { id: appointment.id });
    expect(again['appointmentCancel']).toEqual({ status: 'cancelled' });
    const rebooked = await book('2030-07-03T08:00:00.000Z', type.id, bruno.id);
    expect(rebooked.status).toBe('scheduled');
  });

  it('keeps cancelled, completed and no_show final (INVALID_TRANSITION)', async () => {
    const appointment = await book('2030-07-03T09:00:00.000Z', type.id);
    await data(key, 'mutation($id: ID!) { appointmentCancel(id: $id) { id } }', { id: appointment.id });
    const reopen = await error(key, UPDATE, { id: appointment.id, status: 'scheduled' });
    expect(reopen).toMatchObject({ status: 409, code: 'INVALID_TRANSITION', details: { status: 'cancelled is final' } });
    const reschedule = await error(key, UPDATE, { id: appointment.id, start: '2030-07-04T08:00:00.000Z' });
    expect(reschedule).toMatchObject({
      code: 'INVALID_TRANSITION',
      details: { start_at: 'only scheduled appointments can be rescheduled' },
    });
  });

  it('marks completed or no_show only once the appointment has started', async () => {
    const future = await book('2030-07-03T10:00:00.000Z', type.id);
    const early = await error(key, UPDATE, { id: future.id, status: 'completed' });
    expect(early).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'completed is allowed only after start_at' } });

    const past = await prisma.appointment.create({
      data: {
        company_id: clinic.workspace_id,
        customer_id: ana.id,
        appointment_type_id: type.id,
        start_at: new Date('2026-01-05T09:00:00.000Z'),
        end_at: new Date('2026-01-05T09:30:00.000Z'),
        blocked_until: new Date('2026-01-05T09:30:00.000Z'),
      },
    });
    const noShow = await data(key, UPDATE, { id: past.id, status: 'no_show' });
    expect(noShow['appointmentUpdate']).toMatchObject({ status: 'no_show' });
    const completed = await error(key, UPDATE, { id: past.id, status: 'completed' });
    expect(completed).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'no_show is final' } });
  });

  it('refuses an unknown status and a reschedule combined with a status change', async () => {
    const appointment = await book('2030-07-04T10:00:00.000Z', type.id);
    expect((await error(key, UPDATE, { id: appointment.id, status: 'done' })).details).toEqual({
      status: 'must be one of scheduled, cancelled, completed, no_show',
    });
    expect((await error(key, UPDATE, { id: appointment.id, status: 'cancelled', start: '2030-07-05T08:00:00.000Z' })).details).toEqual({
      start_at: 'cannot be combined with a status change',
    });
  });

  it('reschedules with the booking checks, over its own old time, and edits notes', async () => {
    const appointment = await book('2030-07-05T08:00:00.000Z', type.id);
    const blocker = await book('2030-07-05T09:00:00.000Z', type.id, bruno.id);
    const overlapping = await error(key, UPDATE, { id: appointment.id, start: '2030-07-05T09:15:00.000Z' });
    expect(overlapping).toMatchObject({ code: 'CONFLICT', details: { conflicting_appointment_id: blocker.id } });
    const outside = await error(key, UPDATE, { id: appointment.id, start: '2030-07-05T12:00:00.000Z' });
    expect(outside.code).toBe('VALIDATION_ERROR');

    const moved = await data(key, UPDATE, { id: appointment.id, start: '2030-07-05T08:15:00.000Z', notes: 'Moved 15 minutes' });
    expect(moved['appointmentUpdate']).toMatchObject({
      start_at: '2030-07-05T08:15:00.000Z',
      end_at: '2030-07-05T08:45:00.000Z',
      status: 'scheduled',
      notes: 'Moved 15 minutes',
    });
  });
});

describe('listing', async () => {
  const type = await createType(key, { name: 'Consultation (listing)', duration: 30, availability: WEEKDAYS_9_TO_12 });
  // 8 to 10 July 2030; nothing else in this file books those days.
  const monday = await book('2030-07-08T10:00:00.000Z', type.id);
  const tuesday = await book('2030-07-09T08:00:00.000Z', type.id, bruno.id);
  const tuesdayLater = await book('2030-07-09T10:00:00.000Z', type.id);
  await data(key, 'mutation($id: ID!) { appointmentCancel(id: $id) { id } }', { id: tuesdayLater.id });
  const wednesday = await book('2030-07-10T08:00:00.000Z', type.id);
  const LIST = `query($from: DateTime, $to: DateTime, $status: String, $customer: ID, $limit: Int, $cursor: String) {
    appointments(from: $from, to: $to, status: $status, customer_id: $customer, limit: $limit, cursor: $cursor) {
      data { id start_at customer { name } appointment_type { name } } next_cursor has_more } }`;
  type ListPage = { appointments: { data: { id: string }[]; next_cursor: string | null; has_more: boolean } };
  const week = { from: '2030-07-08T00:00:00.000Z', to: '2030-07-11T00:00:00.000Z' };

  it('lists the appointments starting in [from, to) in calendar order, with customer and type', async () => {
    const page = await data<{ appointments: { data: unknown[] } }>(key, LIST, week);
    expect(page.appointments.data).toEqual([
      { id: monday.id, start_at: monday.start_at, customer: { name: 'Ana Silva' }, appointment_type: { name: 'Consultation (listing)' } },
      {
        id: tuesday.id,
        start_at: tuesday.start_at,
        customer: { name: 'Bruno Costa' },
        appointment_type: { name: 'Consultation (listing)' },
      },
      {
        id: tuesdayLater.id,
        start_at: tuesdayLater.start_at,
        customer: { name: 'Ana Silva' },
        appointment_type: { name: 'Consultation (listing)' },
      },
      {
        id: wednesday.id,
        start_at: wednesday.start_at,
        customer: { name: 'Ana Silva' },
        appointment_type: { name: 'Consultation (listing)' },
      },
    ]);
  });

  it('filters by status and by contact', async () => {
    const cancelled = await data<ListPage>(key, LIST, { ...week, status: 'cancelled' });
    expect(cancelled.appointments.data.map((row) => row.id)).toEqual([tuesdayLater.id]);
    const brunos = await data<ListPage>(key, LIST, { ...week, customer: bruno.id });
    expect(brunos.appointments.data.map((row) => row.id)).toEqual([tuesday.id]);
  });

  it('pages with next_cursor until has_more is false', async () => {
    const first = await data<ListPage>(key, LIST, { ...week, limit: 3 });
    expect(first.appointments.data.map((row) => row.id)).toEqual([monday.id, tuesday.id, tuesdayLater.id]);
    expect(first.appointments.has_more).toBe(true);
    const second = await data<ListPage>(key, LIST, { ...week, limit: 3, cursor: first.appointments.next_cursor });
    expect(second.appointments).toEqual({
      data: [
        {
          id: wednesday.id,
          start_at: wednesday.start_at,
          customer: { name: 'Ana Silva' },
          appointment_type: { name: 'Consultation (listing)' },
        },
      ],
      next_cursor: null,
      has_more: false,
    });
  });

  it('refuses a cursor that no page handed out', async () => {
    const forged = [`a1.${Date.now()}.aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa`, 'a1.x.0192f5a4-7c1e-7b2a-9d3e-1a2b3c4d5e6f', monday.id];
    for (const cursor of forged) {
      const failure = await error(key, LIST, { ...week, cursor });
      expect(failure).toMatchObject({ code: 'VALIDATION_ERROR', details: { cursor: 'must be the next_cursor of a previous page' } });
    }
  });

  it('gets one appointment', async () => {
    const one = await data(key, 'query($id: ID!) { appointment(id: $id) { id status customer { id } } }', { id: monday.id });
    expect(one['appointment']).toEqual({ id: monday.id, status: 'scheduled', customer: { id: ana.id } });
  });
});

describe('workspace isolation and scope', async () => {
  const type = await createType(key, { name: 'Consultation (isolation)', duration: 30, availability: WEEKDAYS_9_TO_12 });
  const mine = await book('2030-07-11T08:00:00.000Z', type.id);

  it("answers NOT_FOUND for another workspace's appointment, type and contact, exactly as for missing ones", async () => {
    const missing = '01a1fc9c-0000-7000-8000-000000000000';
    for (const [query, id] of [
      ['query($id: ID!) { appointment(id: $id) { id } }', mine.id],
      ['query($id: ID!) { appointmentType(id: $id) { id } }', type.id],
      ['mutation($id: ID!) { appointmentCancel(id: $id) { id } }', mine.id],
      [`mutation($id: ID!) { appointmentUpdate(id: $id, notes: "x") { id } }`, mine.id],
      ['mutation($id: ID!) { appointmentTypeDelete(id: $id) { id } }', type.id],
    ] as const) {
      const foreign = await error(other.api_key, query, { id });
      const absent = await error(other.api_key, query, { id: missing });
      expect(foreign).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect(foreign.message).toBe(absent.message);
    }
    const foreignBooking = await error(key, BOOK, { customer: foreignCustomer.id, type: type.id, start: '2030-07-11T09:00:00.000Z' });
    expect(foreignBooking).toMatchObject({ code: 'NOT_FOUND', message: 'Customer not found' });
  });

  it("lists none of another workspace's appointments or types, and keeps calendars separate", async () => {
    const list = await data<{ appointments: { data: unknown[] } }>(other.api_key, '{ appointments(limit: 100) { data { id } } }');
    expect(list.appointments.data).toEqual([]);
    const types = await data<{ appointmentTypes: { appointment_types: unknown[] } }>(
      other.api_key,
      '{ appointmentTypes { appointment_types { id } } }',
    );
    expect(types.appointmentTypes.appointment_types).toEqual([]);
    // Other clinic is on UTC; 09:00Z on the same Thursday overlaps nothing of its own.
    const ownType = await createType(other.api_key, { name: 'Visit', duration: 60, availability: WEEKDAYS_9_TO_12 });
    const theirs = await data(other.api_key, BOOK, { customer: foreignCustomer.id, type: ownType.id, start: '2030-07-11T09:00:00.000Z' });
    expect(theirs['appointmentBook']).toMatchObject({ status: 'scheduled' });
  });

  it('requires the scheduling scope (403 INSUFFICIENT_SCOPE)', async () => {
    const contactsOnly = await harness.key(clinic.workspace_id, ['customers']);
    for (const query of [
      '{ appointments { data { id } } }',
      '{ appointmentTypes { appointment_types { id } } }',
      '{ schedulingSettings { time_zone } }',
    ]) {
      const failure = await error(contactsOnly, query);
      expect(failure).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', details: { required_scope: ['scheduling'] } });
    }
    const scheduler = await harness.key(clinic.workspace_id, ['scheduling']);
    expect((await data(scheduler, '{ schedulingSettings { time_zone } }'))['schedulingSettings']).toEqual({ time_zone: 'Europe/Lisbon' });
  });
});

// On PostgreSQL, two bookings whose rows wait on each other inside the no-overlap constraint's check deadlock,
// and PostgreSQL aborts one of them. Proves the aborted booking is tried again rather than answered 500: it is
// booked when the other transaction rolls back, and refused with the overlap CONFLICT when the other commits.
// The other transaction is held open on a second connection, with a long deadlock_timeout so that the booking
// is the one PostgreSQL aborts. Any other write PostgreSQL aborts this way is answered 409 CONFLICT with the reason
// `concurrent_write` (nothing was written; try again), never 500. PGlite has one connection, so it cannot
// deadlock, and the tests are skipped there.
import type { GraphQLError } from 'graphql';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';
import { maskError } from '../../schema/shared/errors.js';

const databaseUrl = process.env['TEST_DATABASE_URL'];

const BOOK = `mutation($customer: ID!, $type: ID!, $start: DateTime!) {
  appointmentBook(customer_id: $customer, appointment_type_id: $type, start_at: $start) { id start_at } }`;
const INSERT = `INSERT INTO appointments (id, company_id, customer_id, appointment_type_id, start_at, end_at, blocked_until, updated_at)
  VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $5, now())`;

describe.skipIf(!databaseUrl)('a booking that PostgreSQL aborts to break a deadlock', { timeout: 30_000 }, async () => {
  const harness = await openHarness();
  const { data } = graphqlCalls(harness);
  const clinic = await harness.workspace('Deadlocked clinic');
  const customer = await harness.db.prisma.customer.create({ data: { company_id: clinic.workspace_id, name: 'Ana Silva' } });
  const tuesdays = [{ weekday: 'tuesday', start: '08:00', end: '12:00' }];
  const { appointmentTypeCreate: type } = await data<{ appointmentTypeCreate: { id: string } }>(
    clinic.api_key,
    `mutation($availability: [AvailabilityWindowInput!]!) {
      appointmentTypeCreate(name: "Consultation", duration_minutes: 30, buffer_minutes: 15, availability: $availability) { id } }`,
    { availability: tuesdays },
  );

  /** Books 09:00–09:45 (buffer included) on the given Tuesday while another transaction holds 08:40–09:05, then
   * makes that transaction insert 09:30–10:00 too, which waits on the booking's row: a deadlock. */
  async function bookIntoDeadlock(day: string, otherEnds: 'ROLLBACK' | 'COMMIT') {
    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    onTestFinished(() => other.end());
    await other.query('BEGIN');
    await other.query(`SET LOCAL deadlock_timeout = '20s'`);
    await other.query(INSERT, [clinic.workspace_id, customer.id, type.id, `${day}T08:40:00Z`, `${day}T09:05:00Z`]);

    const booking = harness.graphql(clinic.api_key, BOOK, { customer: customer.id, type: type.id, start: `${day}T09:00:00.000Z` });
    const bookingWaits = async () =>
      (
        await other.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      ).rows[0].waiting;
    await expect.poll(bookingWaits, { timeout: 10_000, interval: 50 }).toBe(1);

    await other.query(INSERT, [clinic.workspace_id, customer.id, type.id, `${day}T09:30:00Z`, `${day}T10:00:00Z`]);
    await other.query(otherEnds);
    return booking;
  }

  it('books the time once the other transaction rolls back', async () => {
    const booked = await bookIntoDeadlock('2030-07-02', 'ROLLBACK');
    expect(booked.body.errors).toBeUndefined();
    expect(booked.body.data).toEqual({ appointmentBook: { id: expect.any(String), start_at: '2030-07-02T09:00:00.000Z' } });
  });

  it('refuses the time with the overlap CONFLICT once the other transaction commits', async () => {
    const refused = await bookIntoDeadlock('2030-07-09', 'COMMIT');
    expect(refused.status).toBe(200);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: 'CONFLICT',
      details: { start_at: 'overlaps another scheduled appointment' },
    });
    const stored = await harness.db.prisma.appointment.findMany({
      where: { company_id: clinic.workspace_id, start_at: { gte: new Date('2030-07-09T00:00:00Z') } },
      select: { start_at: true },
      orderBy: { start_at: 'asc' },
    });
    expect(stored.map((row) => row.start_at.toISOString())).toEqual(['2030-07-09T08:40:00.000Z', '2030-07-09T09:30:00.000Z']);
  });

  it('answers any other write that PostgreSQL aborts in a deadlock 409 CONFLICT concurrent_write', async () => {
    const other = await harness.workspace('Other clinic');
    const [first, second] = [clinic.workspace_id, other.workspace_id];
    let bothHoldOne!: () => void;
    const held = new Promise<void>((resolve) => {
      let holding = 0;
      bothHoldOne = () => ++holding === 2 && resolve();
    });
    /** Locks one workspace's row, waits until the other transaction holds the other row, then asks for it. */
    const crossing = (mine: string, theirs: string) =>
      harness.db.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE workspaces SET name = name WHERE id = ${mine}::uuid`;
        bothHoldOne();
        await held;
        await tx.$executeRaw`UPDATE workspaces SET name = name WHERE id = ${theirs}::uuid`;
      });
    const outcomes = await Promise.allSettled([crossing(first, second), crossing(second, first)]);
    const aborted = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(aborted).toHaveLength(1);
    const answered = maskError((aborted[0] as PromiseRejectedResult).reason, () => undefined) as GraphQLError;
    expect(answered.extensions).toEqual({ code: 'CONFLICT', http: { status: 409 }, details: { reason: 'concurrent_write' } });
  });
});

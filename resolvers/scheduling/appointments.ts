// Appointments of the caller's workspace: book, list, get, reschedule or annotate, and move through the
// status rules. The workspace is one calendar: scheduled appointments never overlap, each one keeping its
// type's buffer free after it. A pre-check gives the clear error; the database's exclusion constraint
// (appointments_no_overlap) makes the rule hold even for bookings that race each other.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { availabilityOf, findAppointmentType } from './appointmentTypes.js';
import { MINUTE_MS, withinAvailability } from './availability.js';
import { violatesConstraint, writeConflict } from '../shared/databaseErrors.js';
import { cursorArgument, keysetPage } from '../shared/pagination.js';
import { workspaceTimeZone } from './schedulingSettings.js';
import { idInput, instant, limit, parseInput, uuid } from '../shared/validation.js';

type Query = { select?: Prisma.AppointmentSelect; include?: Prisma.AppointmentInclude };
type AppointmentType = Prisma.AppointmentTypeGetPayload<object>;

export const APPOINTMENT_STATUSES = ['scheduled', 'cancelled', 'completed', 'no_show'] as const;
type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** The statuses each status may move to. Completed and no_show also need the appointment to have started. */
const TRANSITIONS: Record<AppointmentStatus, readonly AppointmentStatus[]> = {
  scheduled: ['cancelled', 'completed', 'no_show'],
  cancelled: [],
  completed: [],
  no_show: [],
};
const NEEDS_START: readonly AppointmentStatus[] = ['completed', 'no_show'];

const OVERLAP_CONSTRAINT = 'appointments_no_overlap';

const notes = z.string().max(5000, { message: 'must be at most 5000 characters' });
const status = z.string().pipe(z.enum(APPOINTMENT_STATUSES, { message: `must be one of ${APPOINTMENT_STATUSES.join(', ')}` }));

const bookInput = z.object({
  customer_id: uuid,
  appointment_type_id: uuid,
  start_at: instant,
  notes: notes.nullish(),
});

const updateInput = z
  .object({ id: uuid, start_at: instant.nullish(), notes: notes.nullish(), status: status.nullish() })
  .refine((input) => !(input.start_at && input.status && input.status !== 'scheduled'), {
    message: 'cannot be combined with a status change',
    path: ['start_at'],
  });

/** Appointments page in calendar order, so the cursor holds the start time and the id: `a1.<epoch ms>.<id>`. */
const CURSOR_PATTERN = /^a1\.(\d+)\.([0-9a-f-]{36})$/;

function decodeCursor(value: string): { at: Date; id: string } | null {
  const [, at, id] = CURSOR_PATTERN.exec(value) ?? [];
  return at && id && uuid.safeParse(id).success ? { at: new Date(Number(at)), id } : null;
}

const listInput = z.object({
  from: instant.nullish(),
  to: instant.nullish(),
  status: status.nullish(),
  customer_id: uuid.nullish(),
  limit: limit(50),
  cursor: cursorArgument(decodeCursor),
});

/** Appointments in calendar order (start time, then id); from/to select those starting in [from, to). */
export async function listAppointments(ctx: Context, input: z.input<typeof listInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  const start: Prisma.DateTimeFilter = {};
  if (args.from) start.gte = args.from;
  if (args.to) start.lt = args.to;
  const after: Prisma.AppointmentWhereInput = args.cursor
    ? { OR: [{ start_at: { gt: args.cursor.at } }, { start_at: args.cursor.at, id: { gt: args.cursor.id } }] }
    : {};
  return keysetPage(
    args.limit,
    (take) =>
      ctx.prisma.appointment.findMany({
        ...query,
        where: {
          company_id: workspaceId,
          start_at: start,
          ...(args.status ? { status: args.status } : {}),
          ...(args.customer_id ? { customer_id: args.customer_id } : {}),
          ...after,
        },
        orderBy: [{ start_at: 'asc' }, { id: 'asc' }],
        take,
      }),
    (row) => `a1.${row.start_at.getTime()}.${row.id}`,
  );
}

async function findAppointment<Q extends Query>(db: Db, workspaceId: string, id: string, query?: Q) {
  const appointment = await db.appointment.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!appointment) throw notFound('Appointment');
  return appointment;
}

export function getAppointment(ctx: Context, input: { id: string }, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  return findAppointment(ctx.prisma, workspaceId, id, query);
}

/** When an appointment of the type starting at `start` would end, and until when it keeps others off. */
async function placement(db: Db, workspaceId: string, type: AppointmentType, start: Date) {
  const timeZone = await workspaceTimeZone(db, workspaceId);
  const end = new Date(start.getTime() + type.duration_minutes * MINUTE_MS);
  const blockedUntil = new Date(end.getTime() + type.buffer_minutes * MINUTE_MS);
  if (start.getTime() <= Date.now()) {
    throw new DomainError('VALIDATION_ERROR', 'The appointment must start in the future', { start_at: 'must be in the future' });
  }
  if (!withinAvailability(availabilityOf(type), timeZone, start, end)) {
    throw new DomainError('VALIDATION_ERROR', 'The time is outside the availability of the appointment type', {
      start_at: `is outside the availability of the appointment type (in ${timeZone})`,
    });
  }
  return { end, blockedUntil };
}

/** The clear error for an overlap; the exclusion constraint backs it up under concurrency. */
async function assertFree(db: Db, workspaceId: string, start: Date, blockedUntil: Date, exceptId?: string) {
  const clash = await db.appointment.findFirst({
    where: {
      company_id: workspaceId,
      status: 'scheduled',
      start_at: { lt: blockedUntil },
      blocked_until: { gt: start },
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
    select: { id: true },
  });
  if (clash) throw overlapError(clash.id);
}

function overlapError(appointmentId?: string): DomainError {
  return new DomainError('CONFLICT', 'The time overlaps another scheduled appointment (buffers included)', {
    start_at: 'overlaps another scheduled appointment',
    ...(appointmentId ? { conflicting_appointment_id: appointmentId } : {}),
  });
}

/** Concurrent bookings of one time can deadlock inside the exclusion constraint's check, each waiting for the
 * other's row; PostgreSQL aborts one of them, and trying it again meets the winner's row as a plain overlap. */
const DEADLOCK_RETRIES = 3;

async function guardOverlap<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (violatesConstraint(error, OVERLAP_CONSTRAINT)) throw overlapError();
      if (!writeConflict(error) || attempt === DEADLOCK_RETRIES) throw error;
    }
  }
}

export async function bookAppointment(ctx: Context, input: z.input<typeof bookInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(bookInput, input);
  const customer = await ctx.prisma.customer.findFirst({ where: { id: args.customer_id, company_id: workspaceId }, select: { id: true } });
  if (!customer) throw notFound('Customer');
  const type = await findAppointmentType(ctx.prisma, workspaceId, args.appointment_type_id);
  if (!type.active) {
    throw new DomainError('VALIDATION_ERROR', 'The appointment type is not active', { appointment_type_id: 'is not active' });
  }
  const { end, blockedUntil } = await placement(ctx.prisma, workspaceId, type, args.start_at);
  await assertFree(ctx.prisma, workspaceId, args.start_at, blockedUntil);
  return guardOverlap(() =>
    ctx.prisma.appointment.create({
      ...query,
      data: {
        company_id: workspaceId,
        customer_id: args.customer_id,
        appointment_type_id: type.id,
        start_at: args.start_at,
        end_at: end,
        blocked_until: blockedUntil,
        notes: args.notes ?? null,
      },
    }),
  );
}

function assertTransition(from: string, to: AppointmentStatus, startAt: Date) {
  if (from === to) return;
  const allowed = TRANSITIONS[from as AppointmentStatus] ?? [];
  if (!allowed.includes(to)) {
    throw new DomainError('INVALID_TRANSITION', `An appointment cannot go from ${from} to ${to}`, {
      status: allowed.length ? `from ${from} only ${allowed.join(', ')} are allowed` : `${from} is final`,
    });
  }
  if (NEEDS_START.includes(to) && startAt.getTime() > Date.now()) {
    throw new DomainError('INVALID_TRANSITION', `An appointment can be marked ${to} only once it has started`, {
      status: `${to} is allowed only after start_at`,
    });
  }
}

/** Reschedules (start_at, only while scheduled), edits notes, or changes the status by the rules. */
export async function updateAppointment(ctx: Context, input: z.input<typeof updateInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(updateInput, input);
  const current = await findAppointment(ctx.prisma, workspaceId, args.id);
  const data: Prisma.AppointmentUncheckedUpdateInput = {};
  if (args.notes !== null && args.notes !== undefined) data.notes = args.notes;
  if (args.status) {
    assertTransition(current.status, args.status, current.start_at);
    data.status = args.status;
  }
  if (args.start_at) {
    if (current.status !== 'scheduled') {
      throw new DomainError('INVALID_TRANSITION', `A ${current.status} appointment cannot be rescheduled`, {
        start_at: 'only scheduled appointments can be rescheduled',
      });
    }
    const type = await findAppointmentType(ctx.prisma, workspaceId, current.appointment_type_id);
    const { end, blockedUntil } = await placement(ctx.prisma, workspaceId, type, args.start_at);
    await assertFree(ctx.prisma, workspaceId, args.start_at, blockedUntil, current.id);
    Object.assign(data, { start_at: args.start_at, end_at: end, blocked_until: blockedUntil });
  }
  // Conditional on the status read above, so two racing status changes cannot both apply.
  const { count } = await guardOverlap(() =>
    ctx.prisma.appointment.updateMany({ where: { id: current.id, status: current.status }, data }),
  );
  if (count === 0) throw new DomainError('CONFLICT', 'The appointment changed meanwhile; read it again and retry');
  return ctx.prisma.appointment.findUniqueOrThrow({ ...query, where: { id: current.id } });
}

export async function cancelAppointment(ctx: Context, input: { id: string }, query: Query = {}) {
  return updateAppointment(ctx, { id: input.id, status: 'cancelled' }, query);
}

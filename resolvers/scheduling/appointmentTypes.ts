// Appointment types of the caller's workspace: what can be booked, for how long, with what buffer after,
// and when (weekly availability in the workspace's time zone).
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { availabilitySchema, type AvailabilityWindow } from './availability.js';
import { violatesConstraint } from '../shared/databaseErrors.js';
import { idInput, parseInput, uuid } from '../shared/validation.js';

type Query = { select?: Prisma.AppointmentTypeSelect; include?: Prisma.AppointmentTypeInclude };

const MAX_DAY_MINUTES = 24 * 60;

const fields = {
  name: z.string().trim().min(1, { message: 'is required' }).max(200, { message: 'must be at most 200 characters' }),
  duration_minutes: z
    .number({ message: 'must be an integer' })
    .int({ message: 'must be an integer' })
    .min(5, { message: 'must be between 5 and 1440' })
    .max(MAX_DAY_MINUTES, { message: 'must be between 5 and 1440' }),
  buffer_minutes: z
    .number({ message: 'must be an integer' })
    .int({ message: 'must be an integer' })
    .min(0, { message: 'must be between 0 and 1440' })
    .max(MAX_DAY_MINUTES, { message: 'must be between 0 and 1440' }),
  availability: availabilitySchema,
  active: z.boolean(),
};

const createInput = z.object({
  ...fields,
  buffer_minutes: fields.buffer_minutes.nullish().transform((value) => value ?? 0),
  active: fields.active.nullish().transform((value) => value ?? true),
});

const updateInput = z.object({
  id: uuid,
  name: fields.name.nullish(),
  duration_minutes: fields.duration_minutes.nullish(),
  buffer_minutes: fields.buffer_minutes.nullish(),
  availability: fields.availability.nullish(),
  active: fields.active.nullish(),
});

/** The stored availability, which was validated on the way in. */
export function availabilityOf(type: { availability: Prisma.JsonValue }): AvailabilityWindow[] {
  return type.availability as AvailabilityWindow[];
}

export async function findAppointmentType(db: Db, workspaceId: string, id: string, query: Query = {}) {
  const type = await db.appointmentType.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!type) throw notFound('Appointment type');
  return type;
}

const activeFilterInput = z.object({ active: z.boolean().nullish() });

export async function listAppointmentTypes(ctx: Context, input: { active?: boolean | null }, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { active } = parseInput(activeFilterInput, input);
  const appointment_types = await ctx.prisma.appointmentType.findMany({
    ...query,
    where: { company_id: workspaceId, ...(active === null || active === undefined ? {} : { active }) },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  return { appointment_types };
}

export function getAppointmentType(ctx: Context, input: { id: string }, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  return findAppointmentType(ctx.prisma, workspaceId, id, query);
}

export function createAppointmentType(ctx: Context, input: z.input<typeof createInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const data = parseInput(createInput, input);
  return ctx.prisma.appointmentType.create({ ...query, data: { ...data, company_id: workspaceId } });
}

export async function updateAppointmentType(ctx: Context, input: z.input<typeof updateInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id, ...changes } = parseInput(updateInput, input);
  await findAppointmentType(ctx.prisma, workspaceId, id, { select: { id: true } });
  const data = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== null && value !== undefined));
  return ctx.prisma.appointmentType.update({ ...query, where: { id }, data });
}

/** Deletes a type that was never booked; a booked type keeps its history and can be deactivated instead. */
export async function deleteAppointmentType(ctx: Context, input: { id: string }, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  const type = await findAppointmentType(ctx.prisma, workspaceId, id, query);
  try {
    await ctx.prisma.appointmentType.delete({ where: { id } });
  } catch (error) {
    if (!violatesConstraint(error, 'appointments_appointment_type_id_fkey')) throw error;
    throw new DomainError('CONFLICT', 'The appointment type has appointments; set active to false instead', {
      id: 'has appointments',
    });
  }
  return type;
}

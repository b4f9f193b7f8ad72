// The workspace's business hours as a setting: read and changed (owners and admins), each part replaced whole
// when given. The time zone is the workspace's one time zone, which scheduling reads too.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { parseInput } from '../shared/validation.js';
import { availabilitySchema, timeZoneSchema } from '../scheduling/availability.js';
import { AROUND_THE_CLOCK, isWithinBusinessHours, type BusinessHours, type Holiday } from './businessHours.js';

const MAX_HOLIDAYS = 100;

const holidaySchema = z
  .object({
    date: z.iso.date({ message: 'must be a date YYYY-MM-DD' }),
    name: z.string().trim().max(100, { message: 'must be at most 100 characters' }).nullish(),
  })
  .strict()
  .transform((holiday): Holiday => ({ date: holiday.date, name: holiday.name || null }));

const holidaysSchema = z
  .array(holidaySchema)
  .max(MAX_HOLIDAYS, { message: `must have at most ${MAX_HOLIDAYS} holidays` })
  .superRefine((holidays, context) => {
    for (const [index, holiday] of holidays.entries()) {
      if (holidays.findIndex((other) => other.date === holiday.date) < index)
        context.addIssue({ code: 'custom', message: 'repeats a date', path: [index, 'date'] });
    }
  })
  .transform((holidays) => holidays.sort((a, b) => a.date.localeCompare(b.date)));

const updateInput = z.object({
  time_zone: timeZoneSchema.nullish(),
  hours: availabilitySchema.nullish(),
  holidays: holidaysSchema.nullish(),
});

type Stored = Pick<BusinessHours, 'hours' | 'holidays'>;

function present(workspace: { time_zone: string; business_hours: Prisma.JsonValue }): BusinessHours {
  const stored = workspace.business_hours as Stored | null;
  return { time_zone: workspace.time_zone, hours: stored?.hours ?? AROUND_THE_CLOCK, holidays: stored?.holidays ?? [] };
}

const select = { time_zone: true, business_hours: true } as const;

/** A workspace's business hours, for whoever computes with them (automations, reports). */
export async function businessHoursOf(db: Db, workspaceId: string): Promise<BusinessHours> {
  return present(await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select }));
}

export type BusinessHoursView = BusinessHours & { open_now: boolean };

const view = (hours: BusinessHours): BusinessHoursView => ({ ...hours, open_now: isWithinBusinessHours(hours, new Date()) });

export async function getBusinessHours(ctx: Context): Promise<BusinessHoursView> {
  return view(await businessHoursOf(ctx.prisma, requireActor(ctx).workspaceId));
}

export async function updateBusinessHours(ctx: Context, input: Record<string, unknown>): Promise<BusinessHoursView> {
  const { workspaceId } = requireActor(ctx);
  const changes = parseInput(updateInput, input);
  const updated = await ctx.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM workspaces WHERE id = ${workspaceId}::uuid FOR UPDATE`;
    const current = present(await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select }));
    const stored: Stored = { hours: changes.hours ?? current.hours, holidays: changes.holidays ?? current.holidays };
    return tx.workspace.update({
      where: { id: workspaceId },
      data: { time_zone: changes.time_zone ?? undefined, business_hours: stored },
      select,
    });
  });
  return view(present(updated));
}

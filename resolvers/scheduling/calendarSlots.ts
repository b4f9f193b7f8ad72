// Calendar slots: the times at which an appointment of a type could be booked within a range. Slots follow
// each availability window from its start, one every duration + buffer, and leave out what has begun,
// what would overlap a scheduled appointment (buffers on both sides of the comparison), and what would
// run past the window's end.
import { z } from 'zod';
import { type Context, requireActor } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { availabilityOf, findAppointmentType } from './appointmentTypes.js';
import { availabilityIntervals, localIso, MINUTE_MS } from './availability.js';
import { workspaceTimeZone } from './schedulingSettings.js';
import { dateRange, parseInput, uuid } from '../shared/validation.js';

const input = z.intersection(z.object({ appointment_type_id: uuid }), dateRange(62));

export type CalendarSlot = { start_at: Date; end_at: Date; local_start: string; local_end: string };

export async function listCalendarSlots(ctx: Context, raw: z.input<typeof input>) {
  const { workspaceId } = requireActor(ctx);
  const { appointment_type_id, from, to } = parseInput(input, raw);
  const type = await findAppointmentType(ctx.prisma, workspaceId, appointment_type_id);
  if (!type.active) {
    throw new DomainError('VALIDATION_ERROR', 'The appointment type is not active', { appointment_type_id: 'is not active' });
  }
  const time_zone = await workspaceTimeZone(ctx.prisma, workspaceId);
  const duration = type.duration_minutes * MINUTE_MS;
  const blocked = (type.duration_minutes + type.buffer_minutes) * MINUTE_MS;
  const intervals = availabilityIntervals(availabilityOf(type), time_zone, from, to);
  const first = intervals[0];
  const last = intervals.at(-1);
  if (!first || !last) return { appointment_type_id, time_zone, slots: [] };

  const busy = await ctx.prisma.appointment.findMany({
    where: {
      company_id: workspaceId,
      status: 'scheduled',
      start_at: { lt: new Date(last.end + blocked) },
      blocked_until: { gt: new Date(first.start) },
    },
    select: { start_at: true, blocked_until: true },
  });
  const overlapsBusy = (start: number) =>
    busy.some((appointment) => appointment.start_at.getTime() < start + blocked && appointment.blocked_until.getTime() > start);

  const earliest = Math.max(from.getTime(), Date.now() + 1);
  const slots: CalendarSlot[] = [];
  for (const interval of intervals) {
    for (let start = interval.start; start + duration <= interval.end; start += blocked) {
      if (start < earliest || start >= to.getTime() || overlapsBusy(start)) continue;
      slots.push({
        start_at: new Date(start),
        end_at: new Date(start + duration),
        local_start: localIso(start, time_zone),
        local_end: localIso(start + duration, time_zone),
      });
    }
  }
  return { appointment_type_id, time_zone, slots };
}

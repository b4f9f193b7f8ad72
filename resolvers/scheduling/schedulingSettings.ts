// The workspace's scheduling settings: its time zone (in which availability is read), its public id, and
// whether a calendar feed token exists.
import { z } from 'zod';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { timeZoneSchema } from './availability.js';
import { parseInput } from '../shared/validation.js';

const select = { time_zone: true, public_id: true, calendar_feed_token_hash: true, calendar_feed_rotated_at: true } as const;

function present(workspace: {
  time_zone: string;
  public_id: string;
  calendar_feed_token_hash: string | null;
  calendar_feed_rotated_at: Date | null;
}) {
  return {
    time_zone: workspace.time_zone,
    public_id: workspace.public_id,
    calendar_feed_enabled: workspace.calendar_feed_token_hash !== null,
    calendar_feed_rotated_at: workspace.calendar_feed_rotated_at,
  };
}

export type SchedulingSettings = ReturnType<typeof present>;

export async function workspaceTimeZone(db: Db, workspaceId: string): Promise<string> {
  return (await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { time_zone: true } })).time_zone;
}

export async function getSchedulingSettings(ctx: Context): Promise<SchedulingSettings> {
  const { workspaceId } = requireActor(ctx);
  return present(await ctx.prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select }));
}

const timeZoneInput = z.object({ time_zone: timeZoneSchema });

export async function updateSchedulingSettings(ctx: Context, input: { time_zone: string }): Promise<SchedulingSettings> {
  const { workspaceId } = requireActor(ctx);
  const { time_zone } = parseInput(timeZoneInput, input);
  return present(await ctx.prisma.workspace.update({ where: { id: workspaceId }, data: { time_zone }, select }));
}

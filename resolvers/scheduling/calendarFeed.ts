// The workspace's calendar feed: a secret token in a public URL, stored only as its SHA-256, shown once.
// Rotating the token replaces the stored hash, so the previous URL stops working at once.
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { randomToken, sha256Hex } from '../../infra/crypto/tokens.js';
import { type Context, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';

type AppointmentQuery = { select?: Prisma.AppointmentSelect; include?: Prisma.AppointmentInclude };

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;
/** The feed shows recent history and everything ahead, up to a bound that keeps the response small. */
const HISTORY_DAYS = 90;
const MAX_APPOINTMENTS = 1000;

export async function rotateCalendarFeedToken(ctx: Context) {
  const { workspaceId } = requireActor(ctx);
  const token = randomToken(32);
  const rotatedAt = new Date();
  await ctx.prisma.workspace.update({
    where: { id: workspaceId },
    data: { calendar_feed_token_hash: sha256Hex(token), calendar_feed_rotated_at: rotatedAt },
    select: { id: true },
  });
  return { url: ctx.publicUrls.calendarFeed(token), rotated_at: rotatedAt };
}

/** Public: the token is the credential. An unknown or rotated-away token is NOT_FOUND. */
export async function calendarFeedByToken(ctx: Context, input: { token: string }, query: AppointmentQuery = {}) {
  if (!TOKEN_PATTERN.test(input.token)) throw notFound('Calendar feed');
  const workspace = await ctx.prisma.workspace.findUnique({
    where: { calendar_feed_token_hash: sha256Hex(input.token) },
    select: { id: true, name: true, time_zone: true },
  });
  if (!workspace) throw notFound('Calendar feed');
  const appointments = await ctx.prisma.appointment.findMany({
    ...query,
    where: { company_id: workspace.id, start_at: { gte: new Date(Date.now() - HISTORY_DAYS * 24 * 3_600_000) } },
    orderBy: [{ start_at: 'asc' }, { id: 'asc' }],
    take: MAX_APPOINTMENTS,
  });
  return { name: workspace.name, time_zone: workspace.time_zone, appointments };
}

// What a website needs to embed the workspace's booking widget: the public id (never the internal id),
// the bookable (active) appointment types, and an HTML snippet that frames the booking page.
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { escapeHtml } from '../../infra/html.js';
import { type Context, requireActor } from '../shared/context.js';

type AppointmentTypeQuery = { select?: Prisma.AppointmentTypeSelect; include?: Prisma.AppointmentTypeInclude };

export async function widgetEmbed(ctx: Context, query: AppointmentTypeQuery = {}) {
  const { workspaceId } = requireActor(ctx);
  const workspace = await ctx.prisma.workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: { name: true, public_id: true, time_zone: true },
  });
  const appointment_types = await ctx.prisma.appointmentType.findMany({
    ...query,
    where: { company_id: workspaceId, active: true },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  const booking_url = ctx.publicUrls.booking(workspace.public_id);
  const html_snippet =
    `<iframe src="${escapeHtml(booking_url)}" title="${escapeHtml(`Book an appointment with ${workspace.name}`)}" ` +
    `width="100%" height="700" style="border:0" loading="lazy"></iframe>`;
  return { public_id: workspace.public_id, time_zone: workspace.time_zone, booking_url, html_snippet, appointment_types };
}

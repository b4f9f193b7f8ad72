// Template messages over the range, one row per template name and language: sends, delivered, read, the read
// rate, replies (an inbound message in the conversation within 24 hours of the send), failures and the sends the
// provider reported as billable. The
// conversation filters apply, as to any message.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { inScopedConversation, ratio, reportScope, scopedConversations, type ReportInput } from './scope.js';

export type TemplateFigures = {
  template_name: string;
  template_language: string | null;
  sends: number;
  delivered: number;
  read: number;
  read_rate: number | null;
  replies: number;
  failed: number;
  billable: number;
};

export async function templatesReport(ctx: Context, input: ReportInput): Promise<TemplateFigures[]> {
  const scope = await reportScope(ctx, input);
  const rows = await ctx.prisma.$queryRaw<Omit<TemplateFigures, 'read_rate'>[]>`
    WITH ${scopedConversations(scope)}
    SELECT m.template_name, m.template_language,
           count(*)::int AS sends,
           count(*) FILTER (WHERE m.status IN ('delivered', 'read'))::int AS delivered,
           count(*) FILTER (WHERE m.status = 'read')::int AS read,
           count(*) FILTER (WHERE EXISTS (
             SELECT 1 FROM messages i WHERE i.conversation_id = m.conversation_id AND i.direction = 'inbound'
               AND i.created_at > m.created_at AND i.created_at <= m.created_at + interval '24 hours'))::int AS replies,
           count(*) FILTER (WHERE m.status = 'failed')::int AS failed,
           count(*) FILTER (WHERE (m.pricing->>'billable')::boolean)::int AS billable
    FROM messages m
    WHERE m.company_id = ${scope.workspaceId}::uuid AND m.direction = 'outbound' AND m.template_name IS NOT NULL
      AND m.created_at >= ${scope.from} AND m.created_at < ${scope.to} AND ${inScopedConversation(scope, Prisma.sql`m.conversation_id`)}
    GROUP BY m.template_name, m.template_language
    ORDER BY sends DESC, m.template_name, m.template_language`;
  return rows.map((row) => ({ ...row, read_rate: ratio(row.read, row.delivered) }));
}

// Campaign results over the range, one row per campaign that sent or failed a message in it: sent, delivered,
// read, replied within 24 hours of the send, opted out within 24 hours of the send, failed (and by error code). Conversation filters do not apply:
// a campaign's audience is chosen by the campaign itself.
import type { Context } from '../shared/context.js';
import { reportScope, type ReportInput } from './scope.js';

export type CampaignFigures = {
  campaign_id: string;
  name: string;
  status: string;
  template_name: string;
  recipients: number;
  sent: number;
  delivered: number;
  read: number;
  replied_within_24h: number;
  failed: number;
  opted_out: number;
  failed_by_error_code: { error_code: string; count: number }[];
};

export async function campaignsReport(ctx: Context, input: ReportInput): Promise<CampaignFigures[]> {
  const scope = await reportScope(ctx, input);
  return ctx.prisma.$queryRaw<CampaignFigures[]>`
    WITH touched AS (
      SELECT r.*, m.conversation_id FROM campaign_recipients r LEFT JOIN messages m ON m.id = r.message_id
      WHERE r.company_id = ${scope.workspaceId}::uuid
        AND ((r.sent_at >= ${scope.from} AND r.sent_at < ${scope.to}) OR (r.failed_at >= ${scope.from} AND r.failed_at < ${scope.to}))
    ),
    figures AS (
      SELECT t.campaign_id,
             count(*) FILTER (WHERE t.sent_at IS NOT NULL)::int AS sent,
             count(*) FILTER (WHERE t.delivered_at IS NOT NULL OR t.read_at IS NOT NULL)::int AS delivered,
             count(*) FILTER (WHERE t.read_at IS NOT NULL)::int AS read,
             count(*) FILTER (WHERE t.sent_at IS NOT NULL AND EXISTS (
               SELECT 1 FROM messages i WHERE i.conversation_id = t.conversation_id AND i.direction = 'inbound'
                 AND i.created_at > t.sent_at AND i.created_at <= t.sent_at + interval '24 hours'))::int AS replied_within_24h,
             count(*) FILTER (WHERE t.status = 'failed')::int AS failed,
             count(*) FILTER (WHERE t.sent_at IS NOT NULL AND EXISTS (
               SELECT 1 FROM consent_changes o WHERE o.contact_id = t.contact_id AND o.status = 'opted_out'
                 AND o.created_at > t.sent_at AND o.created_at <= t.sent_at + interval '24 hours'))::int AS opted_out,
             coalesce(jsonb_agg(t.error_code) FILTER (WHERE t.status = 'failed'), '[]'::jsonb) AS failure_codes
      FROM touched t GROUP BY t.campaign_id
    )
    SELECT c.id::text AS campaign_id, c.name, c.status, c.template_name,
           (SELECT count(*) FROM campaign_recipients a WHERE a.campaign_id = c.id)::int AS recipients,
           f.sent, f.delivered, f.read, f.replied_within_24h, f.failed, f.opted_out,
           coalesce((SELECT jsonb_agg(jsonb_build_object('error_code', code, 'count', n) ORDER BY n DESC, code)
                     FROM (SELECT coalesce(x #>> '{}', 'unknown') AS code, count(*)::int AS n
                           FROM jsonb_array_elements(f.failure_codes) x GROUP BY 1) codes), '[]'::jsonb) AS failed_by_error_code
    FROM figures f JOIN campaigns c ON c.id = f.campaign_id
    ORDER BY c.created_at DESC, c.id`;
}

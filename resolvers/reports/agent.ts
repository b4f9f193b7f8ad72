// The AI agent's report over the range: the conversations it answered, handed off (and why), closed without
// a person ever replying, and its shares of the conversations that wrote in and of those closed.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { inScopedConversation, ratio, reportScope, scopedConversations, type ReportInput } from './scope.js';

export type AgentReport = {
  conversations_with_inbound: number;
  conversations_answered: number;
  conversations_handed_off: number;
  handoffs_by_reason: { reason: string; count: number }[];
  conversations_closed: number;
  closed_without_person: number;
  answered_share: number | null;
  closed_without_person_share: number | null;
};

type Counts = Omit<AgentReport, 'handoffs_by_reason' | 'answered_share' | 'closed_without_person_share'>;

export async function agentReport(ctx: Context, input: ReportInput): Promise<AgentReport> {
  const scope = await reportScope(ctx, input);
  const [counts] = await ctx.prisma.$queryRaw<Counts[]>`
    WITH ${scopedConversations(scope)},
    runs AS (
      SELECT r.conversation_id, r.status FROM agent_runs r
      WHERE r.company_id = ${scope.workspaceId}::uuid AND r.created_at >= ${scope.from} AND r.created_at < ${scope.to}
        AND ${inScopedConversation(scope, Prisma.sql`r.conversation_id`)}
    ),
    closed AS (SELECT s.id FROM scoped s WHERE s.closed_at >= ${scope.from} AND s.closed_at < ${scope.to})
    SELECT
      (SELECT count(DISTINCT m.conversation_id) FROM messages m
        WHERE m.company_id = ${scope.workspaceId}::uuid AND m.direction = 'inbound'
          AND m.created_at >= ${scope.from} AND m.created_at < ${scope.to}
          AND ${inScopedConversation(scope, Prisma.sql`m.conversation_id`)})::int AS conversations_with_inbound,
      (SELECT count(DISTINCT conversation_id) FROM runs WHERE status = 'replied')::int AS conversations_answered,
      (SELECT count(DISTINCT conversation_id) FROM runs WHERE status = 'handed_off')::int AS conversations_handed_off,
      (SELECT count(*) FROM closed)::int AS conversations_closed,
      (SELECT count(*) FROM closed c
        WHERE EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.direction = 'outbound' AND m.sender_type = 'agent')
          AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.direction = 'outbound' AND m.sender_type = 'user')
      )::int AS closed_without_person`;
  const handoffs = await ctx.prisma.$queryRaw<{ reason: string; count: number }[]>`
    WITH ${scopedConversations(scope)}
    SELECT coalesce(r.handoff_reason, 'unspecified') AS reason, count(*)::int AS count
    FROM agent_runs r
    WHERE r.company_id = ${scope.workspaceId}::uuid AND r.status = 'handed_off'
      AND r.created_at >= ${scope.from} AND r.created_at < ${scope.to} AND ${inScopedConversation(scope, Prisma.sql`r.conversation_id`)}
    GROUP BY 1 ORDER BY count DESC, reason`;
  const figures = counts!;
  return {
    ...figures,
    handoffs_by_reason: handoffs,
    answered_share: ratio(figures.conversations_answered, figures.conversations_with_inbound),
    closed_without_person_share: ratio(figures.closed_without_person, figures.conversations_closed),
  };
}

// The per-person table: for each member of the workspace, the conversations they handled in the range (wrote
// at least one reply), the first responses they gave (median, p90), the resolution of the conversations
// assigned to them that closed in the range (median, p90), each also in business hours only (businessClock.ts),
// and the conversations assigned to them open now. With a team filter, the rows are the team's members.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { businessClock, clockTable, durations } from './businessClock.js';
import {
  firstResponses,
  inScopeTeam,
  inScopedConversation,
  percentiles,
  reportScope,
  scopedConversations,
  type ReportInput,
} from './scope.js';
import type { ResponseFigures } from './conversationFacts.js';

export type PersonFigures = ResponseFigures & {
  user_id: string;
  name: string | null;
  email: string;
  conversations_handled: number;
  open_now: number;
};

export async function peopleReport(ctx: Context, input: ReportInput): Promise<PersonFigures[]> {
  const scope = await reportScope(ctx, input);
  const clock = await businessClock(ctx, scope.workspaceId, scope.from, scope.to);
  return ctx.prisma.$queryRaw<PersonFigures[]>`
    WITH ${scopedConversations(scope)},
    ${clockTable(clock)},
    ${firstResponses(scope)},
    facts AS (
      SELECT DISTINCT 'handled' AS kind, m.sender_id AS user_id, m.conversation_id, NULL::float8 AS seconds, NULL::float8 AS business_seconds
      FROM messages m
      WHERE m.company_id = ${scope.workspaceId}::uuid AND m.direction = 'outbound' AND m.sender_type = 'user'
        AND m.created_at >= ${scope.from} AND m.created_at < ${scope.to} AND ${inScopedConversation(scope, Prisma.sql`m.conversation_id`)}
      UNION ALL
      SELECT 'first_response', f.sender_id, f.conversation_id, f.seconds, f.business_seconds
      FROM first_responses f WHERE f.sender_type = 'user'
      UNION ALL
      SELECT 'resolution', s.assigned_user_id::text, s.id, ${durations(Prisma.sql`s.created_at`, Prisma.sql`s.closed_at`)}
      FROM scoped s CROSS JOIN clock k
      WHERE s.assigned_user_id IS NOT NULL AND s.closed_at >= ${scope.from} AND s.closed_at < ${scope.to}
      UNION ALL
      SELECT 'open', s.assigned_user_id::text, s.id, NULL, NULL FROM scoped s WHERE s.assigned_user_id IS NOT NULL AND s.status <> 'closed'
    )
    SELECT u.id::text AS user_id, u.name, u.email,
           count(*) FILTER (WHERE f.kind = 'handled')::int AS conversations_handled,
           count(*) FILTER (WHERE f.kind = 'first_response')::int AS first_response_conversations,
           ${percentiles(Prisma.sql`f.seconds`, Prisma.sql`f.kind = 'first_response'`, 'first_response')},
           ${percentiles(Prisma.sql`f.business_seconds`, Prisma.sql`f.kind = 'first_response'`, 'first_response_business')},
           count(*) FILTER (WHERE f.kind = 'resolution')::int AS resolution_conversations,
           ${percentiles(Prisma.sql`f.seconds`, Prisma.sql`f.kind = 'resolution'`, 'resolution')},
           ${percentiles(Prisma.sql`f.business_seconds`, Prisma.sql`f.kind = 'resolution'`, 'resolution_business')},
           count(*) FILTER (WHERE f.kind = 'open')::int AS open_now
    FROM users u LEFT JOIN facts f ON f.user_id = u.id::text
    WHERE u.company_id = ${scope.workspaceId}::uuid AND (u.status = 'active' OR f.kind IS NOT NULL)
      AND (${scope.assigneeUserId}::uuid IS NULL OR u.id = ${scope.assigneeUserId}::uuid)
      AND ${inScopeTeam(scope, Prisma.sql`u.id`)}
    GROUP BY u.id, u.name, u.email
    ORDER BY u.name NULLS LAST, u.email`;
}

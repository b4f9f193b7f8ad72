// The conversations report's facts: each opening, closing, reopening, message and first response of the scope's
// range as a dated row in the scope's buckets, with a closing's or first response's seconds in calendar time and in
// business hours, and the figures a report shows of them. Counted by the report (conversations.ts) straight from
// these rows, or per day into kept days (dailyFigures.ts). Definitions in docs/reports.md.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { clockTable, durations, type BusinessClock } from './businessClock.js';
import { bucketOf, firstResponses, inScopedConversation, scopedConversations, type ReportScope } from './scope.js';

/** How fast conversations were answered and resolved: the figures the conversations report and the per-person table
 * share. */
export type ResponseFigures = {
  first_response_conversations: number;
  first_response_median_seconds: number | null;
  first_response_p90_seconds: number | null;
  first_response_business_median_seconds: number | null;
  first_response_business_p90_seconds: number | null;
  resolution_conversations: number;
  resolution_median_seconds: number | null;
  resolution_p90_seconds: number | null;
  resolution_business_median_seconds: number | null;
  resolution_business_p90_seconds: number | null;
};

export type ConversationFigures = ResponseFigures & {
  conversations_opened: number;
  conversations_closed: number;
  conversations_reopened: number;
  messages_in: number;
  messages_out: number;
  unanswered_conversations: number;
};

/** SQL: the CTEs up to `facts`, the report's dated facts in the scope's buckets. A fact is `n` events of a kind in
 * a bucket: the counted kinds (opened, reopened, message_in, message_out) come counted per bucket (the year's messages
 * are not sorted one by one), the timed kinds (closed, first_response) one row each, with `seconds` its calendar time
 * and `business_seconds` the part of it within business hours (both null for a first response still awaited). */
export function conversationFacts(scope: ReportScope, clock: BusinessClock): Prisma.Sql {
  const range = (at: Prisma.Sql) => Prisma.sql`${at} >= ${scope.from} AND ${at} < ${scope.to}`;
  const bucket = (at: Prisma.Sql) => bucketOf(scope, at);
  return Prisma.sql`${scopedConversations(scope)},
    ${clockTable(clock)},
    ${firstResponses(scope)},
    facts AS (
      SELECT 'opened' AS kind, ${bucket(Prisma.sql`s.created_at`)} AS bucket, count(*) AS n,
             NULL::float8 AS seconds, NULL::float8 AS business_seconds
      FROM scoped s WHERE ${range(Prisma.sql`s.created_at`)} GROUP BY 2
      UNION ALL
      SELECT 'closed', ${bucket(Prisma.sql`s.closed_at`)}, 1, ${durations(Prisma.sql`s.created_at`, Prisma.sql`s.closed_at`)}
      FROM scoped s CROSS JOIN clock k WHERE ${range(Prisma.sql`s.closed_at`)}
      UNION ALL
      SELECT 'reopened', ${bucket(Prisma.sql`sc.created_at`)}, count(*), NULL, NULL
      FROM conversation_status_changes sc
      WHERE sc.company_id = ${scope.workspaceId}::uuid AND sc.to_status <> 'closed' AND ${range(Prisma.sql`sc.created_at`)}
        AND ${inScopedConversation(scope, Prisma.sql`sc.conversation_id`)}
      GROUP BY 2
      UNION ALL
      SELECT CASE WHEN m.direction = 'inbound' THEN 'message_in' ELSE 'message_out' END, ${bucket(Prisma.sql`m.created_at`)},
             count(*), NULL, NULL
      FROM messages m
      WHERE m.company_id = ${scope.workspaceId}::uuid AND ${range(Prisma.sql`m.created_at`)} AND ${inScopedConversation(scope, Prisma.sql`m.conversation_id`)}
      GROUP BY 1, 2
      UNION ALL
      SELECT 'first_response', ${bucket(Prisma.sql`f.started_at`)}, 1, f.seconds, f.business_seconds FROM first_responses f
    )`;
}

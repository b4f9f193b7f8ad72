// A rule's "once per conversation per N hours" (once_per_conversation_hours): whether the rule may act on a
// conversation now. One statement both checks and records the time it acts, so two runs on the same
// conversation cannot both pass; it is part of the run's transaction and goes with it if the run rolls back.
import type { Db } from '../shared/context.js';

export async function mayActOn(
  tx: Db,
  rule: { id: string; once_per_conversation_hours: number | null },
  conversationId: string,
  now: Date,
): Promise<boolean> {
  const hours = rule.once_per_conversation_hours;
  if (!hours) return true;
  const recorded = await tx.$executeRaw`
    INSERT INTO automation_throttles (rule_id, conversation_id, acted_at)
    VALUES (${rule.id}::uuid, ${conversationId}::uuid, ${now})
    ON CONFLICT (rule_id, conversation_id) DO UPDATE SET acted_at = EXCLUDED.acted_at
    WHERE automation_throttles.acted_at <= EXCLUDED.acted_at - ${hours}::int * interval '1 hour'`;
  return recorded > 0;
}

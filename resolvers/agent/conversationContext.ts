// What the AI agent knows when it answers an inbound message: the message, its conversation's state (the agent
// switch, the 24-hour window), the contact's fields and tags, the recent messages (oldest first, each marked as
// the contact's, the agent's or a person's, ending with the message itself), how many agent replies came in
// a row before it, and whether the agent's last answer was a miss (it had no answer).
import type { Db } from '../shared/context.js';
import { MISS_KINDS } from './runs.js';

const RECENT_MESSAGES = 20;
/** How far back a run of agent replies is counted. */
const REPLY_RUN_WINDOW = 100;

export type TranscriptLine = { id: string; from: 'contact' | 'agent' | 'person'; body: string; created_at: Date };

export type AgentConversation = {
  message: { id: string; body: string; created_at: Date };
  conversation: { id: string; status: string; service_enabled: boolean; last_message_at: Date | null; window_closed_at: Date | null };
  contact: {
    id: string;
    name: string | null;
    phone_number: string | null;
    email: string | null;
    notes: string | null;
    metadata: unknown;
    tags: string[];
  };
  recent: TranscriptLine[];
  /** Agent replies since the last message a person sent on the conversation. */
  agentRepliesInARow: number;
  /** Whether the agent has answered on this conversation before (it greets once). */
  agentHasReplied: boolean;
  /** Whether the agent's latest finished run on the conversation replied that it had no answer. */
  lastAnswerMissed: boolean;
};

export async function agentConversation(db: Db, messageId: string): Promise<AgentConversation | null> {
  const message = await db.message.findUnique({
    where: { id: messageId },
    select: {
      id: true,
      body: true,
      created_at: true,
      conversation: {
        select: {
          id: true,
          status: true,
          service_enabled: true,
          last_message_at: true,
          window_closed_at: true,
          customer: {
            select: {
              id: true,
              name: true,
              phone_number: true,
              email: true,
              notes: true,
              metadata: true,
              tags: { select: { tag: { select: { name: true } } } },
            },
          },
        },
      },
    },
  });
  if (!message) return null;
  const { conversation: conversationRow, ...trigger } = message;
  const { customer, ...conversation } = conversationRow;
  // The contact's later messages belong to later runs; replies sent since (to earlier messages) are context.
  const latest = await db.message.findMany({
    where: { conversation_id: conversation.id, OR: [{ id: { lt: message.id } }, { direction: 'outbound' }] },
    orderBy: { id: 'desc' },
    take: REPLY_RUN_WINDOW,
    select: { id: true, direction: true, body: true, created_at: true, sender_type: true },
  });
  const lines: TranscriptLine[] = [{ ...trigger, from: 'contact' as const }, ...latest].map((row) => ({
    id: row.id,
    from: 'from' in row ? row.from : row.direction === 'inbound' ? 'contact' : row.sender_type === 'agent' ? 'agent' : 'person',
    body: row.body,
    created_at: row.created_at,
  }));
  const sincePerson = lines.findIndex((line) => line.from === 'person');
  const agentRepliesInARow = (sincePerson === -1 ? lines : lines.slice(0, sincePerson)).filter((line) => line.from === 'agent').length;
  const agentHasReplied =
    lines.some((line) => line.from === 'agent') ||
    (await db.agentRun.count({ where: { conversation_id: conversation.id, status: 'replied' } })) > 0;
  const lastRun = await db.agentRun.findFirst({
    where: { conversation_id: conversation.id, message_id: { not: message.id }, status: { in: ['replied', 'handed_off'] } },
    orderBy: { id: 'desc' },
    select: { status: true, answer_source: true },
  });
  const lastKind = (lastRun?.answer_source as { kind?: unknown } | null | undefined)?.kind;
  return {
    lastAnswerMissed: lastRun?.status === 'replied' && typeof lastKind === 'string' && MISS_KINDS.includes(lastKind),
    message: trigger,
    conversation,
    contact: { ...customer, tags: customer.tags.map((link) => link.tag.name) },
    recent: lines.slice(0, RECENT_MESSAGES).reverse(),
    agentRepliesInARow,
    agentHasReplied,
  };
}

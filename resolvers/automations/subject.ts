// What a rule looks at when an event happens: the event's message (if any), its conversation and its contact as
// they are now (with the contact's tag names), read in the run's transaction. Derived facts: whether the message
// is the first of its conversation (the trigger conversation.created is the first inbound message of a new
// conversation: conversations are opened by inbound messages, docs/api-decisions.md, "Automations").
import type { Db } from '../shared/context.js';
import { detectLanguage } from '../knowledge/language.js';
import { isWithinBusinessHours } from '../workspace/businessHours.js';
import { businessHoursOf } from '../workspace/businessHoursSettings.js';

export type StoredEvent = { id: string; type: string; body: string; automation_chain: string | null };

export type Subject = {
  eventId: string;
  /** The trigger events this event counts as (message.received, and conversation.created for a first message). */
  triggers: string[];
  message: { id: string; text: string; language: string | null; direction: string; firstOfConversation: boolean } | null;
  conversation: {
    id: string;
    status: string;
    assigned_user_id: string | null;
    provider: string;
    service_enabled: boolean;
    last_message_at: Date | null;
    changes: string[];
  };
  contact: { id: string; name: string | null; email: string | null; phone_number: string | null; metadata: unknown; tags: string[] };
  /** The rules whose actions caused this event, oldest first. */
  chain: string[];
  /** Whether the rule runs within the workspace's business hours. */
  withinBusinessHours: boolean;
};

type Envelope = { id: string; type: string; data: { message?: { id: string }; conversation?: { id: string }; changes?: string[] } };

/** The subject of a stored event at instant `at`, or null when the event is not one a rule can start on (or its conversation is gone). */
export async function subjectOf(db: Db, workspaceId: string, event: StoredEvent, at: Date): Promise<Subject | null> {
  const envelope = JSON.parse(event.body) as Envelope;
  const conversationId = envelope.data.conversation?.id;
  if (!conversationId || !['message.received', 'conversation.updated'].includes(event.type)) return null;
  const conversation = await db.conversation.findFirst({
    where: { id: conversationId, company_id: workspaceId },
    include: { customer: { include: { tags: { include: { tag: { select: { name: true } } } } } } },
  });
  if (!conversation) return null;
  const messageId = event.type === 'message.received' ? envelope.data.message?.id : undefined;
  const message = messageId
    ? await db.message.findUnique({ where: { id: messageId }, select: { id: true, body: true, direction: true } })
    : null;
  const firstOfConversation = message
    ? (await db.message.count({ where: { conversation_id: conversation.id, direction: 'inbound', id: { lt: message.id } } })) === 0
    : false;
  const { customer } = conversation;
  return {
    eventId: envelope.id,
    triggers: [event.type, ...(firstOfConversation ? ['conversation.created'] : [])],
    message: message
      ? {
          id: message.id,
          text: message.body ?? '',
          language: detectLanguage(message.body ?? ''),
          direction: message.direction,
          firstOfConversation,
        }
      : null,
    conversation: {
      id: conversation.id,
      status: conversation.status,
      assigned_user_id: conversation.assigned_user_id,
      provider: conversation.provider,
      service_enabled: conversation.service_enabled,
      last_message_at: conversation.last_message_at,
      changes: envelope.data.changes ?? [],
    },
    contact: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      phone_number: customer.phone_number,
      metadata: customer.metadata,
      tags: customer.tags.map((link) => link.tag.name),
    },
    chain: event.automation_chain ? event.automation_chain.split(',') : [],
    withinBusinessHours: isWithinBusinessHours(await businessHoursOf(db, workspaceId), at),
  };
}

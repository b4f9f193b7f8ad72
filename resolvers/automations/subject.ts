// What a rule looks at when its trigger happens: the message (if any), the conversation and the contact as they
// are now (with the contact's tag names), read in the run's transaction. A trigger gives only some of them
// (triggers.ts): contact.created and tag.added a contact, a schedule none. Derived facts: whether the message is
// the first of its conversation (the trigger conversation.created is the first inbound message of a new
// conversation: conversations are opened by inbound messages, docs/api-decisions.md, "Automations").
import type { Db } from '../shared/context.js';
import { detectLanguage } from '../knowledge/language.js';
import { isWithinBusinessHours } from '../workspace/businessHours.js';
import { businessHoursOf } from '../workspace/businessHoursSettings.js';

export type StoredEvent = { id: string; type: string; body: string; automation_chain: string | null };

export type SubjectContact = {
  id: string;
  name: string | null;
  email: string | null;
  phone_number: string | null;
  metadata: unknown;
  tags: string[];
};
export type SubjectConversation = {
  id: string;
  status: string;
  assigned_user_id: string | null;
  provider: string;
  service_enabled: boolean;
  last_message_at: Date | null;
  changes: string[];
};

export type Subject = {
  /** The outbox event's id (evt_…), or the occasion of a time trigger (waiting:<message id>, schedule:<minute>). */
  eventId: string;
  /** The trigger events this occasion counts as (message.received, and conversation.created for a first message). */
  triggers: string[];
  message: { id: string; text: string; language: string | null; direction: string; firstOfConversation: boolean } | null;
  conversation: SubjectConversation | null;
  contact: SubjectContact | null;
  /** The tag a tag.added event added. */
  tag: { id: string; name: string } | null;
  /** The rules whose actions caused this event, oldest first. */
  chain: string[];
  /** Whether the rule runs within the workspace's business hours. */
  withinBusinessHours: boolean;
};

type Envelope = {
  id: string;
  type: string;
  data: {
    message?: { id: string };
    conversation?: { id: string };
    changes?: string[];
    contact?: { id: string };
    contact_id?: string;
    tag?: { id: string; name: string };
  };
};

const TAGS = { tags: { include: { tag: { select: { name: true } } } } } as const;

async function contactOf(db: Db, workspaceId: string, id: string): Promise<SubjectContact | null> {
  const contact = await db.customer.findFirst({ where: { id, company_id: workspaceId }, include: TAGS });
  if (!contact) return null;
  const { name, email, phone_number, metadata } = contact;
  return { id, name, email, phone_number, metadata, tags: contact.tags.map((link) => link.tag.name) };
}

async function messageOf(db: Db, conversationId: string, messageId: string) {
  const message = await db.message.findUnique({ where: { id: messageId }, select: { id: true, body: true, direction: true } });
  if (!message) return null;
  const firstOfConversation =
    (await db.message.count({ where: { conversation_id: conversationId, direction: 'inbound', id: { lt: message.id } } })) === 0;
  const text = message.body ?? '';
  return { id: message.id, text, language: detectLanguage(text), direction: message.direction, firstOfConversation };
}

/** The subject of an occasion on a conversation (and one of its messages), or null when the conversation is gone. */
async function conversationSubject(
  db: Db,
  workspaceId: string,
  occasion: { eventId: string; type: string; conversationId: string; messageId: string | undefined; changes: string[]; chain: string[] },
  at: Date,
): Promise<Subject | null> {
  const conversation = await db.conversation.findFirst({ where: { id: occasion.conversationId, company_id: workspaceId } });
  if (!conversation) return null;
  const message = occasion.messageId ? await messageOf(db, conversation.id, occasion.messageId) : null;
  const firstOfConversation = occasion.type === 'message.received' && message?.firstOfConversation === true;
  const { id, status, assigned_user_id, provider, service_enabled, last_message_at } = conversation;
  return {
    eventId: occasion.eventId,
    triggers: [occasion.type, ...(firstOfConversation ? ['conversation.created'] : [])],
    message,
    conversation: { id, status, assigned_user_id, provider, service_enabled, last_message_at, changes: occasion.changes },
    contact: await contactOf(db, workspaceId, conversation.customer_id),
    tag: null,
    chain: occasion.chain,
    withinBusinessHours: isWithinBusinessHours(await businessHoursOf(db, workspaceId), at),
  };
}

/** The subject of a stored event at instant `at`, or null when the event is not one a rule can start on (or what it is about is gone). */
export async function subjectOf(db: Db, workspaceId: string, event: StoredEvent, at: Date): Promise<Subject | null> {
  const envelope = JSON.parse(event.body) as Envelope;
  const chain = event.automation_chain ? event.automation_chain.split(',') : [];
  const { data } = envelope;
  if (event.type === 'message.received' || event.type === 'conversation.updated') {
    if (!data.conversation) return null;
    const occasion = { eventId: envelope.id, type: event.type, conversationId: data.conversation.id, chain };
    const messageId = event.type === 'message.received' ? data.message?.id : undefined;
    return conversationSubject(db, workspaceId, { ...occasion, messageId, changes: data.changes ?? [] }, at);
  }
  if (event.type === 'contact.created' || event.type === 'tag.added') {
    const contact = await contactOf(db, workspaceId, data.contact?.id ?? data.contact_id ?? '');
    if (!contact) return null;
    const withinBusinessHours = isWithinBusinessHours(await businessHoursOf(db, workspaceId), at);
    const tag = data.tag ?? null;
    return { eventId: envelope.id, triggers: [event.type], message: null, conversation: null, contact, tag, chain, withinBusinessHours };
  }
  return null;
}

/** A conversation waiting since its inbound message `messageId`: null when it has been answered since (or is gone). */
export async function waitingSubject(
  db: Db,
  workspaceId: string,
  wait: { conversationId: string; messageId: string },
  at: Date,
): Promise<Subject | null> {
  const answered = await db.message.count({
    where: { conversation_id: wait.conversationId, direction: 'outbound', id: { gt: wait.messageId } },
  });
  if (answered > 0) return null;
  const occasion = { eventId: `waiting:${wait.messageId}`, type: 'conversation.waiting', changes: [], chain: [], ...wait };
  return conversationSubject(db, workspaceId, occasion, at);
}

/** A schedule's due minute: nothing to read but the time. */
export async function scheduleSubject(db: Db, workspaceId: string, dueMinute: Date, at: Date): Promise<Subject> {
  return {
    eventId: `schedule:${dueMinute.toISOString()}`,
    triggers: ['schedule'],
    message: null,
    conversation: null,
    contact: null,
    tag: null,
    chain: [],
    withinBusinessHours: isWithinBusinessHours(await businessHoursOf(db, workspaceId), at),
  };
}

// An automation's actions, each done in the run's transaction (they commit together). What leaves the service (a
// reply or template handed to the provider, a webhook POST) is recorded in the transaction and returned as work
// to do after the commit, so nothing is sent for a run that rolled back. A failing action throws; the run
// (run.ts) rolls that action back to its savepoint and records the error.
import { Duration } from 'luxon';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db, Services } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { changeInTransaction } from '../conversations/changes.js';
import { conversationViewSelect } from '../shared/views.js';
import { assertMarketingAllowed } from '../contacts/consent.js';
import { dispatchMessage, recordPendingMessage, templateMessage, type OutboundSend } from '../messaging/outbound.js';
import { assertWindowOpen, sendableConversation, type SendableConversation } from '../messaging/sendable.js';
import type { Action } from './ruleInput.js';
import type { Subject } from './subject.js';
import { assignInTurn } from './roundRobin.js';
import { addTagToContact } from '../contacts/contactEvents.js';

/** What is done after the run's commit. */
export type AfterCommit = () => Promise<void>;

/** `now` is the run's clock: when a snooze ends and when a round-robin turn was taken are counted from it. */
export type ActionScope = { tx: Db; services: Services; workspaceId: string; ruleId: string; subject: Subject; now: Date };

/** `{{contact.name}}`, `{{contact.email}}`, `{{contact.phone_number}}` and `{{contact.metadata.<path>}}` filled from the contact. */
export function fillContactFields(text: string, contact: Subject['contact']): string {
  if (!contact) return text;
  return text.replace(/\{\{\s*contact\.([A-Za-z0-9_.]+)\s*\}\}/g, (_whole, path: string) => {
    let node: unknown = contact;
    for (const key of path.split('.'))
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    return typeof node === 'string' || typeof node === 'number' ? String(node) : '';
  });
}

/** The subject's conversation; a rule whose trigger has none cannot be saved with an action on one (triggers.ts). */
function conversationOf(scope: ActionScope) {
  if (!scope.subject.conversation) throw new DomainError('VALIDATION_ERROR', "The rule's trigger has no conversation to act on");
  return scope.subject.conversation;
}

function contactOf(scope: ActionScope) {
  if (!scope.subject.contact) throw new DomainError('VALIDATION_ERROR', "The rule's trigger has no contact to act on");
  return scope.subject.contact;
}

function changeConversation(scope: ActionScope, data: Prisma.ConversationUpdateInput) {
  const { id } = conversationOf(scope);
  return changeInTransaction(scope.tx, scope.workspaceId, id, (tx) =>
    tx.conversation.update({ where: { id }, data, select: conversationViewSelect }),
  );
}

function workspaceTag(scope: ActionScope, name: string): Promise<{ id: string; name: string }> {
  return scope.tx.tag.upsert({
    where: { company_id_name: { company_id: scope.workspaceId, name } },
    create: { company_id: scope.workspaceId, name },
    update: {},
    select: { id: true, name: true },
  });
}

/** The recipient of an action's send on the subject's conversation, with its contact's consent for a template's check. */
type ActionRecipient = Omit<OutboundSend, 'content' | 'body' | 'template'> & { contact: SendableConversation['contact'] };

/** The send of a message on the subject's conversation, under the rule: the checks of every send (sendable.ts). */
async function outboundSend(scope: ActionScope, freeForm: boolean): Promise<ActionRecipient> {
  const conversation = await sendableConversation(scope.tx, scope.services, scope.workspaceId, conversationOf(scope).id);
  if (freeForm) assertWindowOpen(conversation.window, Date.now());
  const { id: conversationId, provider, to, contact } = conversation;
  return { workspaceId: scope.workspaceId, sender: { type: 'automation', id: scope.ruleId }, conversationId, provider, to, contact };
}

async function send(scope: ActionScope, send: OutboundSend): Promise<AfterCommit> {
  const id = await recordPendingMessage(scope.tx, send);
  return async () => {
    const outcome = await dispatchMessage(scope.services, send, id);
    if (!outcome.sent)
      throw new Error(`the provider refused the message: ${outcome.error instanceof Error ? outcome.error.message : 'unknown error'}`);
  };
}

/** Does one action in the run's transaction; returns what is left to do after the commit, if anything. */
export async function performAction(
  scope: ActionScope,
  action: Action,
  postWebhook: (url: string, body: string) => Promise<void>,
): Promise<AfterCommit | void> {
  const { tx, subject } = scope;
  switch (action.type) {
    case 'add_tag':
      await addTagToContact(tx, scope.workspaceId, contactOf(scope).id, await workspaceTag(scope, action.tag));
      return;
    case 'remove_tag':
      await tx.customerTag.deleteMany({
        where: { customer_id: contactOf(scope).id, tag: { company_id: scope.workspaceId, name: action.tag } },
      });
      return;
    case 'assign': {
      if (action.team_id) {
        const turn = { workspaceId: scope.workspaceId, conversationId: conversationOf(scope).id, teamId: action.team_id };
        return assignInTurn(tx, { ...turn, capacity: action.capacity ?? null }, scope.now);
      }
      const user = await tx.user.findFirst({ where: { id: action.user_id ?? '', company_id: scope.workspaceId }, select: { id: true } });
      if (!user) throw new DomainError('VALIDATION_ERROR', 'The user to assign is not a person of this workspace');
      await changeConversation(scope, { assigned_user: { connect: { id: user.id } } });
      return;
    }
    case 'set_status': {
      // Snoozed is pending until the snooze ends (resolvers/automations/snooze.ts); any other status ends a snooze.
      const until = action.until ? new Date(scope.now.getTime() + Duration.fromISO(action.until).toMillis()) : null;
      const status = action.status === 'snoozed' ? 'pending' : action.status;
      await changeConversation(scope, { status, snoozed_until: until, closed_at: status === 'closed' ? new Date() : null });
      return;
    }
    case 'agent':
      await changeConversation(scope, { service_enabled: action.enabled });
      return;
    case 'note':
      await tx.note.create({
        data: {
          company_id: scope.workspaceId,
          conversation_id: conversationOf(scope).id,
          body: fillContactFields(action.body, subject.contact),
        },
      });
      return;
    case 'set_contact_field':
      await tx.customer.update({
        where: { id: contactOf(scope).id },
        data: { [action.field]: fillContactFields(action.value, subject.contact) },
      });
      return;
    case 'reply': {
      const body = fillContactFields(action.text, subject.contact);
      const { contact: _contact, ...recipient } = await outboundSend(scope, true);
      return send(scope, { ...recipient, content: { type: 'text', body }, body, template: null });
    }
    case 'send_template': {
      const common = await outboundSend(scope, false);
      const parameters = action.parameters.map((parameter) => fillContactFields(parameter, subject.contact));
      const { contact, ...recipient } = common;
      const template = await templateMessage(common.provider, { name: action.name, language: action.language, parameters });
      assertMarketingAllowed(contact, template.category ?? null);
      return send(scope, { ...recipient, ...template });
    }
    case 'webhook': {
      const body = JSON.stringify({
        type: 'automation.webhook',
        rule_id: scope.ruleId,
        event_id: subject.eventId,
        conversation_id: subject.conversation?.id ?? null,
        contact_id: subject.contact?.id ?? null,
        message: subject.message ? { id: subject.message.id, text: subject.message.text } : null,
      });
      return () => postWebhook(action.url, body);
    }
  }
}

// Whether a rule's conditions hold for a subject. Text operators are case-insensitive; `contains` matches the
// value as whole words (word boundaries), `matches` is an RE2 pattern (linear time, so no input stalls the
// worker), `in`/`not_in` compare with a list, `is` with one value (true/false for first_of_conversation). A list
// field (contact.tags) holds when one of its items does; `not_in` when none does.
import { RE2JS } from 're2js';
import type { Condition, ConditionGroup } from './ruleInput.js';
import type { Subject } from './subject.js';

type Value = string | number | boolean | null;

/** The field's value; undefined when the subject has not the part it is of (a schedule's contact). */
function fieldValue(subject: Subject, field: string): Value | Value[] | undefined {
  if (field.startsWith('contact.metadata.')) {
    let node: unknown = subject.contact?.metadata;
    for (const key of field.slice('contact.metadata.'.length).split('.')) {
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
    return Array.isArray(node) ? node.map(asValue) : asValue(node);
  }
  switch (field) {
    case 'message.text':
      return subject.message?.text ?? null;
    case 'message.language':
      return subject.message?.language ?? null;
    case 'message.first_of_conversation':
      return subject.message?.firstOfConversation ?? false;
    case 'contact.tags':
      return subject.contact?.tags;
    case 'contact.name':
      return subject.contact?.name;
    case 'contact.email':
      return subject.contact?.email;
    case 'contact.phone_number':
      return subject.contact?.phone_number;
    case 'conversation.status':
      return subject.conversation?.status;
    case 'conversation.assigned_user_id':
      return subject.conversation?.assigned_user_id;
    case 'conversation.channel':
      return subject.conversation?.provider;
    case 'conversation.changes':
      return subject.conversation?.changes;
    case 'tag.name':
      return subject.tag?.name ?? null;
    case 'business_hours':
      return subject.withinBusinessHours ? 'within' : 'outside';
    default:
      return null;
  }
}

function asValue(node: unknown): Value {
  return typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean' ? node : null;
}

const fold = (value: Value) => (value === null ? '' : String(value).toLowerCase());

function compiled(pattern: string) {
  return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
}

function holdsFor(value: Value, condition: Condition): boolean {
  const wanted = condition.value;
  switch (condition.operator) {
    case 'contains':
      return (
        value !== null &&
        compiled(`\\b${RE2JS.quote(String(wanted))}\\b`)
          .matcher(String(value))
          .find()
      );
    case 'matches':
      return value !== null && compiled(String(wanted)).matcher(String(value)).find();
    case 'equals':
    case 'is':
      return fold(value) === fold(wanted as Value);
    case 'in':
      return (wanted as Value[]).some((item) => fold(item) === fold(value));
    case 'not_in':
      return !(wanted as Value[]).some((item) => fold(item) === fold(value));
  }
}

export function conditionHolds(subject: Subject, condition: Condition): boolean {
  const value = fieldValue(subject, condition.field) ?? null;
  if (!Array.isArray(value)) return holdsFor(value, condition);
  if (condition.operator === 'not_in') return value.every((item) => holdsFor(item, condition));
  return value.some((item) => holdsFor(item, condition));
}

export function conditionsHold(subject: Subject, group: ConditionGroup): boolean {
  const check = (item: Condition | ConditionGroup) => ('field' in item ? conditionHolds(subject, item) : conditionsHold(subject, item));
  return 'all' in group ? group.all.every(check) : group.any.some(check);
}

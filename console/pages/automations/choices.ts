// What the rule editor offers, as one table: the triggers with their parameters, the fields a condition reads with
// their operators and how the value is entered, and the actions with their parameters (the rule's JSON of
// docs/api-decisions.md, "Automations"). A new trigger, condition field or action is one row here; the editor's
// forms are built from these rows and never name a trigger, field or action themselves.

/** How a parameter or a condition's value is entered. */
export type InputKind =
  | { kind: 'text'; multiline?: boolean; placeholder?: string }
  | { kind: 'number'; min: number }
  | { kind: 'yes_no'; yes: string; no: string }
  | { kind: 'select'; options: readonly Option[] }
  /** A person of the workspace (its user id), from the team list. */
  | { kind: 'person' }
  /** A workspace tag, picked from those that exist or typed (the API creates it when named first). */
  | { kind: 'tag' }
  /** An approved template: sets the action's `name` and `language`. */
  | { kind: 'template' }
  /** Several texts, one a line. */
  | { kind: 'lines' }
  | { kind: 'url' };

export type Option = { value: string; label: string };

export type Parameter = { key: string; label: string; input: InputKind; hint?: string; initial?: unknown };

export type TriggerChoice = { event: string; label: string; parameters: readonly Parameter[] };

export type Operator = 'contains' | 'equals' | 'matches' | 'in' | 'not_in' | 'is';

/** A field a condition reads; with `path`, the field names a path after it (contact.metadata.<path>). */
export type FieldChoice = { field: string; label: string; operators: readonly Operator[]; value: InputKind; path?: boolean };

/** An action; `fixed` are keys every action of this row carries (two rows may share a type, told apart by them). */
export type ActionChoice = {
  id: string;
  type: string;
  label: string;
  parameters: readonly Parameter[];
  fixed?: Readonly<Record<string, unknown>>;
};

const TEXT: InputKind = { kind: 'text' };
const LONG_TEXT: InputKind = { kind: 'text', multiline: true };
const STATUS: InputKind = {
  kind: 'select',
  options: [
    { value: 'active', label: 'Active' },
    { value: 'pending', label: 'Pending' },
    { value: 'closed', label: 'Closed' },
  ],
};
const PLACEHOLDERS = 'May name {{contact.name}}, {{contact.email}}, {{contact.phone_number}} or {{contact.metadata.<path>}}.';

export const OPERATOR_LABELS: Record<Operator, string> = {
  contains: 'contains the words',
  matches: 'matches the pattern',
  equals: 'equals',
  is: 'is',
  in: 'is one of',
  not_in: 'is none of',
};

/** Operators whose value is a list. */
export const LIST_OPERATORS: readonly Operator[] = ['in', 'not_in'];

export const TRIGGERS: readonly TriggerChoice[] = [
  { event: 'message.received', label: 'A customer message is received', parameters: [] },
  { event: 'conversation.created', label: 'A conversation starts (its first customer message)', parameters: [] },
  { event: 'conversation.updated', label: 'A conversation changes (status, assignee, AI agent)', parameters: [] },
  {
    event: 'conversation.waiting',
    label: 'A customer waits for an answer',
    parameters: [
      { key: 'minutes', label: 'Minutes waited', input: { kind: 'number', min: 1 }, initial: 30, hint: 'From 1 to 10080 (a week).' },
      {
        key: 'business_hours',
        label: 'Minutes counted',
        input: { kind: 'yes_no', yes: 'Business hours only', no: 'All minutes' },
        initial: false,
      },
    ],
  },
  { event: 'contact.created', label: 'A contact is created', parameters: [] },
  { event: 'tag.added', label: 'A tag is put on a contact', parameters: [] },
  {
    event: 'schedule',
    label: 'On a schedule',
    parameters: [
      {
        key: 'cron',
        label: 'Cron',
        input: { kind: 'text', placeholder: '0 9 * * 1-5' },
        initial: '0 9 * * 1-5',
        hint: "Minute hour day-of-month month day-of-week, in the workspace's time zone. Only a webhook can act on a schedule.",
      },
    ],
  },
];

export const CONDITION_FIELDS: readonly FieldChoice[] = [
  { field: 'message.text', label: 'Message text', operators: ['contains', 'matches', 'equals'], value: TEXT },
  {
    field: 'message.language',
    label: 'Message language',
    operators: ['equals', 'in', 'not_in'],
    value: { kind: 'text', placeholder: 'en' },
  },
  {
    field: 'message.first_of_conversation',
    label: 'First message of the conversation',
    operators: ['is'],
    value: { kind: 'yes_no', yes: 'Yes', no: 'No' },
  },
  { field: 'contact.tags', label: 'Contact tags', operators: ['is', 'in', 'not_in'], value: { kind: 'tag' } },
  { field: 'contact.name', label: 'Contact name', operators: ['contains', 'equals', 'matches'], value: TEXT },
  { field: 'contact.email', label: 'Contact e-mail', operators: ['contains', 'equals', 'matches'], value: TEXT },
  { field: 'contact.phone_number', label: 'Contact phone number', operators: ['equals', 'matches'], value: TEXT },
  {
    field: 'contact.metadata',
    label: 'Contact metadata',
    path: true,
    operators: ['equals', 'contains', 'matches', 'in', 'not_in', 'is'],
    value: TEXT,
  },
  { field: 'conversation.status', label: 'Conversation status', operators: ['is', 'in', 'not_in'], value: STATUS },
  { field: 'conversation.assigned_user_id', label: 'Conversation assignee', operators: ['is', 'in', 'not_in'], value: { kind: 'person' } },
  {
    field: 'conversation.channel',
    label: 'Conversation channel',
    operators: ['is', 'in', 'not_in'],
    value: {
      kind: 'select',
      options: [
        { value: 'whatsapp', label: 'WhatsApp' },
        { value: 'sandbox', label: 'Sandbox' },
      ],
    },
  },
  { field: 'tag.name', label: 'The tag put on (tag added)', operators: ['is', 'in', 'not_in'], value: { kind: 'tag' } },
  {
    field: 'conversation.changes',
    label: 'What changed (conversation changes)',
    operators: ['is', 'in', 'not_in'],
    value: {
      kind: 'select',
      options: [
        { value: 'status', label: 'Status' },
        { value: 'assigned_user_id', label: 'Assignee' },
        { value: 'service_enabled', label: 'AI agent' },
        { value: 'details', label: 'Details' },
      ],
    },
  },
];

export const ACTIONS: readonly ActionChoice[] = [
  { id: 'add_tag', type: 'add_tag', label: 'Add a tag', parameters: [{ key: 'tag', label: 'Tag', input: { kind: 'tag' } }] },
  { id: 'remove_tag', type: 'remove_tag', label: 'Remove a tag', parameters: [{ key: 'tag', label: 'Tag', input: { kind: 'tag' } }] },
  {
    id: 'assign',
    type: 'assign',
    label: 'Assign to a person',
    parameters: [{ key: 'user_id', label: 'Person', input: { kind: 'person' } }],
  },
  { id: 'set_status', type: 'set_status', label: 'Set the status', parameters: [{ key: 'status', label: 'Status', input: STATUS }] },
  {
    id: 'reply',
    type: 'reply',
    label: 'Reply with a text',
    parameters: [{ key: 'text', label: 'Reply', input: LONG_TEXT, hint: `Sent only inside the 24-hour window. ${PLACEHOLDERS}` }],
  },
  {
    id: 'send_template',
    type: 'send_template',
    label: 'Send a template',
    parameters: [
      { key: 'name', label: 'Template', input: { kind: 'template' } },
      { key: 'parameters', label: 'Template parameters, one a line', input: { kind: 'lines' }, hint: PLACEHOLDERS, initial: [] },
    ],
  },
  {
    id: 'agent',
    type: 'agent',
    label: 'Hand to the AI agent, or take it away',
    parameters: [
      { key: 'enabled', label: 'AI agent', input: { kind: 'yes_no', yes: 'Hand to the AI agent', no: 'Take it away' }, initial: true },
    ],
  },
  {
    id: 'note',
    type: 'note',
    label: 'Add a private note',
    parameters: [{ key: 'body', label: 'Note', input: LONG_TEXT, hint: PLACEHOLDERS }],
  },
  { id: 'webhook', type: 'webhook', label: 'Post to a webhook', parameters: [{ key: 'url', label: 'URL', input: { kind: 'url' } }] },
  {
    id: 'set_contact_field',
    type: 'set_contact_field',
    label: 'Set a contact field',
    parameters: [
      {
        key: 'field',
        label: 'Contact field',
        input: {
          kind: 'select',
          options: [
            { value: 'name', label: 'Name' },
            { value: 'email', label: 'E-mail' },
            { value: 'notes', label: 'Notes' },
          ],
        },
      },
      { key: 'value', label: 'Value', input: TEXT, hint: PLACEHOLDERS },
    ],
  },
];

export type Lookups = {
  people: readonly { id: string; name: string | null; email: string }[];
  tags: readonly string[];
  templates: readonly { name: string; language: string }[];
  /** The signed-in person, whom a new "assign" names first. */
  me: string;
};

/** A parameter's first value in a new trigger, condition or action. */
export function initialValue(input: InputKind, lookups: Lookups, initial?: unknown): unknown {
  if (initial !== undefined) return initial;
  switch (input.kind) {
    case 'number':
      return input.min;
    case 'yes_no':
      return true;
    case 'select':
      return input.options[0]!.value;
    case 'person':
      return lookups.me;
    case 'lines':
      return [];
    default:
      return '';
  }
}

/** What a template input writes into its action: the template's name and language. */
export function templateKeys(template: { name: string; language: string } | undefined) {
  return { name: template?.name ?? '', language: template?.language ?? '' };
}

export function triggerChoice(event: string): TriggerChoice | undefined {
  return TRIGGERS.find((choice) => choice.event === event);
}

/** The row a condition's field belongs to (contact.metadata.plan belongs to contact.metadata). */
export function fieldChoice(field: string): FieldChoice | undefined {
  return CONDITION_FIELDS.find((choice) => choice.field === field || (choice.path && field.startsWith(`${choice.field}.`)));
}

/** The row an action belongs to: its type, its fixed keys, and its parameters present. */
export function actionChoice(action: Record<string, unknown>): ActionChoice | undefined {
  return ACTIONS.find(
    (choice) =>
      choice.type === action['type'] &&
      Object.entries(choice.fixed ?? {}).every(([key, value]) => action[key] === value) &&
      choice.parameters.every((parameter) => parameter.key in action),
  );
}

export function newTrigger(choice: TriggerChoice, lookups: Lookups): Record<string, unknown> {
  return {
    event: choice.event,
    ...Object.fromEntries(choice.parameters.map((parameter) => [parameter.key, initialValue(parameter.input, lookups, parameter.initial)])),
  };
}

export function newAction(choice: ActionChoice, lookups: Lookups): Record<string, unknown> {
  const action: Record<string, unknown> = { type: choice.type, ...choice.fixed };
  for (const parameter of choice.parameters) {
    if (parameter.input.kind === 'template') Object.assign(action, templateKeys(lookups.templates[0]));
    else action[parameter.key] = initialValue(parameter.input, lookups, parameter.initial);
  }
  return action;
}

/** A condition on the field of this row, with its first operator and a value of the right kind. */
export function newCondition(choice: FieldChoice, lookups: Lookups, operator: Operator = choice.operators[0]!) {
  const single = initialValue(choice.value, lookups);
  return {
    field: choice.path ? `${choice.field}.` : choice.field,
    operator,
    value: LIST_OPERATORS.includes(operator) ? (single === '' ? [] : [single]) : single,
  };
}

// The conditions of a rule as forms: all or any of a list of rows (field, operator, value, from the table of
// choices.ts), rows added and removed, and at the top level groups of rows of their own (the API nests groups
// once). The API's refusal of a row's part shows beside it (conditions.all.0.value).
import {
  CONDITION_FIELDS,
  fieldChoice,
  LIST_OPERATORS,
  newCondition,
  OPERATOR_LABELS,
  type FieldChoice,
  type Lookups,
  type Operator,
} from './choices.js';
import { FieldError, LabelledField, ValueInput } from './inputs.js';

export type Condition = { field: string; operator: Operator; value: unknown };
export type ConditionGroup = { all: ConditionItem[] } | { any: ConditionItem[] };
type ConditionItem = Condition | ConditionGroup;
type Mode = 'all' | 'any';

/** The API's refusals by the path they name (conditions.all.0.value). */
export type Problems = Readonly<Record<string, string>>;

type Shared = { lookups: Lookups; problems: Problems };

const modeOf = (group: ConditionGroup): Mode => ('all' in group ? 'all' : 'any');
const itemsOf = (group: ConditionGroup): ConditionItem[] => ('all' in group ? group.all : group.any);
const withItems = (mode: Mode, items: ConditionItem[]): ConditionGroup => (mode === 'all' ? { all: items } : { any: items });
const isCondition = (item: ConditionItem): item is Condition => 'field' in item;

/** A field the table does not know yet (written through the API by a newer client) is still shown and kept. */
function choiceOf(condition: Condition): FieldChoice {
  return (
    fieldChoice(condition.field) ?? {
      field: condition.field,
      label: condition.field,
      operators: [condition.operator],
      value: { kind: 'text' },
    }
  );
}

/** The value kept across an operator change: a single value becomes a list of it, a list its first value. */
function valueFor(operator: Operator, value: unknown): unknown {
  const list = LIST_OPERATORS.includes(operator);
  if (list) return Array.isArray(value) ? value : value === '' ? [] : [value];
  return Array.isArray(value) ? (value[0] ?? '') : value;
}

function ConditionRow(
  props: Shared & { condition: Condition; path: string; name: string; onChange: (c: Condition) => void; onRemove: () => void },
) {
  const { condition, path, name, problems, lookups } = props;
  const choice = choiceOf(condition);
  const choices = CONDITION_FIELDS.includes(choice) ? CONDITION_FIELDS : [...CONDITION_FIELDS, choice];
  const set = (change: Partial<Condition>) => props.onChange({ ...condition, ...change });
  return (
    <div class="condition" role="group" aria-label={name}>
      <LabelledField id={`${path}.field`} label={`${name} field`} error={problems[`${path}.field`]}>
        <select
          id={`${path}.field`}
          value={choice.field}
          onChange={(event) =>
            props.onChange(
              newCondition(
                choices.find((item) => item.field === event.currentTarget.value)!,
                lookups,
              ),
            )
          }
        >
          {choices.map((item) => (
            <option key={item.field} value={item.field}>
              {item.label}
            </option>
          ))}
        </select>
      </LabelledField>
      {choice.path ? (
        <LabelledField id={`${path}.path`} label={`${name} metadata path`} hint="Dot path, e.g. plan or address.city">
          <input
            id={`${path}.path`}
            aria-describedby={`${path}.path-hint`}
            value={condition.field.slice(choice.field.length + 1)}
            onInput={(event) => set({ field: `${choice.field}.${event.currentTarget.value}` })}
          />
        </LabelledField>
      ) : null}
      <LabelledField id={`${path}.operator`} label={`${name} operator`} error={problems[`${path}.operator`]}>
        <select
          id={`${path}.operator`}
          value={condition.operator}
          onChange={(event) => {
            const operator = event.currentTarget.value as Operator;
            set({ operator, value: valueFor(operator, condition.value) });
          }}
        >
          {choice.operators.map((operator) => (
            <option key={operator} value={operator}>
              {OPERATOR_LABELS[operator]}
            </option>
          ))}
        </select>
      </LabelledField>
      <ValueInput
        id={`${path}.value`}
        label={`${name} value`}
        hint={
          LIST_OPERATORS.includes(condition.operator) && choice.value.kind !== 'select' && choice.value.kind !== 'person'
            ? 'Separate values with commas.'
            : undefined
        }
        input={choice.value}
        list={LIST_OPERATORS.includes(condition.operator)}
        value={condition.value}
        onChange={(value) => set({ value })}
        lookups={lookups}
        error={problems[`${path}.value`] ?? problems[path]}
      />
      <button type="button" class="link" onClick={props.onRemove}>
        Remove {name.toLowerCase()}
      </button>
    </div>
  );
}

type GroupProps = Shared & {
  group: ConditionGroup;
  path: string;
  /** How rows are named: "Condition 2" at the top, "Condition 3.1" inside the third item's group. */
  prefix: string;
  nested: boolean;
  onChange: (group: ConditionGroup) => void;
  onRemove?: () => void;
};

export function ConditionsEditor(props: GroupProps) {
  const { group, path, prefix, nested, problems, lookups } = props;
  const mode = modeOf(group);
  const items = itemsOf(group);
  const itemsPath = `${path}.${mode}`;
  const setItems = (next: ConditionItem[]) => props.onChange(withItems(mode, next));
  const replace = (index: number, item: ConditionItem) => setItems(items.map((old, at) => (at === index ? item : old)));
  const remove = (index: number) => setItems(items.filter((_, at) => at !== index));
  const groupName = prefix.slice(0, -1);
  const legend = nested ? `Group ${groupName}` : 'Conditions';
  return (
    <fieldset class="conditions">
      <legend>{legend}</legend>
      <LabelledField id={`${path}.mode`} label={nested ? `Group ${groupName} holds when` : 'The rule acts when'}>
        <select id={`${path}.mode`} value={mode} onChange={(event) => props.onChange(withItems(event.currentTarget.value as Mode, items))}>
          <option value="all">all of these hold</option>
          <option value="any">any of these holds</option>
        </select>
      </LabelledField>
      <FieldError id={path} error={problems[path] ?? problems[itemsPath]} />
      {items.length === 0 ? (
        <p class="hint">{nested ? 'An empty group always holds.' : 'No conditions: every event of the trigger counts.'}</p>
      ) : null}
      {items.map((item, index) => {
        const name = `${prefix}${index + 1}`;
        return isCondition(item) ? (
          <ConditionRow
            key={index}
            condition={item}
            path={`${itemsPath}.${index}`}
            name={`Condition ${name}`}
            onChange={(next) => replace(index, next)}
            onRemove={() => remove(index)}
            lookups={lookups}
            problems={problems}
          />
        ) : (
          <ConditionsEditor
            key={index}
            group={item}
            path={`${itemsPath}.${index}`}
            prefix={`${name}.`}
            nested
            onChange={(next) => replace(index, next)}
            onRemove={() => remove(index)}
            lookups={lookups}
            problems={problems}
          />
        );
      })}
      <div class="actions">
        <button type="button" onClick={() => setItems([...items, newCondition(CONDITION_FIELDS[0]!, lookups)])}>
          {nested ? `Add a condition to group ${groupName}` : 'Add a condition'}
        </button>
        {nested ? (
          <button type="button" class="link" onClick={props.onRemove}>
            Remove group {groupName}
          </button>
        ) : (
          <button type="button" onClick={() => setItems([...items, { any: [newCondition(CONDITION_FIELDS[0]!, lookups)] }])}>
            Add a group of conditions
          </button>
        )}
      </div>
    </fieldset>
  );
}

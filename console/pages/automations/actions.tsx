// A rule's trigger and its actions as forms: the trigger chosen from a select with its parameters, and the actions
// as a list of typed forms (each an action row of choices.ts and its parameters), added, removed and reordered; one
// ChoiceForm serves both. The API's refusal of a parameter shows beside it (actions.1.url), of the action itself
// above its form.
import { ACTIONS, actionChoice, newAction, newTrigger, triggerChoice, TRIGGERS, type Lookups, type Parameter } from './choices.js';
import type { Problems } from './conditions.js';
import { FieldError, LabelledField, ValueInput } from './inputs.js';

type Values = Record<string, unknown>;
type Shared = { lookups: Lookups; problems: Problems };

/** The parameters of a trigger or an action, each entered as its kind says. */
function ParameterInputs(
  props: Shared & { parameters: readonly Parameter[]; values: Values; path: string; name: string; onChange: (values: Values) => void },
) {
  const { values, path, problems } = props;
  return (
    <>
      {props.parameters.map((parameter) => {
        const template = parameter.input.kind === 'template';
        return (
          <ValueInput
            key={parameter.key}
            id={`${path}.${parameter.key}`}
            label={`${props.name} ${parameter.label.toLowerCase()}`}
            hint={parameter.hint}
            input={parameter.input}
            value={template ? { name: values['name'], language: values['language'] } : values[parameter.key]}
            onChange={(value) => props.onChange(template ? { ...values, ...(value as Values) } : { ...values, [parameter.key]: value })}
            lookups={props.lookups}
            error={problems[`${path}.${parameter.key}`] ?? (template ? problems[`${path}.language`] : undefined)}
          />
        );
      })}
    </>
  );
}

/** A row of the table a select picks from: a trigger or an action, with its parameters. */
type Choice = { label: string; parameters: readonly Parameter[] };

/**
 * A select over the rows of one table of choices.ts with the chosen row's parameters below it: the trigger, and
 * each action. A row the table does not know yet (written through the API by a newer client) is still shown and kept.
 */
function ChoiceForm<Row extends Choice>(
  props: Shared & {
    path: string;
    name: string;
    /** The select's key under `path` (trigger.event, actions.0.type) and its label. */
    selectKey: 'event' | 'type';
    selectLabel: string;
    rows: readonly Row[];
    chosen: Row;
    keyOf: (row: Row) => string;
    error: string | undefined;
    values: Values;
    /** The values of a newly chosen row (its parameters' first values). */
    fresh: (row: Row) => Values;
    onChange: (values: Values) => void;
  },
) {
  const { path, chosen, keyOf } = props;
  const rows = props.rows.includes(chosen) ? props.rows : [...props.rows, chosen];
  const id = `${path}.${props.selectKey}`;
  return (
    <>
      <LabelledField id={id} label={props.selectLabel} error={props.error}>
        <select
          id={id}
          value={keyOf(chosen)}
          onChange={(event) => props.onChange(props.fresh(rows.find((row) => keyOf(row) === event.currentTarget.value)!))}
        >
          {rows.map((row) => (
            <option key={keyOf(row)} value={keyOf(row)}>
              {row.label}
            </option>
          ))}
        </select>
      </LabelledField>
      <ParameterInputs
        parameters={chosen.parameters}
        values={props.values}
        path={path}
        name={props.name}
        onChange={props.onChange}
        lookups={props.lookups}
        problems={props.problems}
      />
    </>
  );
}

export function TriggerEditor(props: Shared & { trigger: Values; onChange: (trigger: Values) => void }) {
  const { trigger, lookups, problems } = props;
  const event = String(trigger['event']);
  return (
    <fieldset class="trigger">
      <legend>When</legend>
      <ChoiceForm
        path="trigger"
        name="Trigger"
        selectKey="event"
        selectLabel="Trigger"
        rows={TRIGGERS}
        chosen={triggerChoice(event) ?? { event, label: event, parameters: [] }}
        keyOf={(row) => row.event}
        error={problems['trigger.event'] ?? problems['trigger']}
        values={trigger}
        fresh={(row) => newTrigger(row, lookups)}
        onChange={props.onChange}
        lookups={lookups}
        problems={problems}
      />
    </fieldset>
  );
}

export function ActionsEditor(props: Shared & { actions: Values[]; onChange: (actions: Values[]) => void }) {
  const { actions, lookups, problems } = props;
  const replace = (index: number, action: Values) => props.onChange(actions.map((old, at) => (at === index ? action : old)));
  const move = (index: number, by: number) => {
    const next = [...actions];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    props.onChange(next);
  };
  return (
    <fieldset class="rule-actions">
      <legend>Then, in order</legend>
      <FieldError id="actions" error={problems['actions']} />
      {actions.length === 0 ? <p class="hint">Add at least one action.</p> : null}
      {actions.map((action, index) => {
        const type = String(action['type']);
        const path = `actions.${index}`;
        const name = `Action ${index + 1}`;
        return (
          <div class="action card" role="group" aria-label={name} key={index}>
            <ChoiceForm
              path={path}
              name={name}
              selectKey="type"
              selectLabel={`${name} type`}
              rows={ACTIONS}
              chosen={actionChoice(action) ?? { id: type, type, label: type, parameters: [] }}
              keyOf={(row) => row.id}
              error={problems[`${path}.type`] ?? problems[path]}
              values={action}
              fresh={(row) => newAction(row, lookups)}
              onChange={(values) => replace(index, values)}
              lookups={lookups}
              problems={problems}
            />
            <div class="actions">
              {index > 0 ? (
                <button type="button" class="link" onClick={() => move(index, -1)}>
                  Move action {index + 1} up
                </button>
              ) : null}
              {index < actions.length - 1 ? (
                <button type="button" class="link" onClick={() => move(index, 1)}>
                  Move action {index + 1} down
                </button>
              ) : null}
              <button type="button" class="link" onClick={() => props.onChange(actions.filter((_, at) => at !== index))}>
                Remove action {index + 1}
              </button>
            </div>
          </div>
        );
      })}
      <button type="button" onClick={() => props.onChange([...actions, newAction(ACTIONS[0]!, lookups)])}>
        Add an action
      </button>
    </fieldset>
  );
}

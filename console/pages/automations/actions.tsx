// A rule's trigger and its actions as forms: the trigger chosen from a select with its parameters, and the actions
// as a list of typed forms (each an action row of choices.ts and its parameters), added, removed and reordered. The
// API's refusal of a parameter shows beside it (actions.1.url), of the action itself above its form.
import {
  ACTIONS,
  actionChoice,
  newAction,
  newTrigger,
  triggerChoice,
  TRIGGERS,
  type ActionChoice,
  type Lookups,
  type Parameter,
  type TriggerChoice,
} from './choices.js';
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

/** What the table does not know yet (written through the API by a newer client) is still shown and kept. */
function unknownTrigger(trigger: Values): TriggerChoice {
  return { event: String(trigger['event']), label: String(trigger['event']), parameters: [] };
}

export function TriggerEditor(props: Shared & { trigger: Values; onChange: (trigger: Values) => void }) {
  const { trigger, lookups, problems } = props;
  const choice = triggerChoice(String(trigger['event'])) ?? unknownTrigger(trigger);
  const choices = TRIGGERS.includes(choice) ? TRIGGERS : [...TRIGGERS, choice];
  return (
    <fieldset class="trigger">
      <legend>When</legend>
      <LabelledField id="trigger.event" label="Trigger" error={problems['trigger.event'] ?? problems['trigger']}>
        <select
          id="trigger.event"
          value={choice.event}
          onChange={(event) =>
            props.onChange(
              newTrigger(
                choices.find((item) => item.event === event.currentTarget.value)!,
                lookups,
              ),
            )
          }
        >
          {choices.map((item) => (
            <option key={item.event} value={item.event}>
              {item.label}
            </option>
          ))}
        </select>
      </LabelledField>
      <ParameterInputs
        parameters={choice.parameters}
        values={trigger}
        path="trigger"
        name="Trigger"
        onChange={props.onChange}
        lookups={lookups}
        problems={problems}
      />
    </fieldset>
  );
}

function unknownAction(action: Values): ActionChoice {
  return { id: String(action['type']), type: String(action['type']), label: String(action['type']), parameters: [] };
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
        const choice = actionChoice(action) ?? unknownAction(action);
        const choices = ACTIONS.includes(choice) ? ACTIONS : [...ACTIONS, choice];
        const path = `actions.${index}`;
        const name = `Action ${index + 1}`;
        return (
          <div class="action card" role="group" aria-label={name} key={index}>
            <LabelledField id={`${path}.type`} label={`${name} type`} error={problems[`${path}.type`] ?? problems[path]}>
              <select
                id={`${path}.type`}
                value={choice.id}
                onChange={(event) =>
                  replace(
                    index,
                    newAction(
                      choices.find((item) => item.id === event.currentTarget.value)!,
                      lookups,
                    ),
                  )
                }
              >
                {choices.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.label}
                  </option>
                ))}
              </select>
            </LabelledField>
            <ParameterInputs
              parameters={choice.parameters}
              values={action}
              path={path}
              name={name}
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

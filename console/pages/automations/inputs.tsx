// One input for a value of the rule editor, of the kind its row of choices.ts names (text, number, yes/no, a
// choice, a person, a tag, a template, lines), labelled, with its hint and the API's refusal of it beside it.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { templateKeys, type InputKind, type Lookups } from './choices.js';

/** The id of the datalist of the workspace's tags, rendered once by the editor. */
export const TAG_LIST_ID = 'automation-tags';

type Labelled = { id: string; label: string; hint?: string | undefined; error?: string | undefined };

/** The ids that describe an input: its hint and its error. */
function describedBy({ id, hint, error }: Labelled): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** A refusal by the API, beside the input it names. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p class="error" id={`${id}-error`}>
      {error}
    </p>
  ) : null;
}

export function LabelledField(props: Labelled & { children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <small id={`${props.id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
      <FieldError id={props.id} error={props.error} />
    </div>
  );
}

/** Comma-separated texts, kept as typed while the list they stand for goes to the rule. */
function TextList({ value, onChange, ...attributes }: { value: string[]; onChange: (value: string[]) => void } & Record<string, unknown>) {
  const [text, setText] = useState(value.join(', '));
  return (
    <input
      {...attributes}
      value={text}
      onInput={(event) => {
        setText(event.currentTarget.value);
        onChange(
          event.currentTarget.value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean),
        );
      }}
    />
  );
}

function personLabel(person: Lookups['people'][number], me: string) {
  return `${person.name ?? person.email}${person.id === me ? ' (you)' : ''}`;
}

/** The choices of a select-like kind: a list's own options, or the workspace's people. */
function optionsOf(input: InputKind, lookups: Lookups): { value: string; label: string }[] {
  if (input.kind === 'select') return [...input.options];
  if (input.kind === 'person') return lookups.people.map((person) => ({ value: person.id, label: personLabel(person, lookups.me) }));
  if (input.kind === 'yes_no')
    return [
      { value: 'true', label: input.yes },
      { value: 'false', label: input.no },
    ];
  return [];
}

type ValueInputProps = Labelled & {
  input: InputKind;
  /** A list of values (the operators in and not_in). */
  list?: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
  lookups: Lookups;
};

export function ValueInput(props: ValueInputProps) {
  const { id, input, value, onChange, lookups } = props;
  const common = { id, 'aria-describedby': describedBy(props), 'aria-invalid': props.error ? ('true' as const) : undefined };
  let control: ComponentChildren;
  if (input.kind === 'select' || input.kind === 'person' || input.kind === 'yes_no') {
    const options = optionsOf(input, lookups);
    const chosen = (props.list ? (value as unknown[]) : [value]).map(String);
    // A value the choices no longer hold (a person removed since) stays visible rather than silently changing.
    for (const missing of chosen.filter((item) => !options.some((option) => option.value === item))) {
      options.push({ value: missing, label: `${missing} (unknown)` });
    }
    control = (
      <select
        {...common}
        multiple={props.list}
        value={props.list ? undefined : String(value)}
        onChange={(event) => {
          const values = [...event.currentTarget.selectedOptions].map((option) => option.value);
          const parsed = input.kind === 'yes_no' ? values.map((item) => item === 'true') : values;
          onChange(props.list ? parsed : parsed[0]);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} selected={props.list ? chosen.includes(option.value) : undefined}>
            {option.label}
          </option>
        ))}
      </select>
    );
  } else if (props.list) {
    control = (
      <TextList
        {...common}
        list={input.kind === 'tag' ? TAG_LIST_ID : undefined}
        value={(value as unknown[]).map(String)}
        onChange={onChange}
      />
    );
  } else if (input.kind === 'template') {
    const { name, language } = value as { name: string; language: string };
    const templates = lookups.templates.some((template) => template.name === name && template.language === language)
      ? lookups.templates
      : [...lookups.templates, { name, language }];
    control = (
      <select
        {...common}
        value={JSON.stringify([name, language])}
        onChange={(event) => {
          const [chosenName, chosenLanguage] = JSON.parse(event.currentTarget.value) as [string, string];
          onChange(templateKeys({ name: chosenName, language: chosenLanguage }));
        }}
      >
        {templates.map((template) => (
          <option key={`${template.name}/${template.language}`} value={JSON.stringify([template.name, template.language])}>
            {template.name ? `${template.name} (${template.language})` : 'No approved template'}
          </option>
        ))}
      </select>
    );
  } else if (input.kind === 'lines') {
    control = (
      <textarea
        {...common}
        rows={3}
        value={(value as string[]).join('\n')}
        onInput={(event) => onChange(event.currentTarget.value.split('\n'))}
      />
    );
  } else if (input.kind === 'number') {
    control = (
      <input
        {...common}
        type="number"
        min={input.min}
        value={String(value)}
        onInput={(event) => onChange(event.currentTarget.valueAsNumber)}
      />
    );
  } else if (input.kind === 'text' && input.multiline) {
    control = <textarea {...common} rows={3} value={String(value)} onInput={(event) => onChange(event.currentTarget.value)} />;
  } else {
    control = (
      <input
        {...common}
        type={input.kind === 'url' ? 'url' : 'text'}
        list={input.kind === 'tag' ? TAG_LIST_ID : undefined}
        placeholder={input.kind === 'text' ? input.placeholder : input.kind === 'url' ? 'https://' : undefined}
        value={String(value)}
        onInput={(event) => onChange(event.currentTarget.value)}
      />
    );
  }
  return (
    <LabelledField id={id} label={props.label} hint={props.hint} error={props.error}>
      {control}
    </LabelledField>
  );
}

// A rule written with forms, no JSON: its name, whether it runs, its trigger, its conditions and its actions, saved
// whole; the API's refusal shows beside the field it names. A saved rule can be tried (its dry run) and shows its
// run log beside the form.
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { gql, type CombinedError } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { session } from '../../session.js';
import { Button, ErrorNote, Page } from '../../ui.js';
import { ACTIONS, newAction, newTrigger, TRIGGERS, type Lookups } from './choices.js';
import { ConditionsEditor, type ConditionGroup, type Problems } from './conditions.js';
import { ActionsEditor, TriggerEditor } from './actions.js';
import { FieldError, LabelledField, TAG_LIST_ID } from './inputs.js';
import { DryRun, RunLog } from './results.js';

type Values = Record<string, unknown>;
type Rule = { name: string; enabled: boolean; trigger: Values; conditions: ConditionGroup; actions: Values[] };
type Chosen = {
  users: { id: string; name: string | null; email: string; status: string }[] | null;
  tags: { tags: { name: string }[] } | null;
  templates: { templates: { name: string; language: string }[] } | null;
};

const CHOICES = gql`
  query AutomationsPageChoices {
    users {
      id
      name
      email
      status
    }
    tags {
      tags {
        name
      }
    }
    templates(status: "approved") {
      templates {
        name
        language
      }
    }
  }
`;
const RULE = gql`
  query AutomationsPageRule($id: ID!) {
    automation(id: $id) {
      id
      name
      enabled
      trigger
      conditions
      actions
    }
  }
`;
const CREATE = gql`
  mutation AutomationsPageCreate($name: String!, $enabled: Boolean, $trigger: JSON!, $conditions: JSON, $actions: JSONList!) {
    automationCreate(name: $name, enabled: $enabled, trigger: $trigger, conditions: $conditions, actions: $actions) {
      id
    }
  }
`;
const UPDATE = gql`
  mutation AutomationsPageUpdate($id: ID!, $name: String, $enabled: Boolean, $trigger: JSON, $conditions: JSON, $actions: JSONList) {
    automationUpdate(id: $id, name: $name, enabled: $enabled, trigger: $trigger, conditions: $conditions, actions: $actions) {
      id
      name
      enabled
      trigger
      conditions
      actions
    }
  }
`;
const DELETE = gql`
  mutation AutomationsPageDelete($id: ID!) {
    automationDelete(id: $id) {
      id
    }
  }
`;

/** The parts of a rule the form has fields for; a refusal naming anything else is shown above the form. */
const RULE_PARTS = ['name', 'enabled', 'trigger', 'conditions', 'actions'];

/** The API's refusals by path, when it refused the rule's input (400 VALIDATION_ERROR). */
function problemsOf(error: CombinedError | undefined): Problems {
  const first = error?.graphQLErrors[0];
  if (first?.extensions?.['code'] !== 'VALIDATION_ERROR') return {};
  return (first.extensions['details'] as Problems | undefined) ?? {};
}

function SaveProblems({ error, problems }: { error: CombinedError | undefined; problems: Problems }) {
  const paths = Object.keys(problems);
  if (paths.length === 0) return <ErrorNote error={error} />;
  const elsewhere = paths.filter((path) => !RULE_PARTS.includes(path.split('.')[0]!));
  return (
    <div class="error" role="alert">
      <p>The rule was not saved: {paths.length === 1 ? 'one thing is' : `${paths.length} things are`} marked below.</p>
      {elsewhere.map((path) => (
        <p key={path}>
          {path} {problems[path]}
        </p>
      ))}
    </div>
  );
}

function RuleForm({ id, initial, lookups }: { id: string | null; initial: Rule; lookups: Lookups }) {
  const { route } = useLocation();
  const [rule, setRule] = useState(initial);
  const [saved, setSaved] = useState('');
  const [creating, create] = useMutation<{ automationCreate: { id: string } | null }>(CREATE);
  const [updating, update] = useMutation<{ automationUpdate: { id: string } | null }>(UPDATE);
  const [deleting, remove] = useMutation(DELETE);
  const saving = id ? updating : creating;
  const problems = problemsOf(saving.error);
  const set = (change: Partial<Rule>) => {
    setSaved('');
    setRule({ ...rule, ...change });
  };
  return (
    <form
      class="card rule-form"
      aria-label="Rule"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (id) {
          void update({ id, ...rule }).then((answer) => {
            if (answer.data?.automationUpdate) setSaved(`${rule.name} was saved.`);
          });
        } else {
          void create(rule).then((answer) => {
            const created = answer.data?.automationCreate;
            if (created) route(`/automations/${created.id}`);
          });
        }
      }}
    >
      <LabelledField id="name" label="Name" error={problems['name']}>
        <input
          id="name"
          value={rule.name}
          aria-invalid={problems['name'] ? true : undefined}
          aria-describedby={problems['name'] ? 'name-error' : undefined}
          onInput={(event) => set({ name: event.currentTarget.value })}
        />
      </LabelledField>
      <label class="check">
        <input type="checkbox" checked={rule.enabled} onChange={(event) => set({ enabled: event.currentTarget.checked })} /> Enabled: runs
        on new events
      </label>
      <FieldError id="enabled" error={problems['enabled']} />
      <TriggerEditor trigger={rule.trigger} onChange={(trigger) => set({ trigger })} lookups={lookups} problems={problems} />
      <ConditionsEditor
        group={rule.conditions}
        path="conditions"
        prefix=""
        nested={false}
        onChange={(conditions) => set({ conditions })}
        lookups={lookups}
        problems={problems}
      />
      <ActionsEditor actions={rule.actions} onChange={(actions) => set({ actions })} lookups={lookups} problems={problems} />
      <datalist id={TAG_LIST_ID}>
        {lookups.tags.map((tag) => (
          <option key={tag} value={tag} />
        ))}
      </datalist>
      <SaveProblems error={saving.error} problems={problems} />
      {saved ? <p role="status">{saved}</p> : null}
      <div class="actions">
        <Button type="submit" busy={saving.fetching}>
          {id ? 'Save the rule' : 'Create the rule'}
        </Button>
        {id ? (
          <Button
            type="button"
            class="link"
            busy={deleting.fetching}
            onClick={() => {
              if (window.confirm(`Delete ${initial.name} and its run log?`)) {
                void remove({ id }).then((answer) => {
                  if (!answer.error) route('/automations');
                });
              }
            }}
          >
            Delete the rule
          </Button>
        ) : null}
      </div>
      <ErrorNote error={deleting.error} />
    </form>
  );
}

function lookupsOf(chosen: Chosen | undefined): Lookups {
  return {
    people: (chosen?.users ?? []).filter((person) => person.status === 'active'),
    tags: (chosen?.tags?.tags ?? []).map((tag) => tag.name),
    templates: chosen?.templates?.templates ?? [],
    me: session.value?.user.id ?? '',
  };
}

function newRule(lookups: Lookups): Rule {
  return {
    name: '',
    enabled: true,
    trigger: newTrigger(TRIGGERS[0]!, lookups),
    conditions: { all: [] },
    actions: [newAction(ACTIONS[0]!, lookups)],
  };
}

/** The editor of a new rule (id null) or of a saved one, with its dry run and run log. */
export function RuleEditor({ id }: { id: string | null }) {
  const [chosen] = useQuery<Chosen>({ query: CHOICES });
  const [loaded] = useQuery<{ automation: (Rule & { id: string }) | null }>({ query: RULE, variables: { id }, pause: !id });
  // The team, tags and templates are what the forms offer; a part that failed to load (no messaging integration
  // yet: no templates) leaves that list empty rather than the page.
  const answered = (query: { data?: unknown; error?: unknown }) => query.data !== undefined || query.error !== undefined;
  const ready = answered(chosen) && (!id || answered(loaded));
  const lookups = lookupsOf(chosen.data);
  const rule = loaded.data?.automation;
  return (
    <Page title={id ? (rule?.name ?? 'Rule') : 'New rule'} actions={<a href="/automations">All rules</a>}>
      <ErrorNote error={loaded.error} />
      {ready && (!id || rule) ? (
        <div class="automation-editor">
          <RuleForm key={id ?? 'new'} id={id} initial={rule ?? newRule(lookups)} lookups={lookups} />
          {id ? (
            <div>
              <DryRun ruleId={id} lookups={lookups} />
              <RunLog ruleId={id} />
            </div>
          ) : (
            <p class="hint">Create the rule to try it on recent events and to see its runs.</p>
          )}
        </div>
      ) : null}
    </Page>
  );
}

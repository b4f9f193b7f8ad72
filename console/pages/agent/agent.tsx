// Settings → AI agent: which agent answers conversations whose AI-agent switch is on (the knowledge agent or an
// OpenAI-compatible model), its hand-off rules and its limits. The model's API key is write-only.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, ErrorNote, Field, Page, Time, checkedValues, formValues } from '../../ui.js';

const TOOL_SCOPES = ['scheduling', 'customers', 'tags'];

type Settings = {
  kind: string;
  greeting: string | null;
  handoff_keywords: string[];
  handoff_user_id: string | null;
  knowledge_threshold: number;
  max_consecutive_replies: number;
  daily_model_calls: number;
  daily_tokens: number;
  call_timeout_ms: number;
  max_tool_calls: number;
  tool_scopes: string[];
  llm_base_url: string | null;
  llm_model: string | null;
  llm_api_key_set: boolean;
  system_prompt: string | null;
  temperature: number | null;
  max_tokens: number | null;
  updated_at: string | null;
};

const SETTINGS = gql`
  query AgentSettings {
    agentSettings {
      kind
      greeting
      handoff_keywords
      handoff_user_id
      knowledge_threshold
      max_consecutive_replies
      daily_model_calls
      daily_tokens
      call_timeout_ms
      max_tool_calls
      tool_scopes
      llm_base_url
      llm_model
      llm_api_key_set
      system_prompt
      temperature
      max_tokens
      updated_at
    }
    users {
      id
      name
      email
      status
    }
  }
`;
const UPDATE = gql`
  mutation AgentSettingsUpdate(
    $kind: String
    $greeting: String
    $handoff_keywords: [String!]
    $handoff_user_id: ID
    $knowledge_threshold: Float
    $max_consecutive_replies: Int
    $daily_model_calls: Int
    $daily_tokens: Int
    $call_timeout_ms: Int
    $max_tool_calls: Int
    $tool_scopes: [String!]
    $llm_base_url: String
    $llm_model: String
    $llm_api_key: String
    $system_prompt: String
    $temperature: Float
    $max_tokens: Int
  ) {
    agentSettingsUpdate(
      kind: $kind
      greeting: $greeting
      handoff_keywords: $handoff_keywords
      handoff_user_id: $handoff_user_id
      knowledge_threshold: $knowledge_threshold
      max_consecutive_replies: $max_consecutive_replies
      daily_model_calls: $daily_model_calls
      daily_tokens: $daily_tokens
      call_timeout_ms: $call_timeout_ms
      max_tool_calls: $max_tool_calls
      tool_scopes: $tool_scopes
      llm_base_url: $llm_base_url
      llm_model: $llm_model
      llm_api_key: $llm_api_key
      system_prompt: $system_prompt
      temperature: $temperature
      max_tokens: $max_tokens
    ) {
      updated_at
    }
  }
`;

/** Empty fields clear optional settings; numbers are sent as numbers (the API names a value out of range). */
function variablesOf(form: HTMLFormElement, removeKey: boolean): Record<string, unknown> {
  const values = formValues(form);
  const text = (name: string) => values[name]?.trim() || null;
  const number = (name: string) => (values[name]?.trim() ? Number(values[name]) : null);
  return {
    kind: values['kind'],
    greeting: text('greeting'),
    handoff_keywords: (values['handoff_keywords'] ?? '')
      .split(',')
      .map((word) => word.trim())
      .filter(Boolean),
    handoff_user_id: text('handoff_user_id'),
    knowledge_threshold: number('knowledge_threshold'),
    max_consecutive_replies: number('max_consecutive_replies'),
    daily_model_calls: number('daily_model_calls'),
    daily_tokens: number('daily_tokens'),
    call_timeout_ms: number('call_timeout_ms'),
    max_tool_calls: number('max_tool_calls'),
    tool_scopes: checkedValues(form, 'tool_scopes'),
    llm_base_url: text('llm_base_url'),
    llm_model: text('llm_model'),
    system_prompt: text('system_prompt'),
    temperature: number('temperature'),
    max_tokens: number('max_tokens'),
    // Left empty, the stored key stays; "Remove the key" sends null.
    ...(removeKey ? { llm_api_key: null } : text('llm_api_key') ? { llm_api_key: text('llm_api_key') } : {}),
  };
}

export function AgentPage() {
  const [loaded, refresh] = useQuery<{
    agentSettings: Settings;
    users: { id: string; name: string | null; email: string; status: string }[];
  }>({ query: SETTINGS });
  const [saving, save] = useMutation(UPDATE);
  const [saved, setSaved] = useState(false);
  const settings = loaded.data?.agentSettings;
  if (!settings)
    return <Page title="AI agent">{loaded.fetching ? <p class="loading">Loading…</p> : <ErrorNote error={loaded.error} />}</Page>;
  const submit = (form: HTMLFormElement, removeKey: boolean) => {
    setSaved(false);
    void save(variablesOf(form, removeKey)).then((answer) => {
      setSaved(!answer.error);
      refresh({ requestPolicy: 'network-only' });
    });
  };
  return (
    <Page title="AI agent">
      <p>
        The agent answers conversations whose “AI agent answers” switch is on, within the 24-hour window, and hands a conversation to a
        person by the rules below. Last changed: <Time value={settings.updated_at} />.
      </p>
      <form
        class="card"
        aria-label="Agent settings"
        onSubmit={(event) => {
          event.preventDefault();
          submit(event.currentTarget, false);
        }}
      >
        <label for="agent-kind">Kind</label>
        <select id="agent-kind" name="kind" defaultValue={settings.kind}>
          <option value="knowledge">Knowledge: answers with the best passage of the knowledge documents</option>
          <option value="llm">Model: an OpenAI-compatible chat-completions endpoint</option>
        </select>
        <Field label="Greeting (said once, before the first answer)" name="greeting" defaultValue={settings.greeting ?? ''} />
        <Field label="Hand-off keywords (comma-separated)" name="handoff_keywords" defaultValue={settings.handoff_keywords.join(', ')} />
        <label for="agent-handoff-user">Hand off to</label>
        <select id="agent-handoff-user" name="handoff_user_id" defaultValue={settings.handoff_user_id ?? ''}>
          <option value="">Active members in turn</option>
          {loaded.data?.users
            .filter((user) => user.status === 'active')
            .map((user) => (
              <option key={user.id} value={user.id}>
                {user.name ?? user.email}
              </option>
            ))}
        </select>
        <Field
          label="Knowledge threshold (0 to 1)"
          name="knowledge_threshold"
          type="number"
          step="0.01"
          defaultValue={String(settings.knowledge_threshold)}
        />
        <Field
          label="Agent replies in a row before a hand-off"
          name="max_consecutive_replies"
          type="number"
          defaultValue={String(settings.max_consecutive_replies)}
        />
        <Field label="Model calls per day" name="daily_model_calls" type="number" defaultValue={String(settings.daily_model_calls)} />
        <Field label="Tokens per day" name="daily_tokens" type="number" defaultValue={String(settings.daily_tokens)} />
        <Field label="Time-out per model call (ms)" name="call_timeout_ms" type="number" defaultValue={String(settings.call_timeout_ms)} />
        <Field label="Tool calls per reply" name="max_tool_calls" type="number" defaultValue={String(settings.max_tool_calls)} />
        <fieldset>
          <legend>What the model's tools may do</legend>
          {TOOL_SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input type="checkbox" name="tool_scopes" value={scope} defaultChecked={settings.tool_scopes.includes(scope)} /> {scope}
            </label>
          ))}
        </fieldset>
        <Field
          label="Model endpoint (base URL)"
          name="llm_base_url"
          type="url"
          defaultValue={settings.llm_base_url ?? ''}
          placeholder="https://api.openai.com/v1"
        />
        <Field label="Model" name="llm_model" defaultValue={settings.llm_model ?? ''} />
        <Field
          label="Model API key"
          name="llm_api_key"
          type="password"
          autoComplete="off"
          hint={settings.llm_api_key_set ? 'A key is stored (sealed). Leave empty to keep it.' : 'No key stored.'}
        />
        <div class="field">
          <label for="agent-system-prompt">System prompt</label>
          <textarea id="agent-system-prompt" name="system_prompt" rows={4} defaultValue={settings.system_prompt ?? ''} />
        </div>
        <Field
          label="Temperature"
          name="temperature"
          type="number"
          step="0.1"
          defaultValue={settings.temperature === null ? '' : String(settings.temperature)}
        />
        <Field
          label="Max tokens per reply"
          name="max_tokens"
          type="number"
          defaultValue={settings.max_tokens === null ? '' : String(settings.max_tokens)}
        />
        <ErrorNote error={saving.error} />
        <div class="actions">
          <Button type="submit" busy={saving.fetching}>
            Save
          </Button>
          {settings.llm_api_key_set ? (
            <Button type="button" busy={saving.fetching} onClick={(event) => submit(event.currentTarget.form!, true)}>
              Remove the key
            </Button>
          ) : null}
          {saved ? <span role="status">Saved.</span> : null}
        </div>
      </form>
    </Page>
  );
}

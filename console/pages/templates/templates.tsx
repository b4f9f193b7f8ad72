// Templates: the workspace's message templates with their review status (and why one was rejected), and a builder
// that writes a new one with forms (header, body with a sample per parameter, footer, buttons) beside a live phone
// preview, then submits it for review. Meta's rules are the API's to check; their refusals show by field.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, EmptyNote, ErrorNote, Field, ListTable, Page } from '../../ui.js';

type Listed = {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason: string | null;
  quality_score: { score: string } | null;
};
type ButtonDraft = { type: 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER'; text: string; value: string };

const LIST = gql`
  query TemplatesPage {
    templates {
      templates { id name language category status rejected_reason quality_score { score } }
    }
  }
`;
const CREATE = gql`
  mutation TemplatesPageCreate($name: String!, $language: String!, $category: String!, $components: [TemplateComponentInput!]!) {
    templateCreate(name: $name, language: $language, category: $category, components: $components) {
      id
      status
    }
  }
`;

const VARIABLE = /\{\{\s*(\d+)\s*\}\}/g;

/** The positional parameters of a text, in number order. */
function parameters(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((match) => match[1]!))].sort((a, b) => Number(a) - Number(b));
}

function filled(text: string, samples: Record<string, string>): string {
  return text.replace(VARIABLE, (whole, number: string) => samples[number] || whole);
}

type Draft = {
  name: string;
  language: string;
  category: string;
  header: string;
  body: string;
  footer: string;
  samples: Record<string, string>;
  buttons: ButtonDraft[];
};

const EMPTY: Draft = { name: '', language: 'en_US', category: 'UTILITY', header: '', body: '', footer: '', samples: {}, buttons: [] };

/** The draft as the API's components (Meta's form). */
function componentsOf(draft: Draft) {
  const body = parameters(draft.body);
  return [
    ...(draft.header.trim() ? [{ type: 'HEADER', format: 'TEXT', text: draft.header }] : []),
    {
      type: 'BODY',
      text: draft.body,
      ...(body.length ? { example: { body_text: [body.map((number) => draft.samples[number] ?? '')] } } : {}),
    },
    ...(draft.footer.trim() ? [{ type: 'FOOTER', text: draft.footer }] : []),
    ...(draft.buttons.length
      ? [
          {
            type: 'BUTTONS',
            buttons: draft.buttons.map((button) =>
              button.type === 'URL'
                ? { type: 'URL', text: button.text, url: button.value }
                : button.type === 'PHONE_NUMBER'
                  ? { type: 'PHONE_NUMBER', text: button.text, phone_number: button.value }
                  : { type: 'QUICK_REPLY', text: button.text },
            ),
          },
        ]
      : []),
  ];
}

function PhonePreview({ draft }: { draft: Draft }) {
  return (
    <figure class="card phone-preview" aria-label="Phone preview">
      <div class="bubble" data-testid="preview">
        {draft.header ? <strong>{draft.header}</strong> : null}
        <p>{filled(draft.body, draft.samples) || 'The body appears here.'}</p>
        {draft.footer ? <small>{draft.footer}</small> : null}
        {draft.buttons.map((button, index) => (
          <div class="preview-button" key={index}>
            {button.text || button.type}
          </div>
        ))}
      </div>
    </figure>
  );
}

function Builder({ onCreated }: { onCreated: () => void }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [creating, create] = useMutation<{ templateCreate: { id: string; status: string } }>(CREATE);
  const [submitted, setSubmitted] = useState('');
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const setButton = (index: number, change: Partial<ButtonDraft>) =>
    set({ buttons: draft.buttons.map((button, at) => (at === index ? { ...button, ...change } : button)) });
  return (
    <div class="template-builder">
      <form
        class="card"
        aria-label="New template"
        onSubmit={(event) => {
          event.preventDefault();
          const { name, language, category } = draft;
          void create({ name, language, category, components: componentsOf(draft) }).then((answer) => {
            // A refused template answers data with a null field beside its error: only a created one is submitted.
            if (answer.data?.templateCreate) {
              setSubmitted(`${name} was submitted for review.`);
              setDraft(EMPTY);
              onCreated();
            }
          });
        }}
      >
        <h2>New template</h2>
        <Field
          label="Name"
          value={draft.name}
          required
          hint="Lowercase letters, digits and underscores."
          onInput={(e) => set({ name: e.currentTarget.value })}
        />
        <Field label="Language" value={draft.language} required onInput={(e) => set({ language: e.currentTarget.value })} />
        <div class="field">
          <label for="template-category">Category</label>
          <select id="template-category" value={draft.category} onChange={(e) => set({ category: e.currentTarget.value })}>
            <option value="UTILITY">Utility</option>
            <option value="MARKETING">Marketing</option>
            <option value="AUTHENTICATION">Authentication</option>
          </select>
        </div>
        <Field label="Header (optional)" value={draft.header} onInput={(e) => set({ header: e.currentTarget.value })} />
        <div class="field">
          <label for="template-body">Body</label>
          <textarea
            id="template-body"
            required
            rows={4}
            value={draft.body}
            aria-describedby="template-body-hint"
            onInput={(e) => set({ body: e.currentTarget.value })}
          />
          <small id="template-body-hint" class="hint">
            Parameters are {'{{1}}'}, {'{{2}}'}…; the body may not start or end with one.
          </small>
        </div>
        {parameters(draft.body).map((number) => (
          <Field
            key={number}
            label={`Sample for {{${number}}}`}
            value={draft.samples[number] ?? ''}
            onInput={(e) => set({ samples: { ...draft.samples, [number]: e.currentTarget.value } })}
          />
        ))}
        <Field label="Footer (optional)" value={draft.footer} onInput={(e) => set({ footer: e.currentTarget.value })} />
        <fieldset>
          <legend>Buttons</legend>
          {draft.buttons.map((button, index) => (
            <div class="button-draft" key={index}>
              <div class="field">
                <label for={`button-type-${index}`}>Button {index + 1} type</label>
                <select
                  id={`button-type-${index}`}
                  value={button.type}
                  onChange={(e) => setButton(index, { type: e.currentTarget.value as ButtonDraft['type'] })}
                >
                  <option value="QUICK_REPLY">Quick reply</option>
                  <option value="URL">Link</option>
                  <option value="PHONE_NUMBER">Phone call</option>
                </select>
              </div>
              <Field
                label={`Button ${index + 1} label`}
                value={button.text}
                onInput={(e) => setButton(index, { text: e.currentTarget.value })}
              />
              {button.type !== 'QUICK_REPLY' ? (
                <Field
                  label={button.type === 'URL' ? `Button ${index + 1} URL` : `Button ${index + 1} phone number`}
                  value={button.value}
                  onInput={(e) => setButton(index, { value: e.currentTarget.value })}
                />
              ) : null}
              <button type="button" class="link" onClick={() => set({ buttons: draft.buttons.filter((_, at) => at !== index) })}>
                Remove button {index + 1}
              </button>
            </div>
          ))}
          <button type="button" onClick={() => set({ buttons: [...draft.buttons, { type: 'QUICK_REPLY', text: '', value: '' }] })}>
            Add a button
          </button>
        </fieldset>
        <ErrorNote error={creating.error} />
        {submitted ? <p role="status">{submitted}</p> : null}
        <Button type="submit" busy={creating.fetching}>
          Submit for review
        </Button>
      </form>
      <PhonePreview draft={draft} />
    </div>
  );
}

export function TemplatesPage() {
  const [listed, refresh] = useQuery<{ templates: { templates: Listed[] } }>({ query: LIST });
  const templates = listed.data?.templates.templates;
  return (
    <Page title="Templates">
      <Builder onCreated={() => refresh({ requestPolicy: 'network-only' })} />
      <button type="button" onClick={() => refresh({ requestPolicy: 'network-only' })}>
        Refresh statuses
      </button>
      <ErrorNote error={listed.error} />
      <EmptyNote items={templates}>No templates yet — write one above.</EmptyNote>
      {templates?.length ? (
        <ListTable label="Templates" columns={['Name', 'Language', 'Category', 'Status', 'Why']}>
          {templates.map((template) => (
            <tr key={template.id} data-testid="template-row">
              <td>{template.name}</td>
              <td>{template.language}</td>
              <td>{template.category}</td>
              <td data-status={template.status}>{template.status}</td>
              <td>
                {template.status === 'REJECTED'
                  ? `Rejected: ${template.rejected_reason ?? 'no reason given'}`
                  : (template.quality_score?.score ?? '')}
              </td>
            </tr>
          ))}
        </ListTable>
      ) : null}
    </Page>
  );
}

// The reply box: free text while the 24-hour window is open (with its time left), and once it has closed the
// approved templates with a form for their parameters, as WhatsApp allows only templates outside the window.
import { useEffect, useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, ErrorNote } from '../../ui.js';

type Template = { id: string; name: string; language: string; components: { type: string; format: string | null; text: string | null }[] };

const SEND = gql`
  mutation Reply($conversation_id: ID!, $body: String, $template: TemplateSendInput) {
    messageSend(conversation_id: $conversation_id, body: $body, template: $template) {
      message {
        id
        status
      }
    }
  }
`;
const TEMPLATES = gql`
  query ApprovedTemplates {
    templates(status: "APPROVED") {
      templates {
        id
        name
        language
        components {
          type
          format
          text
        }
      }
    }
  }
`;

/** The {{1}} or {{first_name}} placeholders of a text, each once, in reading order. */
export function placeholders(text: string | null | undefined): string[] {
  return [...new Set([...(text ?? '').matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1]!))];
}

function timeLeft(closesAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((Date.parse(closesAt) - now) / 60_000));
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function ReplyBox({
  conversationId,
  window: messagingWindow,
  onSent,
}: {
  conversationId: string;
  window: { open: boolean; closes_at: string | null };
  onSent: () => void;
}) {
  const now = useNow();
  const open = messagingWindow.open && messagingWindow.closes_at !== null && Date.parse(messagingWindow.closes_at) > now;
  return open ? (
    <FreeText conversationId={conversationId} closesAt={messagingWindow.closes_at!} now={now} onSent={onSent} />
  ) : (
    <TemplateReply conversationId={conversationId} onSent={onSent} />
  );
}

function FreeText({
  conversationId,
  closesAt,
  now,
  onSent,
}: {
  conversationId: string;
  closesAt: string;
  now: number;
  onSent: () => void;
}) {
  const [body, setBody] = useState('');
  const [sending, send] = useMutation(SEND);
  return (
    <form
      class="reply"
      onSubmit={(event) => {
        event.preventDefault();
        void send({ conversation_id: conversationId, body }).then((answer) => {
          if (!answer.error) setBody('');
          onSent();
        });
      }}
    >
      <label for="reply-body">
        Reply <small class="window-left">The 24-hour window closes in {timeLeft(closesAt, now)}.</small>
      </label>
      <textarea id="reply-body" value={body} onInput={(event) => setBody(event.currentTarget.value)} required rows={3} maxLength={4096} />
      <ErrorNote error={sending.error} />
      <Button type="submit" busy={sending.fetching}>
        Send
      </Button>
    </form>
  );
}

function TemplateReply({ conversationId, onSent }: { conversationId: string; onSent: () => void }) {
  const [listed] = useQuery<{ templates: { templates: Template[] } }>({ query: TEMPLATES });
  const [sending, send] = useMutation(SEND);
  const [chosenId, setChosenId] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const templates = listed.data?.templates.templates ?? [];
  const chosen = templates.find((template) => template.id === chosenId);
  const component = (type: string) => chosen?.components.find((candidate) => candidate.type === type);
  const names = placeholders(component('BODY')?.text);
  const positional = names.every((name) => /^\d+$/.test(name));
  // A text header has at most one variable; media headers are not offered here.
  const headerName = component('HEADER')?.format === 'TEXT' ? placeholders(component('HEADER')?.text)[0] : undefined;
  const fields = [
    ...(headerName ? [{ key: `header:${headerName}`, label: `Header {{${headerName}}}` }] : []),
    ...names.map((name) => ({ key: name, label: `{{${name}}}` })),
  ];
  return (
    <form
      class="reply"
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosen) return;
        const body = positional
          ? names.map((name) => values[name] ?? '')
          : Object.fromEntries(names.map((name) => [name, values[name] ?? '']));
        const header = headerName ? { header: values[`header:${headerName}`] ?? '' } : {};
        void send({
          conversation_id: conversationId,
          template: { name: chosen.name, language: chosen.language, ...header, ...(names.length ? { body } : {}) },
        }).then((answer) => {
          if (!answer.error) setValues({});
          onSent();
        });
      }}
    >
      <p class="window-closed">The 24-hour window is closed: WhatsApp lets a business write first only with an approved template.</p>
      <label for="template-choice">Template</label>
      <select id="template-choice" value={chosenId} onChange={(event) => setChosenId(event.currentTarget.value)} required>
        <option value="">Choose a template</option>
        {templates.map((template) => (
          <option key={template.id} value={template.id}>
            {template.name} ({template.language})
          </option>
        ))}
      </select>
      {chosen ? (
        <p class="template-preview">
          {[component('HEADER')?.text, component('BODY')?.text, component('FOOTER')?.text].filter(Boolean).join('\n\n')}
        </p>
      ) : null}
      {fields.map((field) => (
        <div class="field" key={field.key}>
          <label for={`parameter-${field.key}`}>{field.label}</label>
          <input
            id={`parameter-${field.key}`}
            value={values[field.key] ?? ''}
            required
            onInput={(event) => setValues({ ...values, [field.key]: event.currentTarget.value })}
          />
        </div>
      ))}
      <ErrorNote error={listed.error ?? sending.error} />
      <Button type="submit" busy={sending.fetching} disabled={!chosen}>
        Send template
      </Button>
    </form>
  );
}

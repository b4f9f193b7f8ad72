// Small pieces every page uses: labelled fields, buttons that show they are busy, error notes read out by
// screen readers, times, copy-to-clipboard, status ticks, and the searchable list beside a record.
import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { CombinedError } from '@urql/core';
import { AuthError } from './session.js';

/** A form's fields by name as text (a chosen file by its name: the file itself is read from the form's FormData). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries(
    [...new FormData(form).entries()].map(([name, value]) => [name, typeof value === 'string' ? value : value.name]),
  );
}

/** The values of the checked boxes named `name`. */
export function checkedValues(form: HTMLFormElement, name: string): string[] {
  return new FormData(form).getAll(name).filter((value): value is string => typeof value === 'string');
}

/** The message a person should read for a failed call, with the field details the API gave. */
export function errorText(error: unknown): string {
  if (!error) return '';
  if (error instanceof AuthError) return detailed(error.error.message, error.error.details);
  const combined = error as CombinedError;
  const first = combined.graphQLErrors?.[0];
  if (first) return detailed(first.message, first.extensions?.['details'] as Record<string, unknown> | undefined);
  if (combined.networkError) return networkErrorText(combined.response as Response | undefined);
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Something went wrong.';
}

/** A refused request (the rate limit's 429 answers before GraphQL runs) is not a lost connection: say which it is. */
function networkErrorText(response: Response | undefined): string {
  if (response?.status !== 429) return 'The service could not be reached. Check the connection and try again.';
  return `Too many requests from this session in the last minute; try again in ${response.headers.get('retry-after') ?? 'a few'} seconds.`;
}

function detailed(message: string, details: Record<string, unknown> | undefined): string {
  if (!details) return message;
  const reasons = Object.entries(details)
    .filter(([field]) => field !== 'setup_required')
    .map(([field, reason]) => `${field.replace(/_/g, ' ')} ${String(reason)}`);
  return reasons.length > 0 ? `${message}: ${reasons.join('; ')}` : message;
}

export function ErrorNote({ error }: { error: unknown }) {
  const text = errorText(error);
  return text ? (
    <p class="error" role="alert">
      {text}
    </p>
  ) : null;
}

type FieldProps = { label: string; hint?: string } & JSX.InputHTMLAttributes<HTMLInputElement>;

let fieldCounter = 0;

export function Field({ label, hint, id, ...input }: FieldProps) {
  const [fieldId] = useState(() => (typeof id === 'string' ? id : `field-${++fieldCounter}`));
  return (
    <div class="field">
      <label for={fieldId}>{label}</label>
      <input id={fieldId} {...input} aria-describedby={hint ? `${fieldId}-hint` : undefined} />
      {hint ? (
        <small id={`${fieldId}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

export function Button({
  busy,
  children,
  ...props
}: { busy?: boolean; children: ComponentChildren } & JSX.ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button {...props} disabled={Boolean(busy) || Boolean(props.disabled)} aria-busy={busy ? 'true' : undefined}>
      {children}
    </button>
  );
}

/** A delete that asks once more: "Delete…" turns into the button that deletes, named by what it deletes. */
export function ConfirmedDelete({
  confirmLabel,
  busy,
  onDelete,
}: {
  confirmLabel: ComponentChildren;
  busy: boolean;
  onDelete: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  return confirming ? (
    <Button type="button" busy={busy} onClick={onDelete}>
      {confirmLabel}
    </Button>
  ) : (
    <button type="button" onClick={() => setConfirming(true)}>
      Delete…
    </button>
  );
}

export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span>never</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={date.toLocaleString()}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}

/** A secret shown once, with a button that copies it. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="shown-once" role="status">
      <p>
        <strong>{label}</strong> Copy it now: it is not shown again.
      </p>
      <code data-testid="secret">{value}</code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(() => setCopied(true));
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

const TICKS: Record<string, { mark: string; label: string }> = {
  queued: { mark: '🕓', label: 'Queued' },
  sending: { mark: '🕓', label: 'Sending' },
  sent: { mark: '✓', label: 'Sent' },
  delivered: { mark: '✓✓', label: 'Delivered' },
  read: { mark: '✓✓', label: 'Read' },
  failed: { mark: '⚠', label: 'Failed' },
};

export function StatusTicks({ status }: { status: string }) {
  const tick = TICKS[status] ?? { mark: '·', label: status };
  return (
    <span class={`ticks ticks-${status}`} data-status={status} aria-label={tick.label} title={tick.label}>
      {tick.mark}
    </span>
  );
}

/** What an empty list says: what to do next. Shown once the list is loaded (`items` defined) and has nothing. */
export function EmptyNote({ items, children }: { items: readonly unknown[] | undefined; children: ComponentChildren }) {
  return items && items.length === 0 ? <p class="empty">{children}</p> : null;
}

/** A labelled table of records; an empty column name is an actions column, named for screen readers only. */
export function ListTable({ label, columns, children }: { label: string; columns: readonly string[]; children: ComponentChildren }) {
  return (
    <table class="list" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column || <span class="visually-hidden">Actions</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

export function Page({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-header">
        <h1 id="page-title">{title}</h1>
        {actions}
      </header>
      {children}
    </section>
  );
}

type SearchListProps = {
  /** The list's accessible name (Contacts, Conversations). */
  label: string;
  search: string;
  onSearch: (text: string) => void;
  placeholder: string;
  /** The page's own filters, after the search box. */
  filters?: ComponentChildren;
  error: unknown;
  /** What shows above the rows, for example that there are none. */
  note?: ComponentChildren;
  /** The rows: <li> elements. */
  children: ComponentChildren;
  /** What follows the rows, for example a form that adds one. */
  footer?: ComponentChildren;
  /** The selected record's view, or null for the placeholder. */
  detail: ComponentChildren | null;
  placeholderText: string;
};

/** A searchable list beside the record chosen from it: the search form (with the page's filters), the list's
 * error, its rows, and the record or a placeholder. The contacts and the inbox pages are both this. */
export function SearchList(props: SearchListProps) {
  return (
    <div class={`inbox ${props.detail ? 'has-selection' : ''}`}>
      <section class="conversation-list" aria-label={props.label}>
        <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
          <label>
            Search
            <input
              type="search"
              value={props.search}
              onInput={(event) => props.onSearch(event.currentTarget.value)}
              placeholder={props.placeholder}
            />
          </label>
          {props.filters}
        </form>
        <ErrorNote error={props.error} />
        {props.note}
        <ul class="rows">{props.children}</ul>
        {props.footer}
      </section>
      {props.detail ?? <p class="placeholder">{props.placeholderText}</p>}
    </div>
  );
}

// The inbox: conversations by status, assignee and search with each person's unread count, and the open
// conversation's transcript (media, replies, status ticks, the AI agent's runs) with its reply box, assignment,
// close/reopen, the AI-agent switch and notes. One subscription keeps both live without a reload.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { gql } from '@urql/core';
import { useMutation, useQuery, useSubscription } from '@urql/preact';
import { session } from '../../session.js';
import { Button, ErrorNote, Page, SearchList, StatusTicks, Time } from '../../ui.js';
import { ReplyBox } from './reply.js';
import { SimulateInbound } from './simulate.js';

type ConversationRow = {
  id: string;
  status: string;
  unread_count: number;
  assigned_user_id: string | null;
  last_message_at: string | null;
  customer: { id: string; name: string | null; phone_number: string | null };
  last_message: { body: string; direction: string; type: string } | null;
};
type User = { id: string; name: string | null; email: string; status: string };

const ROW = `id status unread_count assigned_user_id last_message_at customer { id name phone_number } last_message { body direction type }`;
const LIST = gql`
  query Inbox($status: String, $assigned_user_id: ID) {
    conversations(status: $status, assigned_user_id: $assigned_user_id, limit: 50) { data { ${ROW} } }
    users { id name email status }
  }
`;
const SEARCH = gql`
  query InboxSearch($q: String!) {
    conversationSearch(q: $q, limit: 50) { data { ${ROW} } }
    users { id name email status }
  }
`;
// One stream for the whole page: conversationChanged carries every event about a conversation (its messages, their
// statuses, its own changes), so the list and the open conversation both follow it.
const ANY_CONVERSATION_CHANGE = gql`
  subscription InboxConversationsLive {
    conversationChanged {
      id
      conversation_id
    }
  }
`;

export function personName(users: readonly User[] | undefined, id: string | null | undefined): string {
  if (!id) return 'Unassigned';
  const user = users?.find((candidate) => candidate.id === id);
  return user ? (user.name ?? user.email) : 'Someone';
}

export function InboxPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const [status, setStatus] = useState('active');
  const [assignee, setAssignee] = useState('');
  const [search, setSearch] = useState('');
  const searching = search.trim().length > 0;
  const me = session.value?.user.id ?? '';
  const [listed, refresh] = useQuery<{
    conversations?: { data: ConversationRow[] };
    conversationSearch?: { data: ConversationRow[] };
    users: User[];
  }>({
    query: searching ? SEARCH : LIST,
    variables: searching ? { q: search.trim() } : { status: status || null, assigned_user_id: assignee === 'me' ? me : assignee || null },
  });
  const refetch = () => refresh({ requestPolicy: 'network-only' });
  const selected = params['id'];
  // The live changes of the open conversation, which reads itself again on each; the handler sees the open one by ref.
  const [openChanges, setOpenChanges] = useState(0);
  const open = useRef(selected);
  open.current = selected;
  useSubscription(
    { query: ANY_CONVERSATION_CHANGE },
    (_previous: unknown, event: { conversationChanged: { conversation_id: string | null } }) => {
      refetch();
      if (event.conversationChanged.conversation_id === open.current) setOpenChanges((count) => count + 1);
      return event;
    },
  );
  const rows = listed.data?.conversations?.data ?? listed.data?.conversationSearch?.data ?? [];
  const users = listed.data?.users;

  return (
    <Page title="Inbox">
      <SearchList
        label="Conversations"
        search={search}
        onSearch={setSearch}
        placeholder="Name, phone, e-mail or words"
        error={listed.error}
        note={
          rows.length === 0 && !listed.fetching ? (
            <p class="empty">No conversations here. On the sandbox, simulate a customer message below to see one arrive.</p>
          ) : null
        }
        footer={
          <details class="simulate-box">
            <summary>Simulate a customer message</summary>
            <SimulateInbound />
          </details>
        }
        detail={
          selected ? (
            <Conversation id={selected} changes={openChanges} users={users ?? []} onBack={() => route('/inbox')} onChange={refetch} />
          ) : null
        }
        placeholderText="Choose a conversation."
        filters={
          <>
            <label>
              Status
              <select value={status} onChange={(event) => setStatus(event.currentTarget.value)} disabled={searching}>
                <option value="active">Open</option>
                <option value="pending">Pending</option>
                <option value="closed">Closed</option>
                <option value="">All</option>
              </select>
            </label>
            <label>
              Assignee
              <select value={assignee} onChange={(event) => setAssignee(event.currentTarget.value)} disabled={searching}>
                <option value="">Anyone</option>
                <option value="me">Me</option>
                {users
                  ?.filter((user) => user.status === 'active' && user.id !== me)
                  .map((user) => (
                    <option value={user.id} key={user.id}>
                      {user.name ?? user.email}
                    </option>
                  ))}
              </select>
            </label>
          </>
        }
      >
        {rows.map((row) => (
          <li key={row.id}>
            <a
              href={`/inbox/${row.id}`}
              class={`row ${row.id === selected ? 'selected' : ''} ${row.unread_count > 0 ? 'unread' : ''}`}
              aria-current={row.id === selected ? 'true' : undefined}
              data-testid="conversation-row"
            >
              <span class="row-title">{row.customer.name ?? row.customer.phone_number ?? 'Unknown contact'}</span>
              {row.unread_count > 0 ? (
                <span class="badge" aria-label={`${row.unread_count} unread`}>
                  {row.unread_count >= 100 ? '99+' : row.unread_count}
                </span>
              ) : null}
              <span class="row-preview">{row.last_message?.body || row.last_message?.type || 'No messages yet'}</span>
              <span class="row-meta">
                {personName(users, row.assigned_user_id)} · <Time value={row.last_message_at} />
              </span>
            </a>
          </li>
        ))}
      </SearchList>
    </Page>
  );
}

type Message = {
  id: string;
  body: string;
  type: string;
  direction: string;
  status: string;
  created_at: string;
  reply_to_message_id: string | null;
  sender: { type: string; id: string | null };
  media: { id: string | null; mime_type: string | null; filename: string | null; caption: string | null; size: number | null } | null;
  location: { latitude: number; longitude: number; name: string | null; address: string | null } | null;
  contacts: { name: string | null; phones: { phone: string | null }[]; emails: { email: string }[]; organization: string | null }[] | null;
  reply: { kind: string; id: string | null; title: string | null } | null;
  error: { title: string | null; details: string | null } | null;
  template: { name: string; language: string } | null;
};
type AgentRun = {
  id: string;
  status: string;
  kind: string | null;
  message_id: string;
  reply_message_id: string | null;
  handoff_reason: string | null;
  latency_ms: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  passages: { title?: string; text?: string; rank?: number }[] | null;
  tool_calls: { name?: string; arguments?: unknown; result?: unknown }[] | null;
  error: string | null;
};
type ConversationDetail = {
  id: string;
  status: string;
  service_enabled: boolean;
  assigned_user_id: string | null;
  customer: { id: string; name: string | null; phone_number: string | null; wa_id: string | null };
  messaging_window: { open: boolean; closes_at: string | null };
};

const MESSAGE = `id body type direction status created_at reply_to_message_id sender { type id } media { id mime_type filename caption size }
  location { latitude longitude name address } contacts { name phones { phone } emails { email } organization } reply { kind id title }
  error { title details } template { name language }`;
const CONVERSATION = gql`
  query Conversation($id: ID!) {
    conversation(id: $id) { id status service_enabled assigned_user_id customer { id name phone_number wa_id } messaging_window { open closes_at } }
    conversationMessages(conversation_id: $id, limit: 100) { data { ${MESSAGE} } }
    conversationNotes(conversation_id: $id, limit: 50) { data { id body author_user_id created_at } }
    agentRuns(conversation_id: $id, limit: 50) { data { id status kind message_id reply_message_id handoff_reason latency_ms prompt_tokens completion_tokens passages tool_calls error } }
  }
`;
const MARK_READ = gql`
  mutation MarkRead($id: ID!) {
    conversationMarkRead(id: $id) {
      id
      unread_count
    }
  }
`;
const UPDATE = gql`
  mutation UpdateConversation($id: ID!, $assigned_user_id: ID, $service_enabled: Boolean) {
    conversationUpdate(id: $id, assigned_user_id: $assigned_user_id, service_enabled: $service_enabled) {
      id
      assigned_user_id
      service_enabled
    }
  }
`;
const CLOSE = gql`
  mutation Close($id: ID!) {
    conversationClose(id: $id) {
      id
      status
    }
  }
`;
const REOPEN = gql`
  mutation Reopen($id: ID!) {
    conversationReopen(id: $id) {
      id
      status
    }
  }
`;
const ADD_NOTE = gql`
  mutation AddNote($id: ID!, $body: String!) {
    conversationNoteCreate(conversation_id: $id, body: $body) {
      id
    }
  }
`;

type ConversationProps = { id: string; changes: number; users: User[]; onBack: () => void; onChange: () => void };

/** The open conversation; `changes` counts the live changes the inbox saw for the open conversation, each read again
 * here (those before this view opened are in its first answer). */
function Conversation({ id, changes, users, onBack, onChange }: ConversationProps) {
  const [result, refresh] = useQuery<{
    conversation: ConversationDetail | null;
    conversationMessages: { data: Message[] };
    conversationNotes: { data: { id: string; body: string; author_user_id: string | null; created_at: string }[] };
    agentRuns: { data: AgentRun[] };
  }>({ query: CONVERSATION, variables: { id } });
  const refetch = () => refresh({ requestPolicy: 'network-only' });
  const [, markRead] = useMutation(MARK_READ);
  const [updating, update] = useMutation(UPDATE);
  const [closing, close] = useMutation(CLOSE);
  const [reopening, reopen] = useMutation(REOPEN);
  const [noting, addNote] = useMutation(ADD_NOTE);
  const [note, setNote] = useState('');
  // The switch shows the person's choice at once, not the stored value, while the change is on its way.
  const [switching, setSwitching] = useState<boolean | null>(null);
  const [changesAtOpen] = useState(changes);
  useEffect(() => {
    if (changes !== changesAtOpen) refetch();
  }, [changes]);

  const messages = useMemo(() => [...(result.data?.conversationMessages.data ?? [])].reverse(), [result.data]);
  const newestInbound = messages.filter((message) => message.direction === 'inbound').at(-1)?.id;
  useEffect(() => {
    if (!result.data?.conversation) return;
    void markRead({ id }).then(onChange);
  }, [id, newestInbound, Boolean(result.data?.conversation)]);

  const conversation = result.data?.conversation;
  if (!conversation) {
    return (
      <section class="transcript" aria-label="Conversation">
        <ErrorNote error={result.error} />
        {result.fetching ? <p class="loading">Loading…</p> : null}
      </section>
    );
  }
  const runs = result.data?.agentRuns.data ?? [];
  const byId = new Map(messages.map((message) => [message.id, message]));
  const contactName = conversation.customer.name ?? conversation.customer.phone_number ?? 'Unknown contact';
  const failure = updating.error ?? closing.error ?? reopening.error ?? noting.error;

  return (
    <section class="transcript" aria-label={`Conversation with ${contactName}`}>
      <header class="transcript-header">
        <button type="button" class="back link" onClick={onBack}>
          ← Conversations
        </button>
        <h2>
          <a href={`/contacts/${conversation.customer.id}`}>{contactName}</a>{' '}
          <small>{conversation.customer.phone_number ?? conversation.customer.wa_id ?? ''}</small>
        </h2>
        <div class="actions">
          <label>
            Assignee
            <select
              value={conversation.assigned_user_id ?? ''}
              onChange={(event) => void update({ id, assigned_user_id: event.currentTarget.value || null }).then(onChange)}
            >
              <option value="">Unassigned</option>
              {users
                .filter((user) => user.status === 'active')
                .map((user) => (
                  <option value={user.id} key={user.id}>
                    {user.name ?? user.email}
                  </option>
                ))}
            </select>
          </label>
          <label class="switch">
            <input
              type="checkbox"
              role="switch"
              checked={switching ?? conversation.service_enabled}
              aria-checked={switching ?? conversation.service_enabled}
              onChange={(event) => {
                const wanted = event.currentTarget.checked;
                setSwitching(wanted);
                void update({ id, service_enabled: wanted }).then(() => {
                  setSwitching(null);
                  refetch();
                });
              }}
            />
            AI agent answers
          </label>
          {conversation.status === 'closed' ? (
            <Button type="button" busy={reopening.fetching} onClick={() => void reopen({ id }).then(onChange)}>
              Reopen
            </Button>
          ) : (
            <Button type="button" busy={closing.fetching} onClick={() => void close({ id }).then(onChange)}>
              Close
            </Button>
          )}
        </div>
      </header>
      <ErrorNote error={failure} />
      <ol class="messages" aria-label="Messages" aria-live="polite">
        {messages.map((message) => (
          <MessageItem
            key={message.id}
            message={message}
            replyTo={message.reply_to_message_id ? byId.get(message.reply_to_message_id) : undefined}
            run={runs.find((run) => run.reply_message_id === message.id)}
          />
        ))}
      </ol>
      <AgentHandoffs runs={runs} />
      <ReplyBox conversationId={id} window={conversation.messaging_window} onSent={refetch} />
      <details class="notes">
        <summary>Notes ({result.data?.conversationNotes.data.length ?? 0})</summary>
        <ul>
          {result.data?.conversationNotes.data.map((entry) => (
            <li key={entry.id}>
              <p>{entry.body}</p>
              <small>
                {personName(users, entry.author_user_id)} · <Time value={entry.created_at} />
              </small>
            </li>
          ))}
        </ul>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void addNote({ id, body: note }).then((answer) => {
              if (!answer.error) setNote('');
              refetch();
            });
          }}
        >
          <label for="note-body">New note (only the team sees it)</label>
          <textarea id="note-body" value={note} onInput={(event) => setNote(event.currentTarget.value)} required rows={2} />
          <Button type="submit" busy={noting.fetching}>
            Add note
          </Button>
        </form>
      </details>
    </section>
  );
}

const SENDERS: Record<string, string> = { contact: 'Contact', user: 'Team', api_key: 'API', agent: 'AI agent', campaign: 'Campaign' };

function MessageItem({ message, replyTo, run }: { message: Message; replyTo: Message | undefined; run: AgentRun | undefined }) {
  const outbound = message.direction === 'outbound';
  return (
    <li class={`message ${outbound ? 'outbound' : 'inbound'}`} data-testid="message" data-message-id={message.id}>
      {replyTo ? <blockquote class="reply-to">↩ {replyTo.body || replyTo.type}</blockquote> : null}
      {message.media ? <MediaNote media={message.media} type={message.type} messageId={message.id} /> : null}
      {message.location ? <LocationNote location={message.location} /> : null}
      {message.contacts?.map((card, index) => (
        <ContactCardNote key={index} card={card} />
      ))}
      {message.body && !message.location && !message.contacts ? <p class="body">{message.body}</p> : null}
      {message.reply?.id ? <p class="reply-id">Chose option {message.reply.id}</p> : null}
      {message.template ? (
        <p class="template-note">
          Template {message.template.name} ({message.template.language})
        </p>
      ) : null}
      <footer>
        <span class="sender">{SENDERS[message.sender.type] ?? message.sender.type}</span> · <Time value={message.created_at} />
        {outbound ? <StatusTicks status={message.status} /> : null}
        {message.error ? <span class="error-note"> {message.error.title ?? message.error.details}</span> : null}
      </footer>
      {run ? <AgentRunDetails run={run} /> : null}
    </li>
  );
}

/** The file route of a message's media; the console may read it with its session (GET only). */
function mediaUrl(messageId: string): string {
  return `/api/v1/messages/${messageId}/media`;
}

function MediaNote({ media, type, messageId }: { media: NonNullable<Message['media']>; type: string; messageId: string }) {
  const label = media.filename ?? `${type}${media.mime_type ? ` (${media.mime_type})` : ''}`;
  const size = media.size ? ` · ${Math.ceil(media.size / 1024)} KB` : '';
  const url = mediaUrl(messageId);
  const kind = media.mime_type?.split('/')[0];
  return (
    <div class="media" data-message={messageId}>
      {media.id && kind === 'image' ? <img src={url} alt={media.caption ?? `${type} from the conversation`} loading="lazy" /> : null}
      {media.id && kind === 'audio' ? <audio controls preload="none" src={url} aria-label={label} /> : null}
      {media.id && kind === 'video' ? <video controls preload="none" src={url} aria-label={label} /> : null}
      <p>
        📎{' '}
        {media.id ? (
          <a href={url} download={media.filename ?? undefined}>
            {label}
          </a>
        ) : (
          label
        )}
        {size}
        {media.caption ? <span class="caption"> — {media.caption}</span> : null}
      </p>
    </div>
  );
}

function LocationNote({ location }: { location: NonNullable<Message['location']> }) {
  const place = [location.name, location.address].filter(Boolean).join(', ');
  return (
    <p class="location">
      📍 {place ? `${place} ` : ''}({location.latitude}, {location.longitude})
    </p>
  );
}

function ContactCardNote({ card }: { card: NonNullable<Message['contacts']>[number] }) {
  const reach = [...card.phones.map((phone) => phone.phone), ...card.emails.map((email) => email.email)].filter(Boolean).join(' · ');
  return (
    <p class="contact-card">
      👤 {card.name ?? 'A contact'}
      {card.organization ? ` (${card.organization})` : ''}
      {reach ? ` — ${reach}` : ''}
    </p>
  );
}

function AgentRunDetails({ run }: { run: AgentRun }) {
  return (
    <details class="agent-run" data-testid="agent-run">
      <summary>
        AI agent ({run.kind ?? 'agent'}): {run.status}
        {run.latency_ms !== null ? `, ${run.latency_ms} ms` : ''}
        {run.prompt_tokens + run.completion_tokens > 0 ? `, ${run.prompt_tokens + run.completion_tokens} tokens` : ''}
      </summary>
      {run.passages?.length ? (
        <ul aria-label="Knowledge passages used">
          {run.passages.map((passage, index) => (
            <li key={index}>
              <strong>{passage.title}</strong> {passage.rank !== undefined ? `(rank ${passage.rank.toFixed(2)})` : ''}: {passage.text}
            </li>
          ))}
        </ul>
      ) : null}
      {run.tool_calls?.length ? (
        <ul aria-label="Tool calls">
          {run.tool_calls.map((call, index) => (
            <li key={index}>
              <code>{call.name}</code> {JSON.stringify(call.arguments)} → {JSON.stringify(call.result)}
            </li>
          ))}
        </ul>
      ) : null}
      {run.error ? <p class="error">{run.error}</p> : null}
    </details>
  );
}

function AgentHandoffs({ runs }: { runs: AgentRun[] }) {
  const handoffs = runs.filter((run) => run.status === 'handed_off');
  if (handoffs.length === 0) return null;
  return (
    <ul class="handoffs" aria-label="AI agent hand-offs">
      {handoffs.map((run) => (
        <li key={run.id}>
          The AI agent handed this conversation to the team: {run.handoff_reason ?? 'no reason given'}.
          <AgentRunDetails run={run} />
        </li>
      ))}
    </ul>
  );
}

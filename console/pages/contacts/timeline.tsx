// A contact's whole story on its page (contactTimeline): conversations, campaigns received, appointments, consent
// changes, notes and tags, newest first. Each page of the list is its own query; "Show older" adds the next page
// below, from the last page's next_cursor.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useQuery } from '@urql/preact';
import { Button, EmptyNote, ErrorNote, Time } from '../../ui.js';

type Entry = {
  kind: 'conversation' | 'campaign' | 'appointment' | 'consent' | 'note' | 'tag';
  at: string;
  id: string;
  conversation: { status: string; provider: string } | null;
  campaign: { campaign_id: string; name: string; template_name: string; status: string } | null;
  appointment: { appointment_type_name: string; start_at: string; status: string } | null;
  consent: { status: string; previous_status: string | null; source: string } | null;
  note: { conversation_id: string; author_name: string | null; body: string } | null;
  tag: { name: string } | null;
};
type TimelinePage = { data: Entry[]; next_cursor: string | null; has_more: boolean };

const PAGE_SIZE = 20;
const TIMELINE = gql`
  query ContactTimeline($id: ID!, $limit: Int, $cursor: String) {
    contactTimeline(id: $id, limit: $limit, cursor: $cursor) {
      data {
        kind
        at
        id
        conversation { status provider }
        campaign { campaign_id name template_name status }
        appointment { appointment_type_name start_at status }
        consent { status previous_status source }
        note { conversation_id author_name body }
        tag { name }
      }
      next_cursor
      has_more
    }
  }
`;

const CONSENT_LABELS: Record<string, string> = { opted_in: 'opted in', opted_out: 'opted out', unknown: 'unknown' };
const KIND_LABELS: Record<Entry['kind'], string> = {
  conversation: 'Conversation',
  campaign: 'Campaign',
  appointment: 'Appointment',
  consent: 'Consent',
  note: 'Note',
  tag: 'Tag',
};

function EntryText({ entry }: { entry: Entry }) {
  const { conversation, campaign, appointment, consent, note, tag } = entry;
  if (conversation)
    return (
      <a href={`/inbox/${entry.id}`}>
        Conversation began on {conversation.provider} · {conversation.status}
      </a>
    );
  if (campaign)
    return (
      <a href={`/campaigns/${campaign.campaign_id}`}>
        Campaign “{campaign.name}” ({campaign.template_name}) · {campaign.status}
      </a>
    );
  if (appointment)
    return (
      <span>
        {appointment.appointment_type_name} booked for <Time value={appointment.start_at} /> · {appointment.status}
      </span>
    );
  if (consent)
    return (
      <span>
        Marketing consent {consent.previous_status ? `${CONSENT_LABELS[consent.previous_status] ?? consent.previous_status} → ` : ''}
        {CONSENT_LABELS[consent.status] ?? consent.status} · by {consent.source}
      </span>
    );
  if (note)
    return (
      <a href={`/inbox/${note.conversation_id}`}>
        {note.author_name ?? 'A teammate'} noted: {note.body}
      </a>
    );
  return <span>Tagged “{tag?.name}”</span>;
}

function TimelinePageList({
  id,
  cursor,
  last,
  onMore,
}: {
  id: string;
  cursor: string | null;
  last: boolean;
  onMore: (cursor: string) => void;
}) {
  const [result] = useQuery<{ contactTimeline: TimelinePage }>({ query: TIMELINE, variables: { id, limit: PAGE_SIZE, cursor } });
  const page = result.data?.contactTimeline;
  if (!page) return result.fetching ? <p class="loading">Loading…</p> : <ErrorNote error={result.error} />;
  return (
    <>
      {cursor === null ? <EmptyNote items={page.data}>Nothing has happened with this contact yet.</EmptyNote> : null}
      <ol class="timeline">
        {page.data.map((entry) => (
          <li key={`${entry.kind}.${entry.id}`} data-testid="timeline-entry" data-kind={entry.kind}>
            <span class="timeline-kind">{KIND_LABELS[entry.kind]}</span> <EntryText entry={entry} /> · <Time value={entry.at} />
          </li>
        ))}
      </ol>
      {last && page.next_cursor ? <Button onClick={() => onMore(page.next_cursor!)}>Show older</Button> : null}
    </>
  );
}

export function ContactTimeline({ id }: { id: string }) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return (
    <section aria-label="Timeline">
      <h3>Timeline</h3>
      {cursors.map((cursor, index) => (
        <TimelinePageList
          key={cursor ?? 'first'}
          id={id}
          cursor={cursor}
          last={index === cursors.length - 1}
          onMore={(next) => setCursors([...cursors, next])}
        />
      ))}
    </section>
  );
}

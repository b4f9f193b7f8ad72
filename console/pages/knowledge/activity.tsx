// Knowledge → what the agent used: the documents and FAQs its replies of the last 30 days were drawn from, most used
// first (knowledgeUsage), and its recent replies, each with the sentence or FAQ it answered from and that source's
// document (agentRuns with status replied, newest first, a page at a time).
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useQuery } from '@urql/preact';
import { EmptyNote, ErrorNote, ListTable, Time } from '../../ui.js';

const USAGE_DAYS = 30;
const DAY_MS = 86_400_000;

type Usage = {
  kind: string;
  name: string;
  replies: number;
  last_used_at: string;
  document: { id: string } | null;
  faq: { id: string } | null;
};
type Run = { id: string; conversation_id: string; reply: string | null; answer_source: AnswerSource | null; created_at: string };

/** The run's answer_source as schema/agent/agent.ts describes it. */
type AnswerSource =
  | { kind: 'sentence'; title: string; text: string; score: number }
  | { kind: 'faq'; question: string; score: number }
  | { kind: 'model'; cited: { title: string }[] }
  | { kind: 'no_answer' | 'language'; best_score: number | null };

const USAGE = gql`
  query KnowledgePageUsage($from: DateTime!, $to: DateTime!) {
    knowledgeUsage(from: $from, to: $to, limit: 10) { data { kind name replies last_used_at document { id } faq { id } } }
  }
`;
const RUNS = gql`
  query KnowledgePageRuns($cursor: ID) {
    agentRuns(status: "replied", limit: 10, cursor: $cursor) { data { id conversation_id reply answer_source created_at } next_cursor has_more }
  }
`;

function MostUsed() {
  // Fixed when shown (Refresh shows it anew); it ends tomorrow so that the replies of the day count, whatever the clock.
  const [range] = useState(rangeEndingTomorrow);
  const [usage] = useQuery<{ knowledgeUsage: { data: Usage[] } }>({ query: USAGE, variables: range, requestPolicy: 'network-only' });
  const rows = usage.data?.knowledgeUsage.data;
  return (
    <section aria-labelledby="used-title">
      <h3 id="used-title">Most used in the last {USAGE_DAYS} days</h3>
      {usage.fetching && !rows ? <p class="loading">Loading what the agent used…</p> : null}
      <ErrorNote error={usage.error} />
      <EmptyNote items={rows}>The agent has not answered from the knowledge in the last {USAGE_DAYS} days.</EmptyNote>
      {rows?.length ? (
        <ListTable label="Most used knowledge" columns={['Document or FAQ', 'Kind', 'Replies', 'Last used']}>
          {rows.map((row) => (
            <tr key={`${row.kind}-${row.name}`} data-testid="usage-row">
              <td>
                {row.name}
                {row.document || row.faq ? null : <span class="hint"> (deleted)</span>}
              </td>
              <td>{row.kind === 'faq' ? 'FAQ' : 'Document'}</td>
              <td>{row.replies}</td>
              <td>
                <Time value={row.last_used_at} />
              </td>
            </tr>
          ))}
        </ListTable>
      ) : null}
    </section>
  );
}

function rangeEndingTomorrow() {
  const to = new Date(Date.now() + DAY_MS);
  return { from: new Date(to.getTime() - (USAGE_DAYS + 1) * DAY_MS).toISOString(), to: to.toISOString() };
}

const score = (value: number | null) => (value === null ? 'none' : value.toFixed(2));

function UsedSource({ source }: { source: AnswerSource | null }) {
  if (!source) return <span class="hint">not recorded</span>;
  switch (source.kind) {
    case 'sentence':
      return (
        <>
          Sentence “{source.text}”{' '}
          <span class="hint">
            of the document “{source.title}”, score {score(source.score)}
          </span>
        </>
      );
    case 'faq':
      return (
        <>
          FAQ “{source.question}” <span class="hint">score {score(source.score)}</span>
        </>
      );
    case 'model':
      return <>Model reply citing {source.cited.map((cited) => `“${cited.title}”`).join(', ') || 'no document'}</>;
    default:
      return (
        <>
          No answer in the knowledge <span class="hint">best score {score(source.best_score)}</span>
        </>
      );
  }
}

function RecentReplies() {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1) ?? null;
  const [runs] = useQuery<{ agentRuns: { data: Run[]; next_cursor: string | null; has_more: boolean } }>({
    query: RUNS,
    variables: { cursor },
    requestPolicy: 'network-only',
  });
  const page = runs.data?.agentRuns;
  return (
    <section aria-labelledby="replies-title">
      <h3 id="replies-title">Recent agent replies</h3>
      {runs.fetching && !page ? <p class="loading">Loading the agent's replies…</p> : null}
      <ErrorNote error={runs.error} />
      <EmptyNote items={page?.data}>The agent has not replied yet: it answers conversations whose AI agent switch is on.</EmptyNote>
      {page?.data.length ? (
        <ListTable label="Recent agent replies" columns={['When', 'Reply', 'Answered from', '']}>
          {page.data.map((run) => (
            <tr key={run.id} data-testid="reply-row">
              <td>
                <Time value={run.created_at} />
              </td>
              <td>{run.reply}</td>
              <td>
                <UsedSource source={run.answer_source} />
              </td>
              <td>
                <a href={`/inbox/${run.conversation_id}`}>Open the conversation</a>
              </td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      <div class="actions">
        {cursors.length ? (
          <button type="button" onClick={() => setCursors([])}>
            Newest replies
          </button>
        ) : null}
        {page?.has_more && page.next_cursor ? (
          <button type="button" onClick={() => setCursors([...cursors, page.next_cursor!])}>
            Older replies
          </button>
        ) : null}
      </div>
    </section>
  );
}

export function KnowledgeActivity() {
  const [generation, setGeneration] = useState(0);
  return (
    <section aria-labelledby="activity-title">
      <div class="page-header">
        <h2 id="activity-title">What the agent used</h2>
        <button type="button" onClick={() => setGeneration(generation + 1)}>
          Refresh
        </button>
      </div>
      {/* Refresh shows both anew (newest replies first), asked again rather than read from the cache. */}
      <MostUsed key={`used-${generation}`} />
      <RecentReplies key={`replies-${generation}`} />
    </section>
  );
}

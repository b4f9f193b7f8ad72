// Knowledge → search: a question as a customer would ask it, and the agent's ranking for it (knowledgeSearch): the FAQ
// and sentences in the order the agent would use them, each with its score against the workspace's threshold, the one
// it would answer with marked, and the documents by their best sentence with the question's words highlighted.
import { useEffect, useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useQuery } from '@urql/preact';
import { Button, ErrorNote } from '../../ui.js';

type Search = {
  language: string;
  threshold: number;
  faq: { score: number; faq: { id: string; question: string; answer: string } } | null;
  sentences: { text: string; score: number; document: { id: string; title: string } }[];
  results: { rank: number; snippet: string; document: { id: string; title: string; language: string } }[];
};

const SEARCH = gql`
  query KnowledgePageSearch($q: String!) {
    knowledgeSearch(q: $q, limit: 10) {
      language
      threshold
      faq { score faq { id question answer } }
      sentences { text score document { id title } }
      results { rank snippet document { id title language } }
    }
  }
`;

type Ranked = { key: string; kind: string; text: string; source: string; score: number };

/** The agent matches the FAQ first when it reaches the threshold; else it answers from the best sentence, and the
 * FAQ, which it would not use, comes last. */
function ranking(search: Search): Ranked[] {
  const sentences = search.sentences.map((sentence, index) => ({
    key: `sentence-${index}`,
    kind: 'Sentence',
    text: sentence.text,
    source: `from “${sentence.document.title}”`,
    score: sentence.score,
  }));
  if (!search.faq) return sentences;
  const faq = {
    key: `faq-${search.faq.faq.id}`,
    kind: 'FAQ',
    text: search.faq.faq.answer,
    source: `answer to “${search.faq.faq.question}”`,
    score: search.faq.score,
  };
  return search.faq.score >= search.threshold ? [faq, ...sentences] : [...sentences, faq];
}

/** A snippet's words wrapped in ** (never HTML) shown marked. */
function Snippet({ text }: { text: string }) {
  return <>{text.split('**').map((part, index) => (index % 2 === 1 ? <mark key={index}>{part}</mark> : part))}</>;
}

const score = (value: number) => value.toFixed(2);

function Ranking({ search }: { search: Search }) {
  const ranked = ranking(search);
  const answering = ranked.find((entry) => entry.score >= search.threshold);
  return (
    <div aria-live="polite">
      <p>
        Read as language <strong>{search.language}</strong>; the agent answers at a score of {score(search.threshold)} or more.{' '}
        {answering ? null : 'Nothing reaches it: the agent would say it has no answer, and hand off on a second miss in a row.'}
      </p>
      {ranked.length ? (
        <ol class="ranking" aria-label="The agent's ranking">
          {ranked.map((entry) => (
            <li key={entry.key} data-testid="ranked" class={entry === answering ? 'answering' : undefined}>
              <span class="badge">{entry.kind}</span> {entry.text} <span class="hint">{entry.source}</span>{' '}
              <span class="score">
                score {score(entry.score)}
                {entry === answering ? ' · the agent answers with this' : entry.score < search.threshold ? ' · below the threshold' : ''}
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p class="empty">No FAQ or sentence matches this question.</p>
      )}
      {search.results.length ? (
        <>
          <h3>Documents by their best sentence</h3>
          <ol class="ranking">
            {search.results.map((result) => (
              <li key={result.document.id}>
                <strong>{result.document.title}</strong> ({result.document.language}, score {score(result.rank)}):{' '}
                <Snippet text={result.snippet} />
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </div>
  );
}

export function KnowledgeSearch({ generation }: { generation: number }) {
  const [draft, setDraft] = useState('');
  const [question, setQuestion] = useState('');
  const [searched, search] = useQuery<{ knowledgeSearch: Search }>({
    query: SEARCH,
    variables: { q: question },
    pause: question === '',
    requestPolicy: 'network-only',
  });
  // `generation` changes when documents or FAQs change: the shown ranking is asked again rather than left stale.
  useEffect(() => {
    if (question) search({ requestPolicy: 'network-only' });
  }, [generation]);
  return (
    <section aria-labelledby="search-title">
      <h2 id="search-title">Ask as a customer would</h2>
      <form
        class="filters"
        role="search"
        aria-label="Knowledge"
        onSubmit={(event) => {
          event.preventDefault();
          setQuestion(draft.trim());
        }}
      >
        <label>
          Customer question
          <input type="search" value={draft} required onInput={(event) => setDraft(event.currentTarget.value)} />
        </label>
        <Button type="submit" busy={searched.fetching}>
          Search
        </Button>
      </form>
      {searched.fetching && !searched.data ? <p class="loading">Ranking the knowledge…</p> : null}
      <ErrorNote error={searched.error} />
      {searched.data && question ? <Ranking search={searched.data.knowledgeSearch} /> : null}
    </section>
  );
}

// Knowledge → FAQs: question and answer pairs the agent matches before documents and replies with as written;
// the list, a form that adds one, and the chosen FAQ's editor with delete.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, ConfirmedDelete, EmptyNote, ErrorNote, Field, ListTable, formValues } from '../../ui.js';

type Faq = { id: string; question: string; answer: string; language: string };

const FAQS = gql`
  query KnowledgePageFaqs {
    knowledgeFaqs(limit: 100) { data { id question answer language } has_more }
  }
`;
const CREATE = gql`
  mutation KnowledgePageFaqCreate($question: String!, $answer: String!, $language: String) {
    knowledgeFaqCreate(question: $question, answer: $answer, language: $language) { id question language }
  }
`;
const UPDATE = gql`
  mutation KnowledgePageFaqUpdate($id: ID!, $question: String, $answer: String, $language: String) {
    knowledgeFaqUpdate(id: $id, question: $question, answer: $answer, language: $language) { id }
  }
`;
const DELETE = gql`
  mutation KnowledgePageFaqDelete($id: ID!) {
    knowledgeFaqDelete(id: $id) { id }
  }
`;

/** The question, answer and language fields, empty for a new FAQ or filled with the one edited. */
function FaqFields({ faq, idPrefix }: { faq?: Faq; idPrefix: string }) {
  return (
    <>
      <Field label={faq ? 'Question of the FAQ' : 'Question'} name="question" defaultValue={faq?.question} required />
      <div class="field">
        <label for={`${idPrefix}-answer`}>{faq ? 'Answer of the FAQ' : 'Answer'}</label>
        <textarea id={`${idPrefix}-answer`} name="answer" rows={3} required defaultValue={faq?.answer} />
      </div>
      <Field
        label={faq ? 'Language of the FAQ' : 'FAQ language'}
        name="language"
        defaultValue={faq?.language}
        hint="An ISO 639-1 code; detected from the question when empty."
      />
    </>
  );
}

function NewFaq({ onAdded }: { onAdded: () => void }) {
  const [creating, create] = useMutation<{ knowledgeFaqCreate: { question: string; language: string } | null }>(CREATE);
  const [done, setDone] = useState('');
  return (
    <form
      class="card"
      aria-labelledby="faq-new-title"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const { question, answer, language } = formValues(form);
        setDone('');
        void create({ question, answer, language: language || null }).then((result) => {
          const faq = result.data?.knowledgeFaqCreate;
          if (faq) {
            setDone(`The FAQ “${faq.question}” was added (language ${faq.language}).`);
            form.reset();
            onAdded();
          }
        });
      }}
    >
      <h3 id="faq-new-title">Add an FAQ</h3>
      <FaqFields idPrefix="faq-new" />
      <ErrorNote error={creating.error} />
      {done ? <p role="status">{done}</p> : null}
      <Button type="submit" busy={creating.fetching}>
        Add the FAQ
      </Button>
    </form>
  );
}

function FaqEditor({ faq, onClose }: { faq: Faq; onClose: (changed: boolean) => void }) {
  const [updating, update] = useMutation<{ knowledgeFaqUpdate: { id: string } | null }>(UPDATE);
  const [deleting, remove] = useMutation<{ knowledgeFaqDelete: { id: string } | null }>(DELETE);
  return (
    <form
      class="card"
      aria-labelledby="faq-edit-title"
      onSubmit={(event) => {
        event.preventDefault();
        const { question, answer, language } = formValues(event.currentTarget);
        void update({ id: faq.id, question, answer, language: language || null }).then((result) => {
          if (result.data?.knowledgeFaqUpdate) onClose(true);
        });
      }}
    >
      <h3 id="faq-edit-title">Edit the FAQ “{faq.question}”</h3>
      <FaqFields faq={faq} idPrefix="faq-edit" />
      <ErrorNote error={updating.error ?? deleting.error} />
      <div class="actions">
        <Button type="submit" busy={updating.fetching}>
          Save the FAQ
        </Button>
        <button type="button" onClick={() => onClose(false)}>
          Cancel
        </button>
        <ConfirmedDelete
          confirmLabel={<>Delete this FAQ for good</>}
          busy={deleting.fetching}
          onDelete={() =>
            void remove({ id: faq.id }).then((result) => {
              if (result.data?.knowledgeFaqDelete) onClose(true);
            })
          }
        />
      </div>
    </form>
  );
}

export function KnowledgeFaqs({ onChanged }: { onChanged: () => void }) {
  const [listed, refresh] = useQuery<{ knowledgeFaqs: { data: Faq[]; has_more: boolean } }>({ query: FAQS });
  const [editing, setEditing] = useState<Faq | null>(null);
  const changed = () => {
    refresh({ requestPolicy: 'network-only' });
    onChanged();
  };
  const faqs = listed.data?.knowledgeFaqs.data;
  return (
    <section aria-labelledby="faqs-title">
      <h2 id="faqs-title">FAQs</h2>
      <p class="hint">The agent matches FAQs before documents and replies with the answer as written.</p>
      {listed.fetching && !faqs ? <p class="loading">Loading the FAQs…</p> : null}
      <ErrorNote error={listed.error} />
      <EmptyNote items={faqs}>No FAQs yet: add the questions customers ask most below.</EmptyNote>
      {faqs?.length ? (
        <ListTable label="FAQs" columns={['Question', 'Answer', 'Language', '']}>
          {faqs.map((faq) => (
            <tr key={faq.id} data-testid="faq-row">
              <td>{faq.question}</td>
              <td>{faq.answer}</td>
              <td>{faq.language}</td>
              <td>
                <button type="button" class="link" onClick={() => setEditing(faq)}>
                  Edit <span class="visually-hidden">{faq.question}</span>
                </button>
              </td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      {listed.data?.knowledgeFaqs.has_more ? <p class="hint">The newest 100 FAQs are shown.</p> : null}
      {editing ? (
        <FaqEditor
          key={editing.id}
          faq={editing}
          onClose={(wasChanged) => {
            setEditing(null);
            if (wasChanged) changed();
          }}
        />
      ) : null}
      <NewFaq onAdded={changed} />
    </section>
  );
}

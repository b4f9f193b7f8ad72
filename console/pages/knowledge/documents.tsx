// Knowledge → documents: the list with each document's language, adding one from a file chosen in the browser
// (text, Markdown or HTML) or from typed text, and the chosen document's editor (title, language, text) with delete.
// The language is detected by the API when left empty.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, ConfirmedDelete, EmptyNote, ErrorNote, Field, ListTable, Time, formValues } from '../../ui.js';
import { ACCEPTED_FILES, fileUpload } from './upload.js';

type Listed = { id: string; title: string; language: string; source_filename: string | null; updated_at: string };
type Added = { id: string; title: string; language: string };

const DOCUMENTS = gql`
  query KnowledgePageDocuments {
    knowledgeDocuments(limit: 100) { data { id title language source_filename updated_at } has_more }
  }
`;
const DOCUMENT = gql`
  query KnowledgePageDocument($id: ID!) {
    knowledgeDocument(id: $id) { id title content language }
  }
`;
const CREATE = gql`
  mutation KnowledgePageDocumentCreate($title: String!, $content: String!, $language: String) {
    knowledgeDocumentCreate(title: $title, content: $content, language: $language) { id title language }
  }
`;
const UPLOAD = gql`
  mutation KnowledgePageDocumentUpload($content_base64: String!, $filename: String!, $content_type: String!, $title: String, $language: String) {
    knowledgeDocumentUpload(content_base64: $content_base64, filename: $filename, content_type: $content_type, title: $title, language: $language) {
      id
      title
      language
    }
  }
`;
const UPDATE = gql`
  mutation KnowledgePageDocumentUpdate($id: ID!, $title: String, $content: String, $language: String) {
    knowledgeDocumentUpdate(id: $id, title: $title, content: $content, language: $language) { id title language }
  }
`;
const DELETE = gql`
  mutation KnowledgePageDocumentDelete($id: ID!) {
    knowledgeDocumentDelete(id: $id) { id title }
  }
`;

const LANGUAGE_HINT = 'An ISO 639-1 code such as en, pt or hi; detected from the text when empty.';

const added = (document: Added) => `“${document.title}” was added (language ${document.language}).`;

function UploadForm({ onAdded }: { onAdded: () => void }) {
  const [uploading, upload] = useMutation<{ knowledgeDocumentUpload: Added | null }>(UPLOAD);
  const [done, setDone] = useState('');
  return (
    <form
      class="card"
      aria-labelledby="upload-title"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const file = new FormData(form).get('file');
        const { title, language } = formValues(form);
        if (!(file instanceof File)) return;
        setDone('');
        void fileUpload(file)
          .then((chosen) => upload({ ...chosen, title: title || null, language: language || null }))
          .then((answer) => {
            // A refused file answers data with a null field beside its error.
            if (answer.data?.knowledgeDocumentUpload) {
              setDone(added(answer.data.knowledgeDocumentUpload));
              form.reset();
              onAdded();
            }
          });
      }}
    >
      <h3 id="upload-title">Upload a file</h3>
      <Field label="File" name="file" type="file" accept={ACCEPTED_FILES} required hint="Text, Markdown or HTML, at most 1 MiB." />
      <Field label="Title of the file" name="title" hint="The file name without its extension when empty." />
      <Field label="Language of the file" name="language" hint={LANGUAGE_HINT} />
      <ErrorNote error={uploading.error} />
      {done ? <p role="status">{done}</p> : null}
      <Button type="submit" busy={uploading.fetching}>
        Upload
      </Button>
    </form>
  );
}

function TypedForm({ onAdded }: { onAdded: () => void }) {
  const [creating, create] = useMutation<{ knowledgeDocumentCreate: Added | null }>(CREATE);
  const [done, setDone] = useState('');
  return (
    <form
      class="card"
      aria-labelledby="typed-title"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const { title, content, language } = formValues(form);
        setDone('');
        void create({ title, content, language: language || null }).then((answer) => {
          if (answer.data?.knowledgeDocumentCreate) {
            setDone(added(answer.data.knowledgeDocumentCreate));
            form.reset();
            onAdded();
          }
        });
      }}
    >
      <h3 id="typed-title">Type a document</h3>
      <Field label="Title" name="title" required />
      <Field label="Language" name="language" hint={LANGUAGE_HINT} />
      <div class="field">
        <label for="document-new-content">Text</label>
        <textarea id="document-new-content" name="content" rows={5} required />
      </div>
      <ErrorNote error={creating.error} />
      {done ? <p role="status">{done}</p> : null}
      <Button type="submit" busy={creating.fetching}>
        Add the document
      </Button>
    </form>
  );
}

function DocumentEditor({ id, onClose }: { id: string; onClose: (changed: boolean) => void }) {
  const [loaded] = useQuery<{ knowledgeDocument: { id: string; title: string; content: string; language: string } }>({
    query: DOCUMENT,
    variables: { id },
    requestPolicy: 'network-only',
  });
  const [updating, update] = useMutation<{ knowledgeDocumentUpdate: Added | null }>(UPDATE);
  const [deleting, remove] = useMutation<{ knowledgeDocumentDelete: { id: string } | null }>(DELETE);
  const document = loaded.data?.knowledgeDocument;
  if (!document) {
    return loaded.fetching ? (
      <p class="loading">Loading the document…</p>
    ) : (
      <ErrorNote error={loaded.error ?? 'This document no longer exists.'} />
    );
  }
  return (
    <form
      class="card"
      aria-labelledby="document-edit-title"
      onSubmit={(event) => {
        event.preventDefault();
        const { title, content, language } = formValues(event.currentTarget);
        void update({ id, title, content, language: language || null }).then((answer) => {
          if (answer.data?.knowledgeDocumentUpdate) onClose(true);
        });
      }}
    >
      <h3 id="document-edit-title">Edit “{document.title}”</h3>
      <Field label="Title of the document" name="title" defaultValue={document.title} required />
      <Field label="Language of the document" name="language" defaultValue={document.language} hint={LANGUAGE_HINT} />
      <div class="field">
        <label for="document-edit-content">Text of the document</label>
        <textarea id="document-edit-content" name="content" rows={10} required defaultValue={document.content} />
      </div>
      <ErrorNote error={updating.error ?? deleting.error} />
      <div class="actions">
        <Button type="submit" busy={updating.fetching}>
          Save
        </Button>
        <button type="button" onClick={() => onClose(false)}>
          Cancel
        </button>
        <ConfirmedDelete
          confirmLabel={<>Delete “{document.title}” for good</>}
          busy={deleting.fetching}
          onDelete={() =>
            void remove({ id }).then((answer) => {
              if (answer.data?.knowledgeDocumentDelete) onClose(true);
            })
          }
        />
      </div>
    </form>
  );
}

export function KnowledgeDocuments({ onChanged }: { onChanged: () => void }) {
  const [listed, refresh] = useQuery<{ knowledgeDocuments: { data: Listed[]; has_more: boolean } }>({ query: DOCUMENTS });
  const [editing, setEditing] = useState<string | null>(null);
  const changed = () => {
    refresh({ requestPolicy: 'network-only' });
    onChanged();
  };
  const documents = listed.data?.knowledgeDocuments.data;
  return (
    <section aria-labelledby="documents-title">
      <h2 id="documents-title">Documents</h2>
      {listed.fetching && !documents ? <p class="loading">Loading the documents…</p> : null}
      <ErrorNote error={listed.error} />
      <EmptyNote items={documents}>No documents yet: upload a file or type one below. The agent answers only from its knowledge.</EmptyNote>
      {documents?.length ? (
        <ListTable label="Documents" columns={['Title', 'Language', 'From', 'Updated', '']}>
          {documents.map((document) => (
            <tr key={document.id} data-testid="document-row">
              <td>{document.title}</td>
              <td>{document.language}</td>
              <td>{document.source_filename ?? 'typed text'}</td>
              <td>
                <Time value={document.updated_at} />
              </td>
              <td>
                <button type="button" class="link" onClick={() => setEditing(document.id)}>
                  Edit <span class="visually-hidden">{document.title}</span>
                </button>
              </td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      {listed.data?.knowledgeDocuments.has_more ? <p class="hint">The newest 100 documents are shown.</p> : null}
      {editing ? (
        <DocumentEditor
          key={editing}
          id={editing}
          onClose={(wasChanged) => {
            setEditing(null);
            if (wasChanged) changed();
          }}
        />
      ) : null}
      <div class="knowledge-forms">
        <UploadForm onAdded={changed} />
        <TypedForm onAdded={changed} />
      </div>
    </section>
  );
}

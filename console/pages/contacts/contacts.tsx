// Contacts: search, and a contact's fields (editable), marketing consent, tags, channels, conversations and its
// timeline (the whole story, newest first).
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, EmptyNote, ErrorNote, Field, Page, SearchList, Time, formValues } from '../../ui.js';
import { ContactConsent, type MarketingConsent } from './consent.js';
import { ContactTimeline } from './timeline.js';

type Contact = {
  id: string;
  name: string | null;
  phone_number: string | null;
  email: string | null;
  wa_id: string | null;
  bsuid: string | null;
};
type Detail = Contact & {
  notes: string | null;
  tags: string[] | null;
  profile_name: string | null;
  username: string | null;
  created_at: string | null;
  last_message_at: string | null;
  marketing_consent: MarketingConsent;
};
type Tag = { id: string; name: string; color: string | null };

const ROW = 'id name phone_number email wa_id bsuid';
const LIST = gql`
  query Contacts($search: String) {
    contacts(search: $search, limit: 50) { data { ${ROW} } }
  }
`;
const DETAIL = gql`
  query Contact($id: ID!) {
    contact(id: $id) { ${ROW} notes tags profile_name username created_at last_message_at marketing_consent { status source updated_at } }
    contactChannels(customer_id: $id) { channels { id type value provider is_primary } }
    conversations(customer_id: $id, status: null, limit: 50) { data { id status last_message_at last_message { body type } } }
    tags { tags { id name color } }
  }
`;
const UPDATE = gql`
  mutation ContactUpdate($id: ID!, $name: String, $email: String, $phone_number: String, $notes: String) {
    contactUpdate(id: $id, name: $name, email: $email, phone_number: $phone_number, notes: $notes) {
      id
    }
  }
`;
const TAG = gql`
  mutation Tag($customer_id: ID!, $tag_id: ID!) {
    tagAssign(customer_id: $customer_id, tag_id: $tag_id) {
      tag_id
    }
  }
`;
const UNTAG = gql`
  mutation Untag($customer_id: ID!, $tag_id: ID!) {
    tagUnassign(customer_id: $customer_id, tag_id: $tag_id) {
      tag_id
    }
  }
`;
const CREATE_TAG = gql`
  mutation TagCreate($name: String!) {
    tagCreate(name: $name) {
      id
    }
  }
`;

export function ContactsPage() {
  const { params } = useRoute();
  const [search, setSearch] = useState('');
  const [listed] = useQuery<{ contacts: { data: Contact[] } }>({ query: LIST, variables: { search: search.trim() || null } });
  const selected = params['id'];
  return (
    <Page title="Contacts">
      <SearchList
        label="Contacts"
        search={search}
        onSearch={setSearch}
        placeholder="Name, phone or e-mail"
        error={listed.error}
        detail={selected ? <ContactDetail key={selected} id={selected} /> : null}
        placeholderText="Choose a contact."
        note={
          <EmptyNote items={listed.data?.contacts.data}>
            {search ? 'No contact matches.' : 'No contacts yet — simulate a customer message or import a CSV.'}
          </EmptyNote>
        }
      >
        {listed.data?.contacts.data.map((contact) => (
          <li key={contact.id}>
            <a href={`/contacts/${contact.id}`} class={`row ${contact.id === selected ? 'selected' : ''}`} data-testid="contact-row">
              <span class="row-title">{contact.name ?? contact.phone_number ?? contact.bsuid ?? 'Unnamed'}</span>
              <span class="row-preview">{[contact.phone_number, contact.email].filter(Boolean).join(' · ')}</span>
            </a>
          </li>
        ))}
      </SearchList>
    </Page>
  );
}

function ContactDetail({ id }: { id: string }) {
  const [result, refresh] = useQuery<{
    contact: Detail | null;
    contactChannels: { channels: { id: string; type: string; value: string; provider: string; is_primary: boolean }[] };
    conversations: {
      data: { id: string; status: string; last_message_at: string | null; last_message: { body: string; type: string } | null }[];
    };
    tags: { tags: Tag[] };
  }>({ query: DETAIL, variables: { id } });
  // A change made here is new history: the timeline is read again from its first page.
  const [changes, setChanges] = useState(0);
  const refetch = () => {
    refresh({ requestPolicy: 'network-only' });
    setChanges((count) => count + 1);
  };
  const [updating, update] = useMutation(UPDATE);
  const [tagging, tag] = useMutation(TAG);
  const [untagging, untag] = useMutation(UNTAG);
  const [creating, createTag] = useMutation(CREATE_TAG);
  const [newTag, setNewTag] = useState('');
  const [saved, setSaved] = useState(false);
  const contact = result.data?.contact;
  if (!contact)
    return (
      <section class="transcript">
        {result.fetching ? <p class="loading">Loading…</p> : <ErrorNote error={result.error ?? 'This contact does not exist.'} />}
      </section>
    );
  const allTags = result.data?.tags.tags ?? [];
  const own = new Set(contact.tags ?? []);
  const addTag = async (name: string) => {
    const existing = allTags.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    const tagId = existing?.id ?? ((await createTag({ name })).data as { tagCreate?: { id: string } } | undefined)?.tagCreate?.id;
    if (tagId) await tag({ customer_id: id, tag_id: tagId });
    setNewTag('');
    refetch();
  };
  return (
    <section class="transcript contact" aria-label={`Contact ${contact.name ?? ''}`}>
      <form
        class="contact-fields"
        onSubmit={(event) => {
          event.preventDefault();
          const form = formValues(event.currentTarget);
          const nullable = (value: string | undefined) => (value ? value : null);
          void update({
            id,
            name: nullable(form['name']),
            email: nullable(form['email']),
            phone_number: nullable(form['phone_number']),
            notes: nullable(form['notes']),
          }).then((answer) => {
            setSaved(!answer.error);
            refetch();
          });
        }}
      >
        <h2>{contact.name ?? 'Unnamed contact'}</h2>
        <Field label="Name" name="name" defaultValue={contact.name ?? ''} />
        <Field label="Phone number" name="phone_number" defaultValue={contact.phone_number ?? ''} hint="E.164, for example +15551234567." />
        <Field label="E-mail" name="email" type="email" defaultValue={contact.email ?? ''} />
        <div class="field">
          <label for="contact-notes">Notes</label>
          <textarea id="contact-notes" name="notes" rows={3} defaultValue={contact.notes ?? ''} />
        </div>
        <ErrorNote error={updating.error} />
        <Button type="submit" busy={updating.fetching}>
          Save
        </Button>
        {saved ? <span role="status"> Saved.</span> : null}
      </form>
      <ContactConsent id={id} consent={contact.marketing_consent} onSaved={refetch} />
      <section aria-label="Tags">
        <h3>Tags</h3>
        <ul class="tags">
          {allTags
            .filter((candidate) => own.has(candidate.name))
            .map((candidate) => (
              <li key={candidate.id}>
                {candidate.name}{' '}
                <button
                  type="button"
                  class="link"
                  aria-label={`Remove tag ${candidate.name}`}
                  onClick={() => void untag({ customer_id: id, tag_id: candidate.id }).then(refetch)}
                >
                  ×
                </button>
              </li>
            ))}
        </ul>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (newTag.trim()) void addTag(newTag.trim());
          }}
        >
          <label for="new-tag">Add a tag</label>
          <input id="new-tag" list="known-tags" value={newTag} onInput={(event) => setNewTag(event.currentTarget.value)} maxLength={50} />
          <datalist id="known-tags">
            {allTags.map((candidate) => (
              <option key={candidate.id} value={candidate.name} />
            ))}
          </datalist>
          <Button type="submit" busy={tagging.fetching || creating.fetching}>
            Tag
          </Button>
          <ErrorNote error={tagging.error ?? untagging.error ?? creating.error} />
        </form>
      </section>
      <section aria-label="Channels">
        <h3>Channels</h3>
        <ul>
          {result.data?.contactChannels.channels.map((channel) => (
            <li key={channel.id}>
              {channel.type}: <code>{channel.value}</code> ({channel.provider}){channel.is_primary ? ' · primary' : ''}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Conversations">
        <h3>Conversations</h3>
        <ul>
          {result.data?.conversations.data.map((conversation) => (
            <li key={conversation.id}>
              <a href={`/inbox/${conversation.id}`}>
                {conversation.status} · <Time value={conversation.last_message_at} /> ·{' '}
                {conversation.last_message?.body || conversation.last_message?.type || 'no messages'}
              </a>
            </li>
          ))}
        </ul>
      </section>
      <ContactTimeline key={changes} id={id} />
    </section>
  );
}

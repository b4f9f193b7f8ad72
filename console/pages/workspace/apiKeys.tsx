// Settings → API keys, where the spec puts key creation: a new key is shown once; the list shows each key's
// prefix, scopes, creator and last use, and revokes. A person can give a key only scopes their role has.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { session } from '../../session.js';
import { Button, EmptyNote, ErrorNote, Field, Page, ShownOnce, Time, checkedValues, formValues, ListTable } from '../../ui.js';

/** The scopes of people's sessions that are not key scopes: managing keys, the team and integrations. */
const SESSION_ONLY = new Set(['keys', 'team', 'integrations']);

type Key = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  creator: { name: string | null; email: string } | null;
};

const KEYS = gql`
  query ApiKeys {
    apiKeys { id name prefix scopes created_at last_used_at revoked_at creator { name email } }
  }
`;
const CREATE = gql`
  mutation ApiKeyCreate($name: String!, $scopes: [String!]!) {
    apiKeyCreate(name: $name, scopes: $scopes) {
      api_key
      key {
        id
      }
    }
  }
`;
const REVOKE = gql`
  mutation ApiKeyRevoke($id: ID!) {
    apiKeyRevoke(id: $id) {
      id
      revoked_at
    }
  }
`;

export function ApiKeysPage() {
  const grantable = (session.value?.scopes ?? []).filter((scope) => !SESSION_ONLY.has(scope));
  const [listed, refresh] = useQuery<{ apiKeys: Key[] }>({ query: KEYS });
  const [creating, create] = useMutation<{ apiKeyCreate: { api_key: string } }>(CREATE);
  const [revoking, revoke] = useMutation(REVOKE);
  const [created, setCreated] = useState('');
  const refetch = () => refresh({ requestPolicy: 'network-only' });
  return (
    <Page title="API keys">
      <form
        class="card"
        aria-label="New API key"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          setCreated('');
          void create({ name: formValues(form)['name'], scopes: checkedValues(form, 'scopes') }).then((answer) => {
            if (answer.data) {
              setCreated(answer.data.apiKeyCreate.api_key);
              form.reset();
            }
            refetch();
          });
        }}
      >
        <h2>Generate a new key</h2>
        <Field label="Name" name="name" required maxLength={100} placeholder="Order system" />
        <fieldset>
          <legend>Scopes (what the key may do; never more than your role allows)</legend>
          {grantable.map((scope) => (
            <label key={scope} class="check">
              <input type="checkbox" name="scopes" value={scope} defaultChecked /> {scope}
            </label>
          ))}
        </fieldset>
        <ErrorNote error={creating.error} />
        <Button type="submit" busy={creating.fetching}>
          Generate key
        </Button>
      </form>
      {created ? <ShownOnce label="Your new API key." value={created} /> : null}
      <ErrorNote error={listed.error ?? revoking.error} />
      <EmptyNote items={listed.data?.apiKeys}>Generate your first key: name it, choose its scopes and press Generate key.</EmptyNote>
      <ListTable label="API keys" columns={['Name', 'Key', 'Scopes', 'Created by', 'Created', 'Last used', '']}>
        {listed.data?.apiKeys.map((key) => (
          <tr key={key.id} class={key.revoked_at ? 'revoked' : ''}>
            <td>{key.name}</td>
            <td>
              <code>{key.prefix}…</code>
            </td>
            <td>{key.scopes.join(', ')}</td>
            <td>{key.creator ? (key.creator.name ?? key.creator.email) : 'Workspace owner'}</td>
            <td>
              <Time value={key.created_at} />
            </td>
            <td>
              <Time value={key.last_used_at} />
            </td>
            <td>
              {key.revoked_at ? (
                <span>
                  Revoked <Time value={key.revoked_at} />
                </span>
              ) : (
                <button
                  type="button"
                  onClick={() => {
                    if (confirm(`Revoke “${key.name}”? Calls with it stop working at once.`)) void revoke({ id: key.id }).then(refetch);
                  }}
                >
                  Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </ListTable>
    </Page>
  );
}

// Settings → Integrations: connected WhatsApp numbers with the callback URL and verify token to enter in Meta's
// app settings, each number's limits (numberLimits.tsx), connecting a number, disconnecting, rotating the app secret (shown once), simulating a customer message
// on the sandbox, and the templates the provider has.
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { Button, EmptyNote, ErrorNote, Field, Page, ShownOnce, Time, formValues, ListTable } from '../../ui.js';
import { SimulateInbound } from '../conversations/simulate.js';
import { NumberLimits, type NumberLimitsFields } from './numberLimits.js';

type Integration = NumberLimitsFields & {
  status: string;
  phone_number_id: string;
  display_phone_number: string | null;
  business_account_id: string;
  callback_url: string;
  verify_token: string | null;
  created_at: string;
};
type Template = { id: string; name: string; language: string; status: string; category: string };

const LIST = gql`
  query Integrations {
    integrations {
      id provider status phone_number_id display_phone_number business_account_id callback_url verify_token created_at
      throughput_per_second throughput_source throughput_updated_at messaging_limit_tier messaging_limit_tier_source
      messaging_limit_tier_updated_at quality_rating quality_rating_updated_at
    }
    templates { templates { id name language status category } }
  }
`;
const CREATE = gql`
  mutation IntegrationCreate($phone_number_id: String!, $business_account_id: String!, $display_phone_number: String, $access_token: String!, $app_secret: String!) {
    integrationCreate(phone_number_id: $phone_number_id, business_account_id: $business_account_id, display_phone_number: $display_phone_number, access_token: $access_token, app_secret: $app_secret) {
      id
    }
  }
`;
const DISCONNECT = gql`
  mutation IntegrationDisconnect($id: ID!) {
    integrationDisconnect(id: $id) {
      id
      status
    }
  }
`;

const ROTATE = gql`
  mutation IntegrationRotateSecret($id: ID!, $app_secret: String) {
    integrationRotateSecret(id: $id, app_secret: $app_secret) {
      integration_id
      app_secret
    }
  }
`;

type Rotated = { integrationRotateSecret: { integration_id: string; app_secret: string } };

/** A new app secret: generated for the sandbox; for WhatsApp, the one Meta shows after its reset. Shown once. */
function RotateSecret({ integration }: { integration: Integration }) {
  const [rotating, rotate] = useMutation<Rotated>(ROTATE);
  const [secret, setSecret] = useState<string | null>(null);
  const sandbox = integration.provider === 'sandbox';
  return (
    <form
      aria-label="Rotate the app secret"
      onSubmit={(event) => {
        event.preventDefault();
        if (!confirm('Rotate the app secret? Deliveries signed with the old one are refused from now on.')) return;
        const appSecret = formValues(event.currentTarget)['app_secret'];
        void rotate({ id: integration.id, app_secret: appSecret || null }).then((answer) => {
          if (answer.data) setSecret(answer.data.integrationRotateSecret.app_secret);
        });
      }}
    >
      {sandbox ? null : <Field label="New app secret from Meta" name="app_secret" type="password" required autoComplete="off" />}
      <ErrorNote error={rotating.error} />
      <Button type="submit" busy={rotating.fetching}>
        Rotate the app secret
      </Button>
      {secret ? <ShownOnce label="New app secret." value={secret} /> : null}
    </form>
  );
}

export function IntegrationsPage() {
  const [listed, refresh] = useQuery<{ integrations: Integration[]; templates: { templates: Template[] } }>({ query: LIST });
  const [creating, create] = useMutation(CREATE);
  const [disconnecting, disconnect] = useMutation(DISCONNECT);
  const refetch = () => refresh({ requestPolicy: 'network-only' });
  return (
    <Page title="Integrations">
      <ErrorNote error={listed.error ?? disconnecting.error} />
      <EmptyNote items={listed.data?.integrations}>No number connected yet — connect one below.</EmptyNote>
      {listed.data?.integrations.map((integration) => (
        <article class="card" key={integration.id} data-testid="integration">
          <h2>
            {integration.display_phone_number ?? integration.phone_number_id}{' '}
            <small>
              ({integration.provider}, {integration.status})
            </small>
          </h2>
          <dl>
            <dt>Callback URL</dt>
            <dd>
              <code>{integration.callback_url}</code>
            </dd>
            <dt>Verify token</dt>
            <dd>
              <code>{integration.verify_token ?? '—'}</code>
            </dd>
            <dt>Phone number id</dt>
            <dd>{integration.phone_number_id}</dd>
            <dt>Business account id</dt>
            <dd>{integration.business_account_id}</dd>
            <dt>Connected</dt>
            <dd>
              <Time value={integration.created_at} />
            </dd>
          </dl>
          {integration.status === 'connected' ? <NumberLimits integration={integration} /> : null}
          {integration.status === 'connected' ? <RotateSecret integration={integration} /> : null}
          {integration.status === 'connected' && integration.provider === 'sandbox' ? <SimulateInbound /> : null}
          {integration.status === 'connected' ? (
            <Button
              type="button"
              busy={disconnecting.fetching}
              onClick={() => {
                if (confirm('Disconnect this number? Sends through it stop and its callbacks are refused.'))
                  void disconnect({ id: integration.id }).then(refetch);
              }}
            >
              Disconnect
            </Button>
          ) : null}
        </article>
      ))}
      <form
        class="card"
        aria-label="Connect a number"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const values = formValues(form);
          void create({ ...values, display_phone_number: values['display_phone_number'] || null }).then((answer) => {
            if (!answer.error) form.reset();
            refetch();
          });
        }}
      >
        <h2>Connect a WhatsApp number</h2>
        <Field label="Phone number id" name="phone_number_id" required />
        <Field label="WhatsApp business account id" name="business_account_id" required />
        <Field label="Display phone number" name="display_phone_number" placeholder="+15551234567" />
        <Field label="System user access token" name="access_token" type="password" required autoComplete="off" />
        <Field
          label="App secret"
          name="app_secret"
          type="password"
          required
          autoComplete="off"
          hint="Used to check the signature of Meta's callbacks; stored sealed."
        />
        <ErrorNote error={creating.error} />
        <Button type="submit" busy={creating.fetching}>
          Connect
        </Button>
      </form>
      <h2>Templates</h2>
      <EmptyNote items={listed.data?.templates.templates}>No templates on this provider yet.</EmptyNote>
      <ListTable label="Templates" columns={['Name', 'Language', 'Category', 'Status']}>
        {listed.data?.templates.templates.map((template) => (
          <tr key={template.id}>
            <td>{template.name}</td>
            <td>{template.language}</td>
            <td>{template.category}</td>
            <td>{template.status}</td>
          </tr>
        ))}
      </ListTable>
    </Page>
  );
}

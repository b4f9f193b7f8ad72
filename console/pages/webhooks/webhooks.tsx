// Settings → Webhooks: subscriptions (create with the signing secret shown once, edit, disable, rotate the
// secret, send a test event) and each one's delivery log with its attempts, status codes, latency and next
// retry, where a failed delivery can be sent again.
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, EmptyNote, ErrorNote, Field, Page, ShownOnce, Time, checkedValues, formValues, ListTable } from '../../ui.js';

/** What a new endpoint subscribes to unless changed: the message events. The list to choose from comes from the API. */
const NEW_ENDPOINT_EVENTS = ['message.received', 'message.status', 'message.created'];

type Subscription = {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
  created_at: string;
};
type Attempt = { id: string; number: number; started_at: string; status_code: number | null; duration_ms: number; error: string | null };
type Delivery = {
  id: string;
  event_type: string;
  event_id: string;
  status: string;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  attempts: Attempt[];
};

const SUBSCRIPTION = 'id url events active disabled_reason failing_since created_at';
const LIST = gql`
  query Webhooks {
    webhooks { webhooks { ${SUBSCRIPTION} } }
    webhookEventTypes
  }
`;
const CREATE = gql`
  mutation WebhookCreate($url: String!, $events: [String!]!) {
    webhookCreate(url: $url, events: $events) {
      id
      secret
    }
  }
`;
const DETAIL = gql`
  query Webhook($id: ID!) {
    webhook(id: $id) { ${SUBSCRIPTION} }
    webhookEventTypes
    webhookDeliveries(subscription_id: $id, limit: 50) {
      data { id event_type event_id status attempt_count last_status_code last_error next_attempt_at created_at attempts { id number started_at status_code duration_ms error } }
    }
  }
`;
const UPDATE = gql`
  mutation WebhookUpdate($id: ID!, $url: String, $events: [String!], $active: Boolean) {
    webhookUpdate(id: $id, url: $url, events: $events, active: $active) {
      id
    }
  }
`;
const ROTATE = gql`
  mutation WebhookRotate($id: ID!) {
    webhookRotateSecret(id: $id) {
      id
      secret
    }
  }
`;
const TEST = gql`
  mutation WebhookTest($id: ID!) {
    webhookTest(id: $id) {
      id
    }
  }
`;
const REDELIVER = gql`
  mutation WebhookRedeliver($id: ID!) {
    webhookRedeliver(id: $id) {
      id
    }
  }
`;

function checkedEvents(form: HTMLFormElement): string[] {
  return checkedValues(form, 'events');
}

function EventChoices({ types, selected }: { types: string[]; selected: string[] }) {
  return (
    <fieldset>
      <legend>Events</legend>
      {types.map((event) => (
        <label key={event} class="check">
          <input type="checkbox" name="events" value={event} defaultChecked={selected.includes(event)} /> {event}
        </label>
      ))}
    </fieldset>
  );
}

export function WebhooksPage() {
  const { params } = useRoute();
  return params['id'] ? <WebhookDetail key={params['id']} id={params['id']} /> : <WebhookList />;
}

function WebhookList() {
  const [listed, refresh] = useQuery<{ webhooks: { webhooks: Subscription[] }; webhookEventTypes: string[] }>({ query: LIST });
  const [creating, create] = useMutation<{ webhookCreate: { id: string; secret: string } }>(CREATE);
  const [secret, setSecret] = useState('');
  return (
    <Page title="Webhooks">
      <form
        class="card"
        aria-label="New webhook"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          void create({ url: formValues(form)['url'], events: checkedEvents(form) }).then((answer) => {
            if (answer.data) {
              setSecret(answer.data.webhookCreate.secret);
              form.reset();
            }
            refresh({ requestPolicy: 'network-only' });
          });
        }}
      >
        <h2>Add an endpoint</h2>
        <Field
          label="URL"
          name="url"
          type="url"
          required
          placeholder="https://example.com/hooks/crm"
          hint="An https URL of your server; deliveries are signed with X-Service-Signature."
        />
        <EventChoices types={listed.data?.webhookEventTypes ?? NEW_ENDPOINT_EVENTS} selected={NEW_ENDPOINT_EVENTS} />
        <ErrorNote error={creating.error} />
        <Button type="submit" busy={creating.fetching}>
          Add endpoint
        </Button>
      </form>
      {secret ? <ShownOnce label="The endpoint's signing secret." value={secret} /> : null}
      <ErrorNote error={listed.error} />
      <EmptyNote items={listed.data?.webhooks.webhooks}>No endpoints yet — add one above to receive events.</EmptyNote>
      <ul class="rows">
        {listed.data?.webhooks.webhooks.map((subscription) => (
          <li key={subscription.id}>
            <a class="row" href={`/settings/webhooks/${subscription.id}`} data-testid="webhook-row">
              <span class="row-title">{subscription.url}</span>
              <span class="row-preview">{subscription.events.join(', ')}</span>
              <span class="row-meta">{subscription.active ? 'Active' : `Disabled (${subscription.disabled_reason ?? 'manual'})`}</span>
            </a>
          </li>
        ))}
      </ul>
    </Page>
  );
}

function WebhookDetail({ id }: { id: string }) {
  const { route } = useLocation();
  const [result, refresh] = useQuery<{
    webhook: Subscription | null;
    webhookDeliveries: { data: Delivery[] };
    webhookEventTypes: string[];
  }>({
    query: DETAIL,
    variables: { id },
  });
  const refetch = () => refresh({ requestPolicy: 'network-only' });
  const [updating, update] = useMutation(UPDATE);
  const [rotating, rotate] = useMutation<{ webhookRotateSecret: { secret: string } }>(ROTATE);
  const [testing, test] = useMutation(TEST);
  const [redelivering, redeliver] = useMutation(REDELIVER);
  const [secret, setSecret] = useState('');
  const subscription = result.data?.webhook;
  if (!subscription)
    return (
      <Page title="Webhook">
        {result.fetching ? <p class="loading">Loading…</p> : <ErrorNote error={result.error ?? 'This webhook does not exist.'} />}
      </Page>
    );
  return (
    <Page
      title="Webhook"
      actions={
        <button type="button" class="link" onClick={() => route('/settings/webhooks')}>
          ← All webhooks
        </button>
      }
    >
      <form
        class="card"
        aria-label="Endpoint"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          void update({ id, url: formValues(form)['url'], events: checkedEvents(form) }).then(refetch);
        }}
      >
        <Field label="URL" name="url" type="url" required defaultValue={subscription.url} />
        <EventChoices types={result.data?.webhookEventTypes ?? subscription.events} selected={subscription.events} />
        <p>
          Status: <strong>{subscription.active ? 'active' : `disabled (${subscription.disabled_reason ?? 'manual'})`}</strong>
          {subscription.failing_since ? (
            <>
              {' '}
              · failing since <Time value={subscription.failing_since} />
            </>
          ) : null}
        </p>
        <ErrorNote error={updating.error ?? rotating.error ?? testing.error ?? redelivering.error} />
        <div class="actions">
          <Button type="submit" busy={updating.fetching}>
            Save
          </Button>
          <Button type="button" busy={updating.fetching} onClick={() => void update({ id, active: !subscription.active }).then(refetch)}>
            {subscription.active ? 'Disable' : 'Enable'}
          </Button>
          <Button
            type="button"
            busy={rotating.fetching}
            onClick={() =>
              void rotate({ id }).then((answer) => {
                if (answer.data) setSecret(answer.data.webhookRotateSecret.secret);
              })
            }
          >
            Rotate secret
          </Button>
          <Button type="button" busy={testing.fetching} onClick={() => void test({ id }).then(refetch)}>
            Send test event
          </Button>
          <Button type="button" onClick={refetch}>
            Refresh log
          </Button>
        </div>
      </form>
      {secret ? <ShownOnce label="The new signing secret." value={secret} /> : null}
      <h2>Deliveries</h2>
      <EmptyNote items={result.data?.webhookDeliveries.data}>No deliveries yet — events sent to this endpoint appear here.</EmptyNote>
      <ListTable label="Deliveries" columns={['Event', 'Status', 'Attempts', 'Next retry', '']}>
        {result.data?.webhookDeliveries.data.map((delivery) => (
          <tr key={delivery.id} data-testid="delivery" data-status={delivery.status}>
            <td>
              {delivery.event_type}
              <br />
              <small>
                <Time value={delivery.created_at} />
              </small>
            </td>
            <td>
              {delivery.status}
              {delivery.last_status_code !== null ? ` (HTTP ${delivery.last_status_code})` : ''}
              {delivery.last_error ? <small class="error-note"> {delivery.last_error}</small> : null}
            </td>
            <td>
              <ol class="attempts">
                {delivery.attempts.map((attempt) => (
                  <li key={attempt.id}>
                    #{attempt.number} <Time value={attempt.started_at} />: {attempt.status_code ?? attempt.error ?? 'no answer'} in{' '}
                    {attempt.duration_ms} ms
                  </li>
                ))}
              </ol>
            </td>
            <td>{delivery.next_attempt_at ? <Time value={delivery.next_attempt_at} /> : '—'}</td>
            <td>
              {delivery.status === 'failed' ? (
                <Button type="button" busy={redelivering.fetching} onClick={() => void redeliver({ id: delivery.id }).then(refetch)}>
                  Redeliver
                </Button>
              ) : null}
            </td>
          </tr>
        ))}
      </ListTable>
    </Page>
  );
}

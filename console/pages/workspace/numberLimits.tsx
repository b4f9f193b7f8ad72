// An integration's limits in its settings: throughput per second, messaging-limit tier and quality rating, each
// with where it came from (the provider or a person) and when; owners and admins change throughput and tier
// (integrationUpdateLimits) or read them from the provider again (integrationRefreshStanding). A value set here
// stays until the provider tells again.
import { gql } from '@urql/core';
import { useMutation } from '@urql/preact';
import { Button, ErrorNote, Field, Time, formValues } from '../../ui.js';

export type NumberLimitsFields = {
  id: string;
  provider: string;
  throughput_per_second: number;
  throughput_source: string | null;
  throughput_updated_at: string | null;
  messaging_limit_tier: string | null;
  messaging_limit_tier_source: string | null;
  messaging_limit_tier_updated_at: string | null;
  quality_rating: string | null;
  quality_rating_updated_at: string | null;
};

const UPDATE_LIMITS = gql`
  mutation IntegrationUpdateLimits($id: ID!, $throughput_per_second: Int, $messaging_limit_tier: String) {
    integrationUpdateLimits(id: $id, throughput_per_second: $throughput_per_second, messaging_limit_tier: $messaging_limit_tier) {
      id
      throughput_per_second
      throughput_source
      throughput_updated_at
      messaging_limit_tier
      messaging_limit_tier_source
      messaging_limit_tier_updated_at
    }
  }
`;
const REFRESH_STANDING = gql`
  mutation IntegrationRefreshStanding($id: ID!) {
    integrationRefreshStanding(id: $id) {
      id
      throughput_per_second
      throughput_source
      throughput_updated_at
      messaging_limit_tier
      messaging_limit_tier_source
      messaging_limit_tier_updated_at
      quality_rating
      quality_rating_updated_at
    }
  }
`;

/** Meta's tiers: unique recipients campaigns may reach per rolling 24 hours. */
const TIERS: [string, string][] = [
  ['TIER_50', '50'],
  ['TIER_250', '250'],
  ['TIER_1K', '1,000'],
  ['TIER_2K', '2,000'],
  ['TIER_10K', '10,000'],
  ['TIER_100K', '100,000'],
  ['TIER_UNLIMITED', 'unlimited'],
];
const TIER_LABEL = new Map(TIERS);

const QUALITY_LABEL: Record<string, string> = {
  GREEN: 'high (green)',
  YELLOW: 'medium (yellow)',
  RED: 'low (red)',
  UNKNOWN: 'not known (read it again)',
};

function Origin({ source, at }: { source: string | null; at: string | null }) {
  if (!source) return <small> — the default</small>;
  return (
    <small>
      {' '}
      — {source === 'provider' ? 'told by the provider' : 'set by hand'}, <Time value={at} />
    </small>
  );
}

export function NumberLimits({ integration }: { integration: NumberLimitsFields }) {
  const [updating, update] = useMutation(UPDATE_LIMITS);
  const [refreshing, refresh] = useMutation(REFRESH_STANDING);
  const tier = integration.messaging_limit_tier;
  return (
    <section aria-label="Limits">
      <h3>Limits</h3>
      <dl>
        <dt>Throughput</dt>
        <dd data-testid="throughput">
          {integration.throughput_per_second} messages per second
          <Origin source={integration.throughput_source} at={integration.throughput_updated_at} />
        </dd>
        <dt>Messaging-limit tier</dt>
        <dd data-testid="tier">
          {tier ? `${TIER_LABEL.get(tier) ?? tier} recipients per 24 hours` : 'not known (campaigns are not held by it)'}
          {tier ? <Origin source={integration.messaging_limit_tier_source} at={integration.messaging_limit_tier_updated_at} /> : null}
        </dd>
        <dt>Quality rating</dt>
        <dd data-testid="quality">
          {integration.quality_rating ? (QUALITY_LABEL[integration.quality_rating] ?? integration.quality_rating) : 'not told yet'}
          {integration.quality_rating ? (
            <small>
              {' '}
              — <Time value={integration.quality_rating_updated_at} />
            </small>
          ) : null}
        </dd>
      </dl>
      <form
        aria-label="Change the limits"
        onSubmit={(event) => {
          event.preventDefault();
          const values = formValues(event.currentTarget);
          const throughput = values['throughput_per_second'];
          void update({
            id: integration.id,
            throughput_per_second: throughput ? Number(throughput) : null,
            messaging_limit_tier: values['messaging_limit_tier'] || null,
          });
        }}
      >
        <Field
          label="Throughput (messages per second)"
          name="throughput_per_second"
          type="number"
          min={1}
          max={1000}
          defaultValue={String(integration.throughput_per_second)}
          hint="1 to 1000; campaigns through this number never send faster."
        />
        <div class="field">
          <label for={`tier-${integration.id}`}>Messaging-limit tier</label>
          <select id={`tier-${integration.id}`} name="messaging_limit_tier" defaultValue={tier ?? ''}>
            <option value="">{tier ? 'Keep the current tier' : 'Not known'}</option>
            {TIERS.map(([value, label]) => (
              <option key={value} value={value}>
                {label} recipients per 24 hours
              </option>
            ))}
          </select>
        </div>
        <ErrorNote error={updating.error} />
        <Button type="submit" busy={updating.fetching}>
          Save limits
        </Button>
      </form>
      {integration.provider === 'whatsapp' ? (
        <>
          <ErrorNote error={refreshing.error} />
          <Button type="button" busy={refreshing.fetching} onClick={() => void refresh({ id: integration.id })}>
            Read from the provider
          </Button>
        </>
      ) : null}
    </section>
  );
}

// The signed-in person's availability (online or away): round-robin assignment by automations skips people who
// are away, so this is how a person stops new conversations coming to them.
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, ErrorNote } from '../../ui.js';

const MINE = gql`
  query MyAvailability {
    viewer {
      user {
        id
        availability
      }
    }
  }
`;

const SET = gql`
  mutation AvailabilitySet($availability: String!) {
    availabilityUpdate(availability: $availability) {
      id
      availability
    }
  }
`;

export function AvailabilityCard() {
  const [mine] = useQuery<{ viewer: { user: { id: string; availability: string } | null } }>({ query: MINE });
  const [setting, set] = useMutation<{ availabilityUpdate: { id: string; availability: string } }>(SET);
  const availability: string | undefined = setting.data?.availabilityUpdate.availability ?? mine.data?.viewer.user?.availability;
  const next = availability === 'away' ? 'online' : 'away';
  return (
    <section class="card" aria-label="Availability">
      <h2>Availability</h2>
      <p role="status">You are {availability ?? '…'}. Automations assign new conversations in turn only to people who are online.</p>
      <ErrorNote error={mine.error ?? setting.error} />
      <Button type="button" busy={setting.fetching} onClick={() => void set({ availability: next })}>
        Set {next}
      </Button>
    </section>
  );
}

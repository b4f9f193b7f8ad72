// Teams on the Team page: each team with its capacity (open conversations per person for round-robin assignment by
// automations) and its members with their availability (online or away, set by each person on their Account page);
// create, rename, change capacity, delete, add and remove members. Changing teams needs the `settings` scope.
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, EmptyNote, ErrorNote, Field, formValues } from '../../ui.js';

type Member = { id: string; name: string | null; email: string; availability: string };
type Team = { id: string; name: string; capacity: number; members: Member[]; waiting_count: number };
export type TeamCandidate = { id: string; name: string | null; email: string };

const TEAMS = gql`
  query TeamPageTeams {
    teams { id name capacity waiting_count members { id name email availability } }
  }
`;
const CREATE = gql`
  mutation TeamPageTeamCreate($name: String!, $capacity: Int) {
    teamCreate(name: $name, capacity: $capacity) { id }
  }
`;
const UPDATE = gql`
  mutation TeamPageTeamUpdate($id: ID!, $name: String, $capacity: Int) {
    teamUpdate(id: $id, name: $name, capacity: $capacity) { id name capacity }
  }
`;
const DELETE = gql`
  mutation TeamPageTeamDelete($id: ID!) {
    teamDelete(id: $id) { id }
  }
`;
const MEMBER_ADD = gql`
  mutation TeamPageMemberAdd($id: ID!, $user_id: ID!) {
    teamMemberAdd(id: $id, user_id: $user_id) { id }
  }
`;
const MEMBER_REMOVE = gql`
  mutation TeamPageMemberRemove($id: ID!, $user_id: ID!) {
    teamMemberRemove(id: $id, user_id: $user_id) { id }
  }
`;

const personName = (person: { name: string | null; email: string }) => person.name ?? person.email;

function TeamCard({ team, people, refetch }: { team: Team; people: TeamCandidate[]; refetch: () => void }) {
  const [updating, update] = useMutation(UPDATE);
  const [deleting, remove] = useMutation(DELETE);
  const [adding, add] = useMutation(MEMBER_ADD);
  const [removing, removeMember] = useMutation(MEMBER_REMOVE);
  const outside = people.filter((person) => !team.members.some((member) => member.id === person.id));
  return (
    <section class="card" aria-label={`Team ${team.name}`} data-testid="team">
      <h3>{team.name}</h3>
      <p>
        Up to {team.capacity} open conversations per person; {team.waiting_count} waiting for a free person.
      </p>
      <form
        aria-label={`Change team ${team.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          const values = formValues(event.currentTarget);
          void update({ id: team.id, name: values['name'], capacity: Number(values['capacity']) }).then(refetch);
        }}
      >
        <Field label={`Name of ${team.name}`} name="name" required defaultValue={team.name} />
        <Field
          label={`Capacity of ${team.name}`}
          name="capacity"
          type="number"
          min={1}
          max={1000}
          required
          defaultValue={String(team.capacity)}
        />
        <Button type="submit" busy={updating.fetching}>
          Save {team.name}
        </Button>
      </form>
      <ul aria-label={`Members of ${team.name}`}>
        {team.members.map((member) => (
          <li key={member.id} data-testid="team-member">
            {personName(member)} — {member.availability}{' '}
            <button type="button" class="link" onClick={() => void removeMember({ id: team.id, user_id: member.id }).then(refetch)}>
              Remove {personName(member)} from {team.name}
            </button>
          </li>
        ))}
      </ul>
      <EmptyNote items={team.members}>No members yet.</EmptyNote>
      {outside.length > 0 ? (
        <form
          aria-label={`Add to team ${team.name}`}
          onSubmit={(event) => {
            event.preventDefault();
            void add({ id: team.id, user_id: formValues(event.currentTarget)['user_id'] }).then(refetch);
          }}
        >
          <label for={`team-add-${team.id}`}>Person to add to {team.name}</label>
          <select id={`team-add-${team.id}`} name="user_id">
            {outside.map((person) => (
              <option key={person.id} value={person.id}>
                {personName(person)}
              </option>
            ))}
          </select>
          <Button type="submit" busy={adding.fetching}>
            Add to {team.name}
          </Button>
        </form>
      ) : null}
      <ErrorNote error={updating.error ?? deleting.error ?? adding.error ?? removing.error} />
      <button
        type="button"
        onClick={() => {
          if (confirm(`Delete team ${team.name}? Conversations waiting for it stay unassigned.`))
            void remove({ id: team.id }).then(refetch);
        }}
      >
        Delete team {team.name}
      </button>
    </section>
  );
}

export function TeamsSection({ people }: { people: TeamCandidate[] }) {
  const [teams, refresh] = useQuery<{ teams: Team[] }>({ query: TEAMS });
  const [creating, create] = useMutation(CREATE);
  const refetch = () => refresh({ requestPolicy: 'network-only' });
  return (
    <section aria-label="Teams">
      <h2>Teams</h2>
      <p class="hint">Automations assign conversations in turn among a team's people who are online.</p>
      <form
        class="card"
        aria-label="New team"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const values = formValues(form);
          void create({ name: values['name'], capacity: values['capacity'] ? Number(values['capacity']) : null }).then((answer) => {
            if (answer.data) form.reset();
            refetch();
          });
        }}
      >
        <Field label="Team name" name="name" required />
        <Field label="Capacity per person" name="capacity" type="number" min={1} max={1000} placeholder="10" />
        <ErrorNote error={creating.error ?? teams.error} />
        <Button type="submit" busy={creating.fetching}>
          Create the team
        </Button>
      </form>
      <EmptyNote items={teams.data?.teams}>No teams yet — create one above.</EmptyNote>
      {teams.data?.teams.map((team) => (
        <TeamCard key={team.id} team={team} people={people} refetch={refetch} />
      ))}
    </section>
  );
}

// Settings → Team: people and their roles (owner, admin, member), invitations by one-time link, removal, and teams.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { session } from '../../session.js';
import { TeamsSection } from './teams.js';
import { Button, EmptyNote, ErrorNote, Field, Page, ShownOnce, Time, formValues, ListTable } from '../../ui.js';

const ROLES = ['owner', 'admin', 'member'];

type Person = { id: string; name: string | null; email: string; role: string | null; status: string };
type Invitation = {
  id: string;
  email: string;
  role: string;
  expires_at: string;
  invited_by: { name: string | null; email: string } | null;
};

const TEAM = gql`
  query Team {
    users {
      id
      name
      email
      role
      status
    }
    invitations {
      id
      email
      role
      expires_at
      invited_by {
        name
        email
      }
    }
  }
`;
const INVITE = gql`
  mutation Invite($email: String!, $role: String!) {
    userInvite(email: $email, role: $role) {
      url
    }
  }
`;
const ROLE = gql`
  mutation Role($id: ID!, $role: String!) {
    userRoleUpdate(id: $id, role: $role) {
      id
      role
    }
  }
`;
const REMOVE = gql`
  mutation Remove($id: ID!) {
    userRemove(id: $id) {
      id
      status
    }
  }
`;
const REVOKE = gql`
  mutation InvitationRevoke($id: ID!) {
    invitationRevoke(id: $id) {
      id
    }
  }
`;

export function TeamPage() {
  const me = session.value?.user;
  const [team, refresh] = useQuery<{ users: Person[]; invitations: Invitation[] }>({ query: TEAM });
  const [inviting, invite] = useMutation<{ userInvite: { url: string } }>(INVITE);
  const [changing, changeRole] = useMutation(ROLE);
  const [removing, remove] = useMutation(REMOVE);
  const [revoking, revoke] = useMutation(REVOKE);
  const [link, setLink] = useState('');
  const refetch = () => refresh({ requestPolicy: 'network-only' });
  const roles = me?.role === 'owner' ? ROLES : ROLES.filter((role) => role !== 'owner');
  return (
    <Page title="Team">
      <form
        class="card"
        aria-label="Invite"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          void invite({ email: formValues(form)['email'], role: formValues(form)['role'] }).then((answer) => {
            if (answer.data) {
              setLink(answer.data.userInvite.url);
              form.reset();
            }
            refetch();
          });
        }}
      >
        <h2>Invite someone</h2>
        <Field label="E-mail" name="email" type="email" required />
        <label for="invite-role">Role</label>
        <select id="invite-role" name="role" defaultValue="member">
          {roles.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
        <ErrorNote error={inviting.error} />
        <Button type="submit" busy={inviting.fetching}>
          Create invitation link
        </Button>
      </form>
      {link ? <ShownOnce label="Send this one-time link to the person you invite; it works for 7 days." value={link} /> : null}
      <ErrorNote error={team.error ?? changing.error ?? removing.error ?? revoking.error} />
      <ListTable label="People" columns={['Name', 'E-mail', 'Role', '']}>
        {team.data?.users
          .filter((person) => person.status === 'active')
          .map((person) => (
            <tr key={person.id}>
              <td>{person.name ?? '—'}</td>
              <td>{person.email}</td>
              <td>
                <select
                  aria-label={`Role of ${person.email}`}
                  value={person.role ?? 'member'}
                  disabled={person.id === me?.id}
                  onChange={(event) => void changeRole({ id: person.id, role: event.currentTarget.value }).then(refetch)}
                >
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                {person.id === me?.id ? null : (
                  <button
                    type="button"
                    onClick={() => {
                      if (confirm(`Remove ${person.email}? They are signed out and their keys stop working.`))
                        void remove({ id: person.id }).then(refetch);
                    }}
                  >
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
      </ListTable>
      <h2>Open invitations</h2>
      <EmptyNote items={team.data?.invitations}>No open invitations — invite someone above.</EmptyNote>
      <ul>
        {team.data?.invitations.map((invitation) => (
          <li key={invitation.id}>
            {invitation.email} as {invitation.role}, until <Time value={invitation.expires_at} />{' '}
            <button type="button" class="link" onClick={() => void revoke({ id: invitation.id }).then(refetch)}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <TeamsSection people={team.data?.users.filter((person) => person.status === 'active') ?? []} />
    </Page>
  );
}

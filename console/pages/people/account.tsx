// Settings → Account: the signed-in person's availability, and their password (changing it ends their other sessions).
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation } from '@urql/preact';
import { session } from '../../session.js';
import { Button, ErrorNote, Field, Page, formValues } from '../../ui.js';
import { AvailabilityCard } from './availability.js';

const CHANGE = gql`
  mutation PasswordChange($current_password: String!, $new_password: String!) {
    passwordChange(current_password: $current_password, new_password: $new_password)
  }
`;

export function AccountPage() {
  const [changing, change] = useMutation(CHANGE);
  const [done, setDone] = useState(false);
  const me = session.value;
  return (
    <Page title="Account">
      <p>
        Signed in as <strong>{me?.user.email}</strong> ({me?.user.role}) in {me?.workspace.name}.
      </p>
      <AvailabilityCard />
      <form
        class="card"
        aria-label="Change password"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          setDone(false);
          void change({ current_password: formValues(form)['current_password'], new_password: formValues(form)['new_password'] }).then(
            (answer) => {
              if (!answer.error) {
                setDone(true);
                form.reset();
              }
            },
          );
        }}
      >
        <h2>Change password</h2>
        <Field label="Current password" name="current_password" type="password" required autoComplete="current-password" />
        <Field
          label="New password"
          name="new_password"
          type="password"
          required
          minLength={10}
          autoComplete="new-password"
          hint="At least 10 characters. Your other sessions are signed out."
        />
        <ErrorNote error={changing.error} />
        <Button type="submit" busy={changing.fetching}>
          Change password
        </Button>
        {done ? <p role="status">Your password is changed.</p> : null}
      </form>
    </Page>
  );
}

// Signing in, the first run's setup (the link `npm start` prints) and accepting an invitation. The one-time tokens
// arrive in the URL fragment, which never reaches a server log or a Referer header.
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { openSession, type OpenedSession } from '../../session.js';
import { Button, ErrorNote, Field, ShownOnce, formValues } from '../../ui.js';

function tokenFromFragment(): string {
  return decodeURIComponent(window.location.hash.slice(1));
}

function useSubmit(path: '/auth/sign-in' | '/auth/setup' | '/auth/invitations/accept', after: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [shown, setShown] = useState<OpenedSession | null>(null);
  const { route } = useLocation();
  const enter = (opened: OpenedSession) => {
    opened.enter();
    history.replaceState(null, '', after);
    route(after, true);
  };
  const submit = async (event: Event, body: Record<string, string>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const opened = await openSession(path, body);
      // The setup's sandbox secret is shown before the console is entered: it is never answered again.
      if (opened.newIntegration) setShown(opened);
      else enter(opened);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit, shown, enter };
}

function values(event: Event): Record<string, string> {
  return formValues(event.currentTarget as HTMLFormElement);
}

export function SignInPage() {
  const { busy, error, submit } = useSubmit(
    '/auth/sign-in',
    window.location.pathname === '/sign-in' ? '/inbox' : `${window.location.pathname}${window.location.search}`,
  );
  return (
    <main class="auth" id="main">
      <h1>Sign in</h1>
      <form onSubmit={(event) => void submit(event, values(event))}>
        <Field label="E-mail" name="email" type="email" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <ErrorNote error={error} />
        <Button type="submit" busy={busy}>
          Sign in
        </Button>
      </form>
    </main>
  );
}

/** The person's own fields when they create their account: by the setup link, or by an invitation (whose e-mail is
 * the invitation's). */
function NewAccountFields({ withEmail = false }: { withEmail?: boolean }) {
  return (
    <>
      <Field label="Your name" name="name" required autoComplete="name" />
      {withEmail && <Field label="Your e-mail" name="email" type="email" required autoComplete="username" />}
      <Field
        label="Password"
        name="password"
        type="password"
        required
        minLength={10}
        autoComplete="new-password"
        hint="At least 10 characters."
      />
    </>
  );
}

export function SetupPage() {
  const { busy, error, submit, shown, enter } = useSubmit('/auth/setup', '/settings/api-keys');
  const token = tokenFromFragment();
  return (
    <main class="auth" id="main">
      <h1>Set up your workspace</h1>
      {shown?.newIntegration ? (
        <section aria-label="Your sandbox integration">
          <p>
            The workspace has a sandbox integration to try messaging without a WhatsApp number. Its app secret signs test webhooks
            (X-Hub-Signature-256); Settings → Integrations can rotate it.
          </p>
          <ShownOnce label="Sandbox app secret." value={shown.newIntegration.app_secret} />
          <Button type="button" onClick={() => enter(shown)}>
            Continue to API keys
          </Button>
        </section>
      ) : token ? (
        <form onSubmit={(event) => void submit(event, { ...values(event), token })}>
          <Field label="Workspace name" name="workspace_name" required autoComplete="organization" />
          <NewAccountFields withEmail />
          <ErrorNote error={error} />
          <Button type="submit" busy={busy}>
            Create the workspace
          </Button>
        </form>
      ) : (
        <p role="alert">Open the setup link that `npm start` printed in its log: it ends with #, followed by a one-time code.</p>
      )}
    </main>
  );
}

export function InvitePage() {
  const { busy, error, submit } = useSubmit('/auth/invitations/accept', '/inbox');
  const token = tokenFromFragment();
  return (
    <main class="auth" id="main">
      <h1>Join the workspace</h1>
      <form onSubmit={(event) => void submit(event, { ...values(event), token })}>
        <NewAccountFields />
        <ErrorNote error={error} />
        <Button type="submit" busy={busy}>
          Join
        </Button>
      </form>
    </main>
  );
}

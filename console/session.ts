// The signed-in person, as /auth answers it (facades/auth/routes.ts). The session token lives in an HttpOnly cookie
// the console never sees; the CSRF token it must send back on every GraphQL write is kept here.
import { signal } from '@preact/signals';

export type Session = {
  user: { id: string; name: string | null; email: string; role: string | null };
  workspace: { id: string; name: string };
  scopes: string[];
  csrf_token: string;
};

export type ApiError = { code: string; message: string; details?: Record<string, unknown>; request_id?: string };

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: ApiError,
  ) {
    super(error.message);
  }
}

/** undefined while loading; null when signed out. */
export const session = signal<Session | null | undefined>(undefined);
/** True when the service has no workspace yet: the setup link printed by `npm start` is the way in. */
export const setupRequired = signal(false);

export function csrfToken(): string {
  return session.value?.csrf_token ?? '';
}

export type Permission =
  'keys' | 'team' | 'integrations' | 'webhooks' | 'agent' | 'analytics' | 'automations' | 'scheduling' | 'campaigns' | 'settings';

export function canManage(current: Session | null | undefined, permission: Permission): boolean {
  return current?.scopes.includes(permission) ?? false;
}

async function answer(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const body = (await response.json()) as { error?: ApiError };
  if (!response.ok) throw new AuthError(response.status, body.error ?? { code: 'INTERNAL', message: response.statusText });
  return body;
}

/** Why the session could not be read just now, and when the console asks again; null while nothing went wrong. */
export const sessionDelay = signal<{ message: string; retrySeconds: number } | null>(null);

/** Without a Retry-After (the service unreachable, or an answer that gives none), the console asks again after this. */
const RETRY_SECONDS = 5;

/** Reads the session; a refusal (the rate limit's 429, a 503) or an unreachable service is shown and the read is
 * tried again after the answer's Retry-After, so the console never stays on "Loading" with nothing said. */
export async function loadSession(): Promise<void> {
  const response = await fetch('/auth/session', { credentials: 'same-origin' }).catch(() => null);
  if (!response) return tryAgainLater('The service could not be reached', RETRY_SECONDS);
  if (response.status === 401) {
    const body = (await response.json()) as { error: ApiError };
    setupRequired.value = body.error.details?.['setup_required'] === true;
    session.value = null;
  } else if (response.ok) {
    session.value = (await response.json()) as Session;
  } else {
    const body = (await response.json().catch(() => ({}))) as { error?: ApiError };
    const retryAfter = Number(response.headers.get('retry-after'));
    return tryAgainLater(body.error?.message ?? response.statusText, retryAfter > 0 ? retryAfter : RETRY_SECONDS);
  }
  sessionDelay.value = null;
}

function tryAgainLater(message: string, retrySeconds: number): void {
  sessionDelay.value = { message, retrySeconds };
  setTimeout(() => void loadSession(), retrySeconds * 1000);
}

async function post(path: string, body: unknown): Promise<unknown> {
  return answer(
    await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

/** Sign-in, setup and invitation acceptance all answer the new session. */
/** What /auth/setup adds to the session, this once: the sandbox integration it created and its app secret. */
export type NewIntegration = { integration_id: string; app_secret: string };

/** An opened session, entered into the console by `enter` (the setup page shows its new secret first). */
export type OpenedSession = { newIntegration: NewIntegration | null; enter: () => void };

export async function openSession(
  path: '/auth/sign-in' | '/auth/setup' | '/auth/invitations/accept',
  body: unknown,
): Promise<OpenedSession> {
  const { new_integration: newIntegration, ...signedIn } = (await post(path, body)) as Session & { new_integration?: NewIntegration };
  return {
    newIntegration: newIntegration ?? null,
    enter: () => {
      session.value = signedIn;
      setupRequired.value = false;
    },
  };
}

export async function signOut(): Promise<void> {
  await post('/auth/sign-out', {});
  session.value = null;
}

// Per-request facts established by the HTTP pipeline (request id, authenticated caller) and read by the
// GraphQL context factory. Keyed by the Request object so nothing leaks between requests.
import type { Actor } from '../auth/actor.js';

type RequestState = {
  requestId: string;
  actor: Actor | null;
  startedAt: number;
  /** Set when a session cookie authenticated the request: the token its writes carry (pages embed it). */
  csrfToken?: string;
  /** Set by the console's /auth routes alone, for the sign-in operation they run: the client's address, which
   * the sign-in lock-out counts. Its presence is what lets the sign-in fields run (schema/builder.ts). */
  signInDoor?: { clientAddress: string };
  /** Set by the /oauth routes alone (facades/oauth/routes.ts): lets the OAuth endpoint fields run. */
  oauthDoor?: true;
};

const states = new WeakMap<Request, RequestState>();

export function requestState(request: Request): RequestState {
  let state = states.get(request);
  if (!state) {
    state = { requestId: '', actor: null, startedAt: performance.now() };
    states.set(request, state);
  }
  return state;
}

/** Keeps the facts when a plugin replaces the Request (the body-size limit does, with the body it read). */
export function carryRequestState(from: Request, to: Request): void {
  states.set(to, requestState(from));
}

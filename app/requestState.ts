// Per-request facts established by the HTTP pipeline (request id, authenticated caller) and read by the
// GraphQL context factory. Keyed by the Request object so nothing leaks between requests.
import type { Actor } from '../resolvers/context.js';

type RequestState = { requestId: string; actor: Actor | null };

const states = new WeakMap<Request, RequestState>();

export function requestState(request: Request): RequestState {
  let state = states.get(request);
  if (!state) {
    state = { requestId: '', actor: null };
    states.set(request, state);
  }
  return state;
}

// Yoga runs every plugin's onRequest for every request, one after another, and an async hook answers a promise even
// for the requests it lets through: each such promise costs every request another turn through Yoga's hook chain
// (its promise helpers' closures and a microtask), and the pipeline has a dozen route hooks. So a route's hook
// decides synchronously whether the request is its own, and only then goes async.
import type { Plugin } from 'graphql-yoga';

type OnRequestPayload = Parameters<NonNullable<Plugin['onRequest']>>[0];

/** An onRequest hook that runs `answer` for the requests `select` picks (what it returns, when truthy, is handed to
 * `answer`) and lets the others through without a promise. */
export function routeHook<Match>(
  select: (payload: OnRequestPayload) => Match | null | undefined | false,
  answer: (payload: OnRequestPayload, match: Match) => Promise<void>,
): NonNullable<Plugin['onRequest']> {
  return (payload) => {
    const match = select(payload);
    if (match === null || match === undefined || match === false) return;
    return answer(payload, match);
  };
}

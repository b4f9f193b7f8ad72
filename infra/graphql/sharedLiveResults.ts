// One answer per live event for every subscriber who would get the same one. A subscription's events come from the
// event hub (resolvers/events/hub.ts), which hands the same event object to each subscriber of a workspace; graphql-js
// then runs the subscription's document once per subscriber per event, which for a thousand dashboards on one
// workspace was most of the time between a message's arrival and the last subscriber's update. Here a subscription's
// events are executed once per (event, document, operation, variables, caller) and the answer is shared: the same
// parsed document (Yoga's parser cache keeps one per query text) with the same variables, asked by the same caller
// (the same key or person, with the same scopes), answers the same. Anything else (another caller, other variables, a
// replayed event, which each subscriber reads on its own) executes on its own, as before.
// Written here because neither graphql-js nor Yoga shares a subscription's per-event execution between subscribers.
import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Actor } from '../auth/actor.js';

type Answers = WeakMap<DocumentNode, Map<string, Promise<ExecutionResult>>>;

/** Who asks and with what: two subscribers with the same key get the same answer to the same document. */
function callerKey(args: ExecutionArgs): string | null {
  const { actor } = args.contextValue as { actor: Actor | null };
  if (!actor) return null;
  const variables = JSON.stringify(args.variableValues ?? {});
  return JSON.stringify([
    args.operationName ?? '',
    variables,
    actor.workspaceId,
    actor.keyId,
    actor.userId,
    actor.session?.role ?? null,
    actor.agentRunId ?? null,
    [...actor.scopes].sort(),
  ]);
}

function isAsyncIterable(value: unknown): value is AsyncIterableIterator<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

export function useSharedLiveResults(): Plugin {
  const answersByEvent = new WeakMap<object, Answers>();

  function answer(event: unknown, args: ExecutionArgs, caller: string | null): Promise<ExecutionResult> {
    const run = async () => execute({ ...args, rootValue: event });
    if (caller === null || typeof event !== 'object' || event === null) return run();
    let answers = answersByEvent.get(event);
    if (!answers) answersByEvent.set(event, (answers = new WeakMap()));
    let byCaller = answers.get(args.document);
    if (!byCaller) answers.set(args.document, (byCaller = new Map<string, Promise<ExecutionResult>>()));
    let answered = byCaller.get(caller);
    if (!answered) byCaller.set(caller, (answered = run()));
    return answered;
  }

  /** graphql-js's `subscribe` (the source stream, then each event executed with the event as root value), with the
   * answers shared; ending the stream ends the source at once, even while it waits for its next event. */
  async function subscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
    const source = await createSourceEventStream(args);
    if (!isAsyncIterable(source)) return source as ExecutionResult;
    const caller = callerKey(args);
    const done = { done: true, value: undefined } as const;
    const iterator: AsyncIterableIterator<ExecutionResult> = {
      [Symbol.asyncIterator]: () => iterator,
      async next() {
        const step = await source.next();
        return step.done ? done : { done: false, value: await answer(step.value, args, caller) };
      },
      async return() {
        await source.return?.();
        return done;
      },
      async throw(error: unknown) {
        await source.return?.();
        throw error;
      },
    };
    return iterator;
  }

  return { onSubscribe: ({ setSubscribeFn }) => setSubscribeFn(subscribe as never) };
}

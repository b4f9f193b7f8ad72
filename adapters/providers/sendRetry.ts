// Sends retried when the provider says to slow down (Meta's 130429 throughput, 131056 pair rate): at most
// `attempts` tries in all, each after a pause that doubles, and never sooner than the pair interval after a pair-rate
// refusal (Meta allows about one message to one recipient per 6 s). Any other failure is the send's outcome at
// once; the last refusal is the outcome when every try is refused.
import { setTimeout as sleep } from 'node:timers/promises';
import { META_ERRORS, ProviderError, RETRIED_CODES } from './errors.js';
import type { MessagingProvider } from './types.js';

export type SendRetryPolicy = {
  /** Tries of one send in all (1: no retry). */
  attempts: number;
  /** The pause before the first retry; doubled before each next. */
  baseDelayMs: number;
  /** The least pause after a pair-rate refusal. */
  pairIntervalMs: number;
};

function pauseBefore(retry: number, error: ProviderError, policy: SendRetryPolicy): number {
  const backoff = policy.baseDelayMs * 2 ** (retry - 1);
  return error.code === META_ERRORS.pairRate ? Math.max(backoff, policy.pairIntervalMs) : backoff;
}

export function retryingSend(send: MessagingProvider['send'], policy: SendRetryPolicy): MessagingProvider['send'] {
  return async (message) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send(message);
      } catch (error) {
        const retried = error instanceof ProviderError && error.code !== null && RETRIED_CODES.has(error.code);
        if (!retried || attempt >= policy.attempts) throw error;
        await sleep(pauseBefore(attempt, error, policy));
      }
    }
  };
}

// The retry schedule: after attempt n fails, attempt n + 1 is due after the n-th delay of the schedule
// (WEBHOOK_RETRY_DELAYS), varied by ±20% so that receivers recovering from an outage are not hit in step.
// A delivery fails for good when the attempt numbered max_attempts fails: the schedule's length + 1 for an
// event, 1 for a test event or a redelivery by hand.
import type { AttemptResult } from './sender.js';
import type { AttemptVerdict, ClaimedDelivery } from './queue.js';

const JITTER = 0.2;

export function attemptsAllowed(delaysMs: readonly number[]): number {
  return delaysMs.length + 1;
}

export function verdictOf(
  result: AttemptResult,
  delivery: Pick<ClaimedDelivery, 'attempt_count' | 'max_attempts'>,
  delaysMs: readonly number[],
  random: () => number = Math.random,
): AttemptVerdict {
  if (result.succeeded) return { kind: 'succeeded' };
  if (delivery.attempt_count >= delivery.max_attempts || delaysMs.length === 0) return { kind: 'failed' };
  const delay = delaysMs[Math.min(delivery.attempt_count, delaysMs.length) - 1] as number;
  return { kind: 'retry', delayMs: Math.round(delay * (1 - JITTER + 2 * JITTER * random())) };
}

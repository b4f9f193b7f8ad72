// The provider errors the sandbox (and the tests' Graph API fake) produce on demand, so that every path of a
// provider error is testable offline: a send to +1555013xxxx fails with Meta's code whose last four digits are
// xxxx (+15550131026 → 131026), with Meta's title and details. A throughput limit (130429) passes on the
// message's second attempt; a pair rate limit (131056) never passes there, so a send exhausts its retries.
import { META_ERRORS, type ProviderFailureReason } from './errors.js';

/** The digits (wa_id, without +) of the sandbox's failing recipients, before the code's last four digits. */
export const SANDBOX_ERROR_NUMBER_PREFIX = '1555013';

export type SandboxFailure = {
  code: string;
  reason: ProviderFailureReason;
  title: string;
  details: string;
  /** How many attempts of one message fail; later ones pass. */
  failingAttempts: number;
};

const ALWAYS = Number.POSITIVE_INFINITY;

export const SANDBOX_FAILURES: readonly SandboxFailure[] = [
  {
    code: META_ERRORS.windowClosed,
    reason: 'window_closed',
    title: 'Re-engagement message',
    details: 'More than 24 hours have passed since the recipient last replied to the sender number.',
    failingAttempts: ALWAYS,
  },
  {
    code: META_ERRORS.undeliverable,
    reason: 'recipient',
    title: 'Message undeliverable',
    details: 'Unable to deliver message: the recipient phone number is not a WhatsApp phone number, or cannot receive this message.',
    failingAttempts: ALWAYS,
  },
  {
    code: META_ERRORS.marketingFrequencyCap,
    reason: 'recipient',
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
    failingAttempts: ALWAYS,
  },
  {
    code: META_ERRORS.marketingOptedOut,
    reason: 'recipient',
    title: 'Unable to deliver the message',
    details: 'This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
    failingAttempts: ALWAYS,
  },
  {
    code: META_ERRORS.throughput,
    reason: 'rate_limited',
    title: 'Rate limit hit',
    details: 'Cloud API message throughput has been reached.',
    failingAttempts: 1,
  },
  {
    code: META_ERRORS.pairRate,
    reason: 'rate_limited',
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details: 'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
    failingAttempts: ALWAYS,
  },
];

/** The failure a send to `to` (digits) meets, whatever the attempt; null for an ordinary recipient. */
export function sandboxFailureOf(to: string): SandboxFailure | null {
  if (to.length !== SANDBOX_ERROR_NUMBER_PREFIX.length + 4 || !to.startsWith(SANDBOX_ERROR_NUMBER_PREFIX)) return null;
  const digits = to.slice(SANDBOX_ERROR_NUMBER_PREFIX.length);
  return SANDBOX_FAILURES.find((failure) => failure.code.endsWith(digits)) ?? null;
}

/** Counts each message's attempts (by its reference): whether this one fails. */
export function createAttemptCounter() {
  const attempts = new Map<string, number>();
  return {
    fails(failure: SandboxFailure, reference: string): boolean {
      const attempt = (attempts.get(reference) ?? 0) + 1;
      if (attempt > failure.failingAttempts) {
        attempts.delete(reference);
        return false;
      }
      if (Number.isFinite(failure.failingAttempts)) attempts.set(reference, attempt);
      return true;
    },
  };
}

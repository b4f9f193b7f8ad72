// The failure of a provider call, in provider-neutral terms. Resolvers turn it into PROVIDER_ERROR (502);
// `reason` tells clients what kind of failure it was, `code` is the provider's own code (Meta's, unchanged),
// `details` the provider's explanation. META_ERRORS names the codes the send pipeline acts on.

export const PROVIDER_FAILURE_REASONS = [
  'authentication',
  'rate_limited',
  'window_closed',
  'template',
  'recipient',
  'invalid_request',
  'unavailable',
  /** The provider does not have the media file (WhatsApp keeps an inbound file for 30 days). */
  'media_not_found',
] as const;
export type ProviderFailureReason = (typeof PROVIDER_FAILURE_REASONS)[number];

const RETRYABLE: ReadonlySet<ProviderFailureReason> = new Set(['rate_limited', 'unavailable']);

/** Meta's error codes that change what happens to a contact, a conversation or a send (docs/api-decisions.md). */
export const META_ERRORS = {
  /** Re-engagement message: the 24-hour window is closed; the conversation's window is marked closed. */
  windowClosed: '131047',
  /** Message undeliverable: final for this recipient. */
  undeliverable: '131026',
  /** Marketing frequency cap ("healthy ecosystem engagement"): final for this message. */
  marketingFrequencyCap: '131049',
  /** The recipient stopped marketing messages from the business: the contact is opted out (source provider). */
  marketingOptedOut: '131050',
  /** Cloud API throughput reached: retried with backoff. */
  throughput: '130429',
  /** Pair rate limit (too many messages to one recipient): retried no sooner than the pair interval. */
  pairRate: '131056',
} as const;

/** The codes the send pipeline retries, with backoff; a message that failed with one may be sent again later. */
export const RETRIED_CODES: ReadonlySet<string> = new Set([META_ERRORS.throughput, META_ERRORS.pairRate]);

/** Meta's codes of rate limits, and of the service unavailable: failures that may pass by themselves. */
export const RATE_LIMITED_CODES: ReadonlySet<string> = new Set(['4', '17', '32', '613', '80007', '130429', '131048', '131056']);
export const UNAVAILABLE_CODES: ReadonlySet<string> = new Set(['1', '2', '131000', '131016', '133004']);

/** Whether a failure with this provider code may pass if the message is sent again later. */
export function isRetryableCode(code: string | null): boolean {
  return code !== null && (RATE_LIMITED_CODES.has(code) || UNAVAILABLE_CODES.has(code));
}

export class ProviderError extends Error {
  readonly provider: string;
  readonly code: string | null;
  readonly reason: ProviderFailureReason;
  /** The provider's explanation (Meta's error_data.details), when it gave one. */
  readonly details: string | null;

  constructor(provider: string, reason: ProviderFailureReason, message: string, code: string | null = null, details: string | null = null) {
    super(message);
    this.name = 'ProviderError';
    this.provider = provider;
    this.reason = reason;
    this.code = code;
    this.details = details;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.reason);
  }
}

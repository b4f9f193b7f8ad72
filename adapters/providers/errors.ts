// The failure of a provider call, in provider-neutral terms. Resolvers turn it into PROVIDER_ERROR (502);
// `reason` tells clients what kind of failure it was, `code` is the provider's own code for support.

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

export class ProviderError extends Error {
  readonly provider: string;
  readonly code: string | null;
  readonly reason: ProviderFailureReason;

  constructor(provider: string, reason: ProviderFailureReason, message: string, code: string | null = null) {
    super(message);
    this.name = 'ProviderError';
    this.provider = provider;
    this.reason = reason;
    this.code = code;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.reason);
  }
}

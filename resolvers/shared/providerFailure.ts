// A provider's failure as the domain error clients see: 502 PROVIDER_ERROR, with what kind of failure it
// was and whether retrying may help.
import { ProviderError } from '../../adapters/providers/errors.js';
import { DomainError } from './errors.js';

export function providerFailure(error: unknown, details: Record<string, unknown> = {}): unknown {
  if (!(error instanceof ProviderError)) return error;
  const explained = [error.message, error.details].filter(Boolean).join(': ');
  return new DomainError('PROVIDER_ERROR', `The messaging provider failed: ${explained}`, {
    ...details,
    provider: error.provider,
    reason: error.reason,
    provider_code: error.code,
    provider_details: error.details,
    retryable: error.retryable,
  });
}

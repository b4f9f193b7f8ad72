// The one domain error type. Resolvers throw it; each transport maps its code once (schema/shared/errors.ts for
// GraphQL and, through GraphQL, REST and MCP). Adding a code fails compilation until every mapper knows it.
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'INSUFFICIENT_SCOPE',
  'FORBIDDEN',
  'ORIGIN_NOT_ALLOWED',
  'NOT_FOUND',
  'INTEGRATION_NOT_FOUND',
  'CONFLICT',
  'INVALID_TRANSITION',
  'CONVERSATION_CLOSED',
  'CONTACT_OPTED_OUT',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
  'MESSAGING_WINDOW_CLOSED',
  'TEMPLATE_NOT_APPROVED',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'PROVIDER_ERROR',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorDetails = Record<string, unknown>;

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
  }
}

export function notFound(what: string): DomainError {
  return new DomainError('NOT_FOUND', `${what} not found`);
}

/** One VALIDATION_ERROR for every surface: "Invalid <fields>", with the reason for each field in `details`. */
export function invalid(reasons: Record<string, string>): DomainError {
  return new DomainError('VALIDATION_ERROR', `Invalid ${Object.keys(reasons).join(', ')}`, reasons);
}

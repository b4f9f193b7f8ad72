// Maps domain errors to GraphQL errors once: `extensions.code`, `extensions.http.status` (which REST and MCP
// reuse) and `extensions.details`. Anything that is not a domain or GraphQL validation error is hidden
// behind a generic message so that no stack trace, SQL or internal text reaches a client; three database failures
// are the exceptions, mapped here once for every operation: a unique-index refusal is CONFLICT, a write that a
// concurrent transaction aborted (deadlock, serialization failure) is CONFLICT with a retry, and a database that
// cannot be reached is SERVICE_UNAVAILABLE (503, try again).
import { GraphQLError } from 'graphql';
import { DomainError, type ErrorCode } from '../../resolvers/shared/errors.js';
import { databaseUnavailable, uniqueViolation, writeConflict } from '../../resolvers/shared/databaseErrors.js';
import { ERROR_STATUS } from '../../infra/http/errorResponse.js';

/** The HTTP status of a domain error: the one mapping, infra/http/errorResponse.ts (a code missing there fails compilation). */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

export function toGraphQLError(error: DomainError, source?: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: source?.nodes,
    positions: source?.positions,
    path: source?.path,
    originalError: error,
    extensions: {
      code: error.code,
      http: { status: httpStatusOf(error.code) },
      ...(error.details ? { details: error.details } : {}),
    },
  });
}

/** The one answer to a write that a unique index refused (two requests racing to create the same record): 409
 * naming the fields, the workspace column left out, as the resolvers' own checks answer it. */
function conflictOn(fields: readonly string[]): DomainError {
  const named = fields.filter((field) => field !== 'company_id');
  const details = Object.fromEntries(named.map((field) => [field, 'already exists']));
  return new DomainError('CONFLICT', 'A record with these values already exists', named.length > 0 ? details : undefined);
}

export const INTERNAL_ERROR_MESSAGE = 'Unexpected server error';

/** Yoga's maskError: domain errors keep their code and message; unexpected errors are masked. */
export function maskError(error: unknown, onUnexpected: (error: unknown) => void): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const source = error instanceof GraphQLError ? error : undefined;
  if (original instanceof DomainError) return toGraphQLError(original, source);
  const unique = uniqueViolation(original);
  if (unique) return toGraphQLError(conflictOn(unique.fields), source);
  if (writeConflict(original)) {
    const conflict = new DomainError('CONFLICT', 'A concurrent change got in the way and nothing was written; try again', {
      reason: 'concurrent_write',
    });
    return toGraphQLError(conflict, source);
  }
  if (databaseUnavailable(original)) {
    return toGraphQLError(new DomainError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly'), source);
  }
  if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) {
    return error;
  }
  onUnexpected(original);
  return new GraphQLError(INTERNAL_ERROR_MESSAGE, {
    path: error instanceof GraphQLError ? error.path : undefined,
    extensions: { code: 'INTERNAL', http: { status: 500 } },
  });
}

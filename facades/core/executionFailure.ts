// The one mapper from a failure to what every facade reports: the spec's error object (code, message, details)
// and the HTTP status. Execution errors carry their code and status from schema/shared/errors.ts; one without a code
// was raised by GraphQL itself: a refused request (no data at all) is the caller's VALIDATION_ERROR, anything
// else is the service's fault and stays masked. Domain errors raised before execution (a REST request whose
// path or body cannot become variables, MCP arguments no tool takes) map by their code. REST and the public
// routes answer with failureResponse, MCP puts errorBody in its error result; both bodies are written by
// infra/http/errorResponse.ts, as the pipeline's own answers are.
import type { ExecutionResult } from 'graphql';
import { carriedErrorResponse, ERROR_STATUS, type ErrorAnswerCode } from '../../infra/http/errorResponse.js';
import type { DomainError } from '../../resolvers/shared/errors.js';
import { INTERNAL_ERROR_MESSAGE } from '../../schema/shared/errors.js';

export type Failure = { status: number; code: string; message: string; details?: Record<string, unknown> };

/** A failure the facade itself finds (a body it cannot read, a record that is not there), its status the code's. */
export function failureOf(code: ErrorAnswerCode, message: string, details?: Record<string, unknown>): Failure {
  return { status: ERROR_STATUS[code], code, message, ...(details ? { details } : {}) };
}

export const INTERNAL_FAILURE: Failure = failureOf('INTERNAL', INTERNAL_ERROR_MESSAGE);

type Extensions = { code?: unknown; http?: { status?: unknown }; details?: unknown };

export function executionFailure(result: ExecutionResult): Failure | null {
  const error = result.errors?.[0];
  if (!error) return null;
  const extensions = error.extensions as Extensions;
  if (typeof extensions.code === 'string') {
    return {
      status: typeof extensions.http?.status === 'number' ? extensions.http.status : ERROR_STATUS.INTERNAL,
      code: extensions.code,
      message: error.message,
      ...(extensions.details && typeof extensions.details === 'object' ? { details: extensions.details as Record<string, unknown> } : {}),
    };
  }
  if (result.data === undefined) return failureOf('VALIDATION_ERROR', error.message);
  return INTERNAL_FAILURE;
}

export function domainFailure(error: DomainError): Failure {
  return failureOf(error.code, error.message, error.details);
}

export function failureResponse(failure: Failure, requestId: string, headers?: Record<string, string>): Response {
  const { status, code, message, details } = failure;
  return carriedErrorResponse(status, code, message, { details, requestId, ...(headers ? { headers } : {}) });
}

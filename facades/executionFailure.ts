// How a facade reports a GraphQL execution that failed: the spec's error object (code, message, details)
// and the HTTP status, taken from the first error. Errors carry their code from schema/errors.ts; one
// without a code was raised by GraphQL itself: a refused request (a variable of the wrong type, no data at
// all) is the caller's VALIDATION_ERROR, anything else is the service's fault and stays masked.
import type { ExecutionResult } from 'graphql';
import { INTERNAL_ERROR_MESSAGE } from '../schema/errors.js';

export type ExecutionFailure = { status: number; code: string; message: string; details?: Record<string, unknown> };

type Extensions = { code?: unknown; http?: { status?: unknown }; details?: unknown };

export function executionFailure(result: ExecutionResult): ExecutionFailure | null {
  const error = result.errors?.[0];
  if (!error) return null;
  const extensions = error.extensions as Extensions;
  if (typeof extensions.code === 'string') {
    return {
      status: typeof extensions.http?.status === 'number' ? extensions.http.status : 500,
      code: extensions.code,
      message: error.message,
      ...(extensions.details && typeof extensions.details === 'object' ? { details: extensions.details as Record<string, unknown> } : {}),
    };
  }
  if (result.data === undefined) return { status: 400, code: 'VALIDATION_ERROR', message: error.message };
  return { status: 500, code: 'INTERNAL', message: INTERNAL_ERROR_MESSAGE };
}

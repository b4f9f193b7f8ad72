// The spec's error body, {"error": {code, message, details?, request_id?}}, for answers given before or
// outside GraphQL execution (authentication, unknown routes, limits) and by the REST facade, and the one mapping
// from an error code to its HTTP status: every error answer takes its status from here (the domain's codes,
// resolvers/shared/errors.ts, through schema/shared/errors.ts httpStatusOf), none states its own.
import { Response } from './fetchApi.js';

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  HTTPS_REQUIRED: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
  ORIGIN_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  INTEGRATION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  CONFLICT: 409,
  INVALID_TRANSITION: 409,
  CONVERSATION_CLOSED: 409,
  CONTACT_OPTED_OUT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  MESSAGING_WINDOW_CLOSED: 422,
  TEMPLATE_NOT_APPROVED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  PROVIDER_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** A code an error answer may carry: the domain's and the transport's own (405, 406, 415, a malformed request). */
export type ErrorAnswerCode = keyof typeof ERROR_STATUS;

export type ErrorBody = {
  error: { code: string; message: string; details?: Record<string, unknown>; request_id?: string };
};

export function errorBody(
  code: string,
  message: string,
  options: { details?: Record<string, unknown> | undefined; requestId?: string | undefined } = {},
): ErrorBody {
  return {
    error: {
      code,
      message,
      ...(options.details ? { details: options.details } : {}),
      ...(options.requestId ? { request_id: options.requestId } : {}),
    },
  };
}

type AnswerOptions = { details?: Record<string, unknown> | undefined; requestId?: string; headers?: Record<string, string> };

export function errorResponse(code: ErrorAnswerCode, message: string, options: AnswerOptions = {}): Response {
  return carriedErrorResponse(ERROR_STATUS[code], code, message, options);
}

/** The answer to a failed GraphQL execution, whose status the execution carried (extensions.http.status, set
 * from ERROR_STATUS by schema/shared/errors.ts): for facades/core/executionFailure.ts, the facades' mapper. */
export function carriedErrorResponse(status: number, code: string, message: string, options: AnswerOptions = {}): Response {
  return new Response(JSON.stringify(errorBody(code, message, options)), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...options.headers },
  });
}

/** The one 405 answer: the spec's error form, naming the methods the path takes in its message and in Allow. */
export function methodNotAllowed(request: Request, path: string, requestId: string, allow: string): Response {
  return errorResponse('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; use ${allow}`, {
    requestId,
    headers: { allow },
  });
}

/** The one 413 answer, naming the limit; `headers` for a connection better closed than read to its end. */
export function payloadTooLarge(maxBytes: number, requestId: string, headers?: Record<string, string>): Response {
  return errorResponse('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes`, {
    requestId,
    details: { max_bytes: maxBytes },
    ...(headers ? { headers } : {}),
  });
}

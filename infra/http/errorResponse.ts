// The spec's error body, {"error": {code, message, details?, request_id?}}, for answers given before or
// outside GraphQL execution (authentication, unknown routes, limits) and by the REST facade.
import { Response } from './fetchApi.js';

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

export function errorResponse(
  status: number,
  code: string,
  message: string,
  options: { details?: Record<string, unknown>; requestId?: string; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(errorBody(code, message, options)), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...options.headers },
  });
}

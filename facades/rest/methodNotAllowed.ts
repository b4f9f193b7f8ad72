// The one 405 answer of the REST facade's routes: the spec's error form, naming the methods the path takes in
// its message and in Allow.
import { errorResponse } from '../../infra/http/errorResponse.js';

export function methodNotAllowed(request: Request, path: string, requestId: string, allow: string): Response {
  return errorResponse(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; use ${allow}`, {
    requestId,
    headers: { allow },
  });
}

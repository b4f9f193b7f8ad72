// A REST request's input as the variables of its route's operation: the path's segments, and the JSON object
// body of a POST, PUT or PATCH or else the query string, whose text becomes the JSON value a client would have
// sent (schema/shared/variables.ts). Only what is REST's own is refused here: a body that is not a JSON object (415,
// 400), an undecodable path segment, a path value repeated in the body or query string, a parameter given
// twice. Whether each value fits its type is checked when the operation runs, by the rule every surface shares
// (and here too when the request is refused anyway, so that one answer names every field to fix).
import { checkVariables, fromQueryText, isList } from '../../schema/shared/variables.js';
import { invalid } from '../../resolvers/shared/errors.js';
import { domainFailure, failureOf, type Failure } from '../core/executionFailure.js';
import { readsBody } from '../core/table.js';
import type { BoundRoute } from './boundRoute.js';

/** The request as sofa-api's router hands it on: its path parameters, decoded (undecodable ones throw). */
export type RoutedRequest = Request & { params?: Record<string, string> };

export type Reading = { variables: Record<string, unknown> } | { failure: Failure };

const GIVEN_BY_PATH = 'is given by the path and must not be repeated';

export async function readVariables(bound: BoundRoute, request: RoutedRequest, url: URL): Promise<Reading> {
  let body: Record<string, unknown> | null = null;
  if (readsBody(bound.route.method)) {
    const read = await readJsonObject(request);
    if ('failure' in read) return read;
    body = read.body;
  }
  const variables: Record<string, unknown> = {};
  const reasons: Record<string, string> = {};
  for (const variable of bound.operation.variables) {
    const { name } = variable;
    if (bound.pathParameters.includes(name)) {
      if (body ? name in body : url.searchParams.has(name)) reasons[name] = GIVEN_BY_PATH;
      else {
        try {
          variables[name] = request.params?.[name];
        } catch {
          reasons[name] = 'must be a valid path segment';
        }
      }
    } else if (body) {
      // A key given as null stays: in an update, null clears a field where an omitted key leaves it.
      if (name in body) variables[name] = body[name];
    } else {
      const texts = url.searchParams.getAll(name).filter((text) => text !== '');
      if (texts.length > 1 && !isList(variable)) reasons[name] = 'must be given once';
      else if (texts.length > 0) variables[name] = fromQueryText(variable, texts);
    }
  }
  if (Object.keys(reasons).length === 0) return { variables };
  // The values' own reasons come with the request's, as execution would give them, so that one answer names
  // every field to fix.
  const valueReasons = checkVariables(
    bound.operation.variables.filter((variable) => !(variable.name in reasons)),
    variables,
  );
  const all = Object.fromEntries(
    bound.operation.variables.flatMap(({ name }) =>
      name in reasons
        ? [[name, reasons[name]!]]
        : Object.entries(valueReasons).filter(([path]) => path === name || path.startsWith(`${name}.`)),
    ),
  );
  return { failure: domainFailure(invalid(all)) };
}

/** The body as a JSON object. An empty (or blank) body is `{}` whatever its Content-Type, so actions without
 * arguments (close, reopen, assign a tag) need no header; any other body must be declared JSON. */
async function readJsonObject(request: Request): Promise<{ body: Record<string, unknown> } | { failure: Failure }> {
  const text = await request.text();
  if (text.trim() === '') return { body: {} };
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    return { failure: failureOf('UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json') };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { failure: failureOf('VALIDATION_ERROR', 'The body is not valid JSON', { body: 'must be valid JSON' }) };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { failure: failureOf('VALIDATION_ERROR', 'The body must be a JSON object', { body: 'must be a JSON object' }) };
  }
  return { body: body as Record<string, unknown> };
}

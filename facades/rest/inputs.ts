// The request side of a REST route: the JSON object body of a POST, PUT or PATCH, the path parameters, and
// the request that sofa-api is handed once the arguments are checked: the same method and path and only
// those arguments.
import { getNamedType, isScalarType, isSpecifiedScalarType, type GraphQLArgument } from 'graphql';
import type { ArgumentReading } from './arguments.js';
import { readsBody, type RestRoute } from './routes.js';
import { Request } from '../../app/fetchApi.js';

/** Why a request cannot run, as the error body will say it. */
export type RequestFailure = { status: number; code: string; message: string; details?: Record<string, string> };

type JsonBody = { body: Record<string, unknown> } | { failure: RequestFailure };

/** The body as a JSON object. An empty (or blank) body is `{}` whatever its Content-Type, so actions without
 * arguments (close, reopen, assign a tag) need no header; any other body must be declared JSON. */
export async function readJsonObject(request: Request): Promise<JsonBody> {
  const text = await request.text();
  if (text.trim() === '') return { body: {} };
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    return { failure: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The body must be application/json' } };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {
      failure: { status: 400, code: 'VALIDATION_ERROR', message: 'The body is not valid JSON', details: { body: 'must be valid JSON' } },
    };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      failure: {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'The body must be a JSON object',
        details: { body: 'must be a JSON object' },
      },
    };
  }
  return { body: body as Record<string, unknown> };
}

export function decodePathValues(raw: Record<string, string>): { values: Record<string, string>; problems: Record<string, string> } {
  const values: Record<string, string> = {};
  const problems: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      values[name] = decodeURIComponent(value);
    } catch {
      problems[name] = 'must be a valid path segment';
    }
  }
  return { values, problems };
}

/** The request sofa sees: the same method and path, and only the checked arguments it can carry (a JSON body for
 * POST, PUT and PATCH, the query string for GET and DELETE); the others go to execution as they are. */
export function canonicalRequest(
  url: URL,
  route: RestRoute,
  reading: ArgumentReading,
  pathNames: string[],
  verbatim: Record<string, unknown>,
): Request {
  const target = new URL(url.pathname, url.origin);
  const values = Object.entries(reading.values).filter(([name]) => !pathNames.includes(name) && !(name in verbatim));
  if (readsBody(route.method)) {
    return new Request(target, {
      method: route.method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(values)),
    });
  }
  for (const [name, value] of values) {
    for (const item of Array.isArray(value) ? value : [value]) {
      target.searchParams.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  return new Request(target, { method: route.method });
}

/** The arguments sofa-api cannot pass on, which the facade hands to execution itself (sofaRoutes.ts): those
 * given as null (sofa drops null variables, but in an update null clears a field) and those of custom scalar
 * types (sofa runs a scalar's `serialize` on the request value, e.g. DateTime's toISOString on a string;
 * execution runs `parseValue`, as it would for a GraphQL client's variables). */
export function verbatimArguments(reading: ArgumentReading, args: readonly GraphQLArgument[]): Record<string, unknown> {
  const custom = new Set(
    args.filter((arg) => isScalarType(getNamedType(arg.type)) && !isSpecifiedScalarType(getNamedType(arg.type))).map((arg) => arg.name),
  );
  return Object.fromEntries(Object.entries(reading.values).filter(([name, value]) => value === null || custom.has(name)));
}

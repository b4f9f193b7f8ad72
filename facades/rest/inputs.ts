// The request side of a REST route: the JSON object body of a POST, PUT or PATCH, the path parameters, and
// the request that sofa-api is handed once the arguments are checked: the same method and path and only
// those arguments.
import type { ArgumentReading } from './arguments.js';
import { readsBody, type RestRoute } from './routes.js';

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
      failure: { status: 400, code: 'VALIDATION_ERROR', message: 'The body must be a JSON object', details: { body: 'must be a JSON object' } },
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

/** The request sofa sees: the same method and path, and only the checked arguments (a JSON body for POST,
 * PUT and PATCH, the query string for GET and DELETE). */
export function canonicalRequest(url: URL, route: RestRoute, reading: ArgumentReading, pathNames: string[]): Request {
  const target = new URL(url.pathname, url.origin);
  const values = Object.entries(reading.values).filter(([name]) => !pathNames.includes(name));
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

/** The arguments given as null. sofa-api drops null variables (it treats them as absent), but in an update
 * null clears a field, so the facade hands them to execution itself (sofaRoutes.ts). */
export function nullArguments(reading: ArgumentReading): string[] {
  return Object.entries(reading.values)
    .filter(([, value]) => value === null)
    .map(([name]) => name);
}

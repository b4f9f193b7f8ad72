// The request side of a REST route: the JSON object body of a POST, the path parameters, and the request
// that sofa-api is handed once the arguments are checked: the same path and only those arguments.
import type { ArgumentReading } from './arguments.js';
import type { RestRoute } from './routes.js';

/** Why a request cannot run, as the error body will say it. */
export type RequestFailure = { status: number; code: string; message: string; details?: Record<string, string> };

type JsonBody = { body: Record<string, unknown> } | { failure: RequestFailure };

export async function readJsonObject(request: Request): Promise<JsonBody> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    return { failure: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The body must be application/json' } };
  }
  const text = await request.text();
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
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

/** The request sofa sees: the same path, and only the checked arguments (query for GET, JSON body for POST). */
export function canonicalRequest(url: URL, route: RestRoute, reading: ArgumentReading, pathNames: string[]): Request {
  const target = new URL(url.pathname, url.origin);
  const values = Object.entries(reading.values).filter(([name]) => !pathNames.includes(name));
  if (route.method === 'POST') {
    return new Request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(values)),
    });
  }
  for (const [name, value] of values) {
    for (const item of Array.isArray(value) ? value : [value]) {
      target.searchParams.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  return new Request(target, { method: 'GET' });
}


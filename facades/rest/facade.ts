// The REST facade: the routes of facades/rest/routes.ts under /api/v1, their OpenAPI document and the /docs
// reference, as one Yoga plugin placed after authentication. Beyond sofa-api it does only what sofa cannot:
// 405 and 415, strict argument checks with a reason per field, the request id in error bodies, 404 for a
// null answer, the guide form, and the deprecation headers of the customers aliases.
import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { errorResponse } from '../../app/errorResponse.js';
import { requestState } from '../../app/requestState.js';
import type { Gateway } from '../gateway.js';
import { readBodyArguments, readQueryArguments, type ArgumentReading } from './arguments.js';
import { acceptsGuideForm, GUIDE_MEDIA_TYPE, restOperations, toGuideForm, type RestOperation } from './contract.js';
import { DOCS_PATHS, docsResponse } from './docs.js';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi.js';
import { bySpecificity, fillPath, matchPath, parsePathTemplate, pathParameters, type PathTemplate } from './paths.js';
import { REST_BASE_PATH, REST_ROUTES, type RestRoute } from './routes.js';
import { createRouteHandler, type RouteHandler } from './sofaRoutes.js';

export type RestFacadeOptions = {
  gateway: Gateway;
  schema: GraphQLSchema;
  version: string;
  /** CUSTOMERS_SUNSET: announced in a Sunset header on the deprecated customers routes. */
  customersSunset?: Date | undefined;
  onUnexpected: (error: unknown) => void;
  /** The route table; REST_ROUTES unless a test mounts another. */
  routes?: readonly RestRoute[];
};

type Answer = (request: Request, url: URL, rawPathValues: Record<string, string>) => Promise<Response> | Response;
type Resource = { path: PathTemplate; methods: Map<string, Answer> };

function json(status: number, body: unknown, headers: Record<string, string> = {}, type = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': `${type}; charset=utf-8`, ...headers } });
}

function validationError(problems: Record<string, string>, requestId: string, headers: Record<string, string>): Response {
  return errorResponse(400, 'VALIDATION_ERROR', `Invalid ${Object.keys(problems).join(', ')}`, {
    details: problems,
    requestId,
    headers,
  });
}

type JsonBody = { body: Record<string, unknown> } | { failure: { status: number; code: string; message: string; details?: Record<string, string> } };

async function readJsonObject(request: Request): Promise<JsonBody> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    return { failure: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The body must be application/json' } };
  }
  const text = await request.text();
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { failure: { status: 400, code: 'VALIDATION_ERROR', message: 'The body is not valid JSON', details: { body: 'must be valid JSON' } } };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { failure: { status: 400, code: 'VALIDATION_ERROR', message: 'The body must be a JSON object', details: { body: 'must be a JSON object' } } };
  }
  return { body: body as Record<string, unknown> };
}

function decodePathValues(raw: Record<string, string>): { values: Record<string, string>; problems: Record<string, string> } {
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
function canonicalRequest(url: URL, route: RestRoute, reading: ArgumentReading, pathNames: string[]): Request {
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

function deprecationHeaders(
  route: RestRoute,
  rawPathValues: Record<string, string>,
  search: string,
  sunset: Date | undefined,
): Record<string, string> {
  if (!route.deprecated) return {};
  const successor = fillPath(parsePathTemplate(route.deprecated.successor), rawPathValues);
  return {
    deprecation: `@${Math.floor(route.deprecated.since.getTime() / 1000)}`,
    link: `<${REST_BASE_PATH}${successor}${search}>; rel="successor-version"`,
    ...(sunset ? { sunset: sunset.toUTCString() } : {}),
  };
}

function routeAnswer(operation: RestOperation, handler: RouteHandler, sunset: Date | undefined): Answer {
  const { route, field } = operation;
  return async (request, url, rawPathValues) => {
    const requestId = requestState(request).requestId;
    const headers = deprecationHeaders(route, rawPathValues, url.search, sunset);
    const path = decodePathValues(rawPathValues);
    let reading: ArgumentReading;
    if (route.method === 'GET') {
      reading = readQueryArguments(field.args, path.values, url.searchParams);
    } else {
      const read = await readJsonObject(request);
      if ('failure' in read) {
        const { status, code, message, details } = read.failure;
        return errorResponse(status, code, message, { details, requestId, headers });
      }
      reading = readBodyArguments(field.args, path.values, read.body);
    }
    const problems = { ...reading.problems, ...path.problems };
    if (Object.keys(problems).length > 0) return validationError(problems, requestId, headers);

    const answer = await handler(canonicalRequest(url, route, reading, operation.pathParameters), {
      authenticatedRequest: request,
    });
    const text = await answer.text();
    const body: unknown = text === '' ? null : JSON.parse(text);
    if (answer.status >= 400) {
      const error = (body as { error: Record<string, unknown> }).error;
      return json(answer.status, { error: { ...error, request_id: requestId } }, headers);
    }
    if (body === null) return errorResponse(404, 'NOT_FOUND', 'Not found', { requestId, headers });
    if (!operation.guide) return json(answer.status, body, headers);
    const varied = { ...headers, vary: 'Accept' };
    if (!acceptsGuideForm(request)) return json(answer.status, body, varied);
    return json(answer.status, toGuideForm(operation.guide, body), varied, GUIDE_MEDIA_TYPE);
  };
}

function checkDeprecations(operations: readonly RestOperation[], sunset: Date | undefined): void {
  for (const { route, pathParameters: names } of operations) {
    if (!route.deprecated) continue;
    const { since, successor } = route.deprecated;
    if (!operations.some((other) => other.route.path === successor && other.route.method === route.method && !other.route.deprecated)) {
      throw new Error(`REST route ${route.operationId}: its successor ${route.method} ${successor} is not a current route`);
    }
    if (pathParameters(parsePathTemplate(successor)).some((name) => !names.includes(name))) {
      throw new Error(`REST route ${route.operationId}: its successor ${successor} needs a parameter it does not have`);
    }
    if (sunset && sunset.getTime() < since.getTime()) {
      throw new Error(`CUSTOMERS_SUNSET (${sunset.toISOString()}) is earlier than the deprecation (${since.toISOString()})`);
    }
  }
}

/** The OpenAPI document of the route table over this schema (also written to docs/openapi.json by codegen). */
export function restOpenApiDocument(schema: GraphQLSchema, version: string) {
  return buildOpenApiDocument(schema, restOperations(schema, REST_ROUTES), version);
}

export function useRestFacade(options: RestFacadeOptions): Plugin {
  const operations = restOperations(options.schema, options.routes ?? REST_ROUTES);
  checkDeprecations(operations, options.customersSunset);
  const openApiDocument = JSON.stringify(buildOpenApiDocument(options.schema, operations, options.version));

  const resources = new Map<string, Resource>();
  const add = (template: string, method: string, answer: Answer) => {
    const resource = resources.get(template) ?? { path: parsePathTemplate(template), methods: new Map() };
    if (resource.methods.has(method)) throw new Error(`Two REST routes answer ${method} ${template}`);
    resource.methods.set(method, answer);
    resources.set(template, resource);
  };
  for (const operation of operations) {
    const handler = createRouteHandler(operation, options.gateway, options.onUnexpected);
    add(`${REST_BASE_PATH}${operation.route.path}`, operation.route.method, routeAnswer(operation, handler, options.customersSunset));
  }
  add(OPENAPI_PATH, 'GET', () => new Response(openApiDocument, { headers: { 'content-type': 'application/json; charset=utf-8' } }));
  for (const path of DOCS_PATHS) add(path, 'GET', () => docsResponse(path));
  const ordered = [...resources.values()].sort((a, b) => bySpecificity(a.path, b.path));

  return {
    async onRequest({ request, url, endResponse }) {
      for (const resource of ordered) {
        const rawPathValues = matchPath(resource.path, url.pathname);
        if (!rawPathValues) continue;
        const answer = resource.methods.get(request.method);
        if (answer) {
          endResponse(await answer(request, url, rawPathValues));
          return;
        }
        const allow = [...resource.methods.keys()].join(', ');
        endResponse(
          errorResponse(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${url.pathname}; use ${allow}`, {
            requestId: requestState(request).requestId,
            headers: { allow },
          }),
        );
        return;
      }
    },
  };
}

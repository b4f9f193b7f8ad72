// The REST facade: the routes of facades/rest/routes.ts under /api/v1, their OpenAPI document and the /docs
// reference, as one Yoga plugin placed after authentication. Beyond sofa-api it does only what sofa cannot:
// 405 with the path's methods and 415, strict argument checks with a reason per field (path values merged
// with the body or query string), explicit nulls, the request id in error bodies, 404 for a null answer,
// the guide form, and the deprecation headers of the customers aliases.
import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { errorResponse } from '../../app/errorResponse.js';
import { requestState } from '../../app/requestState.js';
import type { Gateway } from '../gateway.js';
import { readBodyArguments, readQueryArguments, type ArgumentReading } from './arguments.js';
import { checkDeprecations, deprecationHeaders } from './deprecation.js';
import { canonicalRequest, decodePathValues, readJsonObject, verbatimArguments, type RequestFailure } from './inputs.js';
import { acceptsGuideForm, GUIDE_MEDIA_TYPE, restOperations, toGuideForm, type RestOperation } from './contract.js';
import { DOCS_PATHS, docsResponse } from './docs.js';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi.js';
import { bySpecificity, matchPath, parsePathTemplate, type PathTemplate } from './paths.js';
import { readsBody, REST_BASE_PATH, REST_ROUTES, type RestMethod, type RestRoute } from './routes.js';
import { createRouteHandler, type RouteHandler } from './sofaRoutes.js';
import { Response } from '../../app/fetchApi.js';

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
type Resource = { path: PathTemplate; methods: Map<RestMethod, Answer> };

/** The order methods are listed in an Allow header. */
const METHOD_ORDER: readonly RestMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The route's GraphQL arguments from the request, checked; or why the request cannot run. */
async function readArguments(
  operation: RestOperation,
  request: Request,
  url: URL,
  rawPathValues: Record<string, string>,
): Promise<ArgumentReading | RequestFailure> {
  const path = decodePathValues(rawPathValues);
  let reading: ArgumentReading;
  if (readsBody(operation.route.method)) {
    const read = await readJsonObject(request);
    if ('failure' in read) return read.failure;
    reading = readBodyArguments(operation.field.args, path.values, read.body);
  } else {
    reading = readQueryArguments(operation.field.args, path.values, url.searchParams);
  }
  const problems = { ...reading.problems, ...path.problems };
  if (Object.keys(problems).length === 0) return reading;
  return { status: 400, code: 'VALIDATION_ERROR', message: `Invalid ${Object.keys(problems).join(', ')}`, details: problems };
}

function jsonText(status: number, text: string, headers: Record<string, string>, type = 'application/json'): Response {
  return new Response(text, { status, headers: { 'content-type': `${type}; charset=utf-8`, ...headers } });
}

function json(status: number, body: unknown, headers: Record<string, string> = {}, type = 'application/json'): Response {
  return jsonText(status, JSON.stringify(body), headers, type);
}

/** sofa's answer as the client gets it: the request id in errors, 404 for null, the guide form on request.
 * A success in the contract's form is passed on as sofa serialized it, without parsing it again. */
async function finish(operation: RestOperation, request: Request, answer: Response, headers: Record<string, string>): Promise<Response> {
  const requestId = requestState(request).requestId;
  const text = await answer.text();
  if (answer.status >= 400) {
    const error = (JSON.parse(text) as { error: Record<string, unknown> }).error;
    return json(answer.status, { error: { ...error, request_id: requestId } }, headers);
  }
  if (text === '' || text === 'null') return errorResponse(404, 'NOT_FOUND', 'Not found', { requestId, headers });
  if (!operation.guide) return jsonText(answer.status, text, headers);
  const varied = { ...headers, vary: 'Accept' };
  if (!acceptsGuideForm(request)) return jsonText(answer.status, text, varied);
  return json(answer.status, toGuideForm(operation.guide, JSON.parse(text)), varied, GUIDE_MEDIA_TYPE);
}

function routeAnswer(operation: RestOperation, handler: RouteHandler, sunset: Date | undefined): Answer {
  return async (request, url, rawPathValues) => {
    const headers = deprecationHeaders(operation.route, rawPathValues, url.search, sunset);
    const reading = await readArguments(operation, request, url, rawPathValues);
    if ('code' in reading) {
      const { status, code, message, details } = reading;
      return errorResponse(status, code, message, { details, requestId: requestState(request).requestId, headers });
    }
    const verbatim = verbatimArguments(reading, operation.field.args);
    const sofaRequest = canonicalRequest(url, operation.route, reading, operation.pathParameters, verbatim);
    const answer = await handler(sofaRequest, { authenticatedRequest: request, verbatimArguments: verbatim });
    return finish(operation, request, answer, headers);
  };
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
  const add = (template: string, method: RestMethod, answer: Answer) => {
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
        const answer = resource.methods.get(request.method as RestMethod);
        if (answer) {
          endResponse(await answer(request, url, rawPathValues));
          return;
        }
        const allow = METHOD_ORDER.filter((method) => resource.methods.has(method)).join(', ');
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

// The REST facade: the routes of the facade table under /api/v1, their OpenAPI document and the /docs reference,
// as one Yoga plugin placed after authentication, mounted as @graphql-yoga/plugin-sofa mounts sofa-api. Each route
// is bound once, at start-up (`restSurface`: its operation, path parameters, guide form, a deprecated alias's
// headers, a file route's answer), and the router (adapter.ts) and the OpenAPI document read only the bound routes,
// so they agree; the checks fail the start, not a request. A path the router does not know falls through to the
// pipeline's 404.
import { OperationTypeNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { methodNotAllowed } from '../../infra/http/errorResponse.js';
import { requestState } from '../../infra/http/requestState.js';
import type { Gateway } from '../core/gateway.js';
import { prepareOperation, type PreparedOperation } from '../core/operations.js';
import type { FacadeEntry, FileKind, RestRoute } from '../core/table.js';
import { FACADE_TABLE } from '../operations/index.js';
import { createRestRouter } from './adapter.js';
import { REST_BASE_PATH, type BoundRoute, type Deprecation, type RestSurface } from './boundRoute.js';
import { CSV_EXPORT_FILE } from './csvExportRoute.js';
import { DOCS_PATHS, docsResponse } from './docs.js';
import type { FileAnswer } from './fileAnswer.js';
import { guideSource } from './guideForm.js';
import { MEDIA_FILE } from './mediaRoute.js';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi.js';
import { pathParameters } from './paths.js';
import { Response } from '../../infra/http/fetchApi.js';
import type { MediaFiles } from '../../infra/media/mediaFiles.js';

export type RestFacadeOptions = {
  gateway: Gateway;
  schema: GraphQLSchema;
  version: string;
  /** CUSTOMERS_SUNSET: announced in a Sunset header on the deprecated customers routes. */
  customersSunset?: Date | undefined;
  onUnexpected: (error: unknown) => void;
  /** The facade table; FACADE_TABLE unless a test mounts another. */
  table?: readonly FacadeEntry[];
  /** The store the media file route streams files from. */
  mediaFiles: MediaFiles;
};

/** sofa-api's own subscription webhooks, which it mounts on every router; this API has no subscriptions. */
const SOFA_SUBSCRIPTIONS = new RegExp(`^${REST_BASE_PATH}/webhook(/|$)`);

/** The OpenAPI document of the facade table over this schema (also written to docs/openapi.json by codegen). */
export function restOpenApiDocument(schema: GraphQLSchema, version: string, table: readonly FacadeEntry[] = FACADE_TABLE) {
  return buildOpenApiDocument(restSurface(schema, table), version);
}

export function useRestFacade(options: RestFacadeOptions): Plugin {
  const surface = restSurface(options.schema, options.table ?? FACADE_TABLE, options.customersSunset);
  const { gateway, mediaFiles, onUnexpected } = options;
  const router = createRestRouter({ gateway, routes: surface.routes, mediaFiles, onUnexpected });
  // Written by its first request rather than at start-up, whose time it would lengthen for a document few ask for.
  let openApiDocument: string | undefined;
  /** The documents at fixed paths, answered to GET only: the OpenAPI document and the /docs reference's files. */
  const documents = new Map<string, () => Response>([
    [
      OPENAPI_PATH,
      () => {
        openApiDocument ??= JSON.stringify(buildOpenApiDocument(surface, options.version));
        return new Response(openApiDocument, { headers: { 'content-type': 'application/json; charset=utf-8' } });
      },
    ],
    ...DOCS_PATHS.map((path) => [path, () => docsResponse(path)] as const),
  ]);
  return {
    // Synchronous for every request that is not a REST route's (infra/http/routeHook.ts says why).
    onRequest({ request, url, endResponse }) {
      const { requestId } = requestState(request);
      const document = documents.get(url.pathname);
      if (document) {
        endResponse(request.method === 'GET' ? document() : methodNotAllowed(request, url.pathname, requestId, 'GET'));
        return;
      }
      if (!url.pathname.startsWith(`${REST_BASE_PATH}/`) || SOFA_SUBSCRIPTIONS.test(url.pathname)) return;
      return router.handle(request, url, requestId).then((response) => {
        if (response) endResponse(response);
      });
    },
  };
}

const FILE_ANSWERS: Record<FileKind, FileAnswer> = { media: MEDIA_FILE, csv: CSV_EXPORT_FILE };

/** `sunset` (CUSTOMERS_SUNSET) is announced on the deprecated aliases. */
export function restSurface(schema: GraphQLSchema, table: readonly FacadeEntry[], sunset?: Date): RestSurface {
  const routes = table.flatMap((entry) => {
    const operation = prepareOperation(schema, entry.operation);
    return (entry.rest ?? []).map((route) => bind(route, operation, sunset));
  });
  const seen = new Set<string>();
  for (const { route } of routes) {
    const key = `${route.method} ${REST_BASE_PATH}${route.path}`;
    if (seen.has(key)) throw new Error(`Two REST routes answer ${key}`);
    seen.add(key);
  }
  for (const bound of routes) checkSuccessor(bound, routes);
  return { routes, health: prepareOperation(schema, 'Health') };
}

function bind(route: RestRoute, operation: PreparedOperation, sunset: Date | undefined): BoundRoute {
  const problem = (text: string) => new Error(`REST route ${route.operationId} (${route.method} ${route.path}): ${text}`);
  if ((operation.definition.operation === OperationTypeNode.QUERY) !== (route.method === 'GET')) {
    throw problem('GET routes run queries; POST, PUT, PATCH and DELETE routes run mutations');
  }
  const parameters = pathParameters(route.path);
  for (const name of parameters) {
    if (!operation.variables.some((variable) => variable.name === name)) throw problem(`{${name}} is not a variable of ${operation.name}`);
  }
  const guide = route.guideKey ? guideSource(operation.field, route.guideKey) : null;
  if (route.guideKey && !guide) throw problem(`the guide form needs a list, a {data, has_more} page or a {${route.guideKey}} object`);
  return {
    route,
    operation,
    pathParameters: parameters,
    guide,
    deprecation: route.deprecated ? deprecationOf(route.deprecated, sunset) : null,
    file: route.file ? FILE_ANSWERS[route.file] : null,
  };
}

function deprecationOf({ since, successor }: NonNullable<RestRoute['deprecated']>, sunset: Date | undefined): Deprecation {
  if (sunset && sunset.getTime() < since.getTime()) {
    throw new Error(`CUSTOMERS_SUNSET (${sunset.toISOString()}) is earlier than the deprecation (${since.toISOString()})`);
  }
  const headers: Record<string, string> = { deprecation: `@${Math.floor(since.getTime() / 1000)}` };
  if (sunset) headers['sunset'] = sunset.toUTCString();
  return { headers, successor };
}

/** A deprecated alias names a current route of its method, whose parameters its own path gives. */
function checkSuccessor({ route, pathParameters: names }: BoundRoute, routes: readonly BoundRoute[]): void {
  if (!route.deprecated) return;
  const { successor } = route.deprecated;
  if (!routes.some(({ route: other }) => other.path === successor && other.method === route.method && !other.deprecated)) {
    throw new Error(`REST route ${route.operationId}: its successor ${route.method} ${successor} is not a current route`);
  }
  if (pathParameters(successor).some((name) => !names.includes(name))) {
    throw new Error(`REST route ${route.operationId}: its successor ${successor} needs a parameter it does not have`);
  }
}

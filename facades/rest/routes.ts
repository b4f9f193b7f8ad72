// The REST routes of the facade table (facades/operations), each joined once, at start-up, with what serving and
// documenting it needs: its operation, the path's parameters, where a guide-form list finds its items, the fixed
// part of a deprecated alias's headers, and a file route's answer (mediaRoute.ts, csvExportRoute.ts). The router
// (adapter.ts) and the OpenAPI document (openapi.ts) read only these bound routes, so they agree; the checks below
// fail the start, not a request.
import { OperationTypeNode, type GraphQLSchema } from 'graphql';
import { prepareOperation, type PreparedOperation } from '../core/operations.js';
import type { FacadeEntry, FileKind, RestRoute } from '../core/table.js';
import { CSV_EXPORT_FILE } from './csvExportRoute.js';
import type { FileAnswer } from './fileAnswer.js';
import { guideSource, type GuideSource } from './guideForm.js';
import { MEDIA_FILE } from './mediaRoute.js';
import { pathParameters } from './paths.js';

export const REST_BASE_PATH = '/api/v1';

const FILE_ANSWERS: Record<FileKind, FileAnswer> = { media: MEDIA_FILE, csv: CSV_EXPORT_FILE };

/** A deprecated alias's RFC 9745 Deprecation and RFC 8594 Sunset headers, and the successor its Link names. */
export type Deprecation = { headers: Record<string, string>; successor: string };

export type BoundRoute = {
  route: RestRoute;
  operation: PreparedOperation;
  pathParameters: string[];
  guide: GuideSource | null;
  deprecation: Deprecation | null;
  /** How a file route answers and is documented; null for a route answering its operation's JSON. */
  file: FileAnswer | null;
};

/** The bound routes, and the operation GET /health runs, which the OpenAPI document describes beside them. */
export type RestSurface = { routes: BoundRoute[]; health: PreparedOperation };

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

// The REST routes of the facade table (facades/operations), each joined with its operation once, at start-up:
// the path's parameters and where a guide-form list finds its items. The router (adapter.ts) and the OpenAPI
// document (openapi.ts) both start from here, so they agree; the checks below fail the start, not a request.
import { OperationTypeNode, type GraphQLSchema } from 'graphql';
import { prepareOperation, type PreparedOperation } from '../core/operations.js';
import type { FacadeEntry, RestRoute } from '../core/table.js';
import { guideSource, type GuideSource } from './guideForm.js';
import { pathParameters } from './paths.js';

export const REST_BASE_PATH = '/api/v1';

export type BoundRoute = { route: RestRoute; operation: PreparedOperation; pathParameters: string[]; guide: GuideSource | null };

export function restRoutes(schema: GraphQLSchema, table: readonly FacadeEntry[]): BoundRoute[] {
  const routes = table.flatMap((entry) => {
    const operation = prepareOperation(schema, entry.operation);
    return (entry.rest ?? []).map((route) => bind(route, operation));
  });
  const seen = new Set<string>();
  for (const { route } of routes) {
    const key = `${route.method} ${REST_BASE_PATH}${route.path}`;
    if (seen.has(key)) throw new Error(`Two REST routes answer ${key}`);
    seen.add(key);
  }
  return routes;
}

function bind(route: RestRoute, operation: PreparedOperation): BoundRoute {
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
  return { route, operation, pathParameters: parameters, guide };
}

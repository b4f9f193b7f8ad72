// The deprecated aliases of the route table (the customers routes): their RFC 9745 Deprecation, successor
// Link and RFC 8594 Sunset headers, and the start-up checks that keep the aliases and the setting coherent.
import type { RestOperation } from './contract.js';
import { fillPath, parsePathTemplate, pathParameters } from './paths.js';
import { REST_BASE_PATH, type RestRoute } from './routes.js';

export function deprecationHeaders(
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

export function checkDeprecations(operations: readonly RestOperation[], sunset: Date | undefined): void {
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

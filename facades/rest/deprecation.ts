// The deprecated aliases of the route table (the customers routes): their RFC 9745 Deprecation, successor
// Link and RFC 8594 Sunset headers, and the start-up checks that keep the aliases and the setting coherent.
import type { RestRoute } from '../core/table.js';
import { fillFrom, pathParameters } from './paths.js';
import { REST_BASE_PATH, type BoundRoute } from './routes.js';

/** The headers of every answer of the route itself (success or error); none for a current route. */
export function deprecationHeaders(route: RestRoute, url: URL, sunset: Date | undefined): Record<string, string> {
  if (!route.deprecated) return {};
  const successor = fillFrom(route.deprecated.successor, route.path, url.pathname.slice(REST_BASE_PATH.length));
  return {
    deprecation: `@${Math.floor(route.deprecated.since.getTime() / 1000)}`,
    link: `<${REST_BASE_PATH}${successor}${url.search}>; rel="successor-version"`,
    ...(sunset ? { sunset: sunset.toUTCString() } : {}),
  };
}

export function checkDeprecations(routes: readonly BoundRoute[], sunset: Date | undefined): void {
  for (const { route, pathParameters: names } of routes) {
    if (!route.deprecated) continue;
    const { since, successor } = route.deprecated;
    if (!routes.some(({ route: other }) => other.path === successor && other.method === route.method && !other.deprecated)) {
      throw new Error(`REST route ${route.operationId}: its successor ${route.method} ${successor} is not a current route`);
    }
    if (pathParameters(successor).some((name) => !names.includes(name))) {
      throw new Error(`REST route ${route.operationId}: its successor ${successor} needs a parameter it does not have`);
    }
    if (sunset && sunset.getTime() < since.getTime()) {
      throw new Error(`CUSTOMERS_SUNSET (${sunset.toISOString()}) is earlier than the deprecation (${since.toISOString()})`);
    }
  }
}

// One structured log line and the request metrics for every request that reaches the application.
// The line carries the request id, workspace id and key prefix, never the key, a secret, a query string or
// a body: fields are picked one by one rather than copied from the request. A path that is itself a secret
// (a calendar feed's token, a setup or invitation token put in a path rather than the page's fragment) is
// logged and labelled with the token replaced.
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { requestState } from '../http/requestState.js';
import { httpRequestDuration, httpRequests } from './metrics.js';

export function useRequestTelemetry(logger: Logger): Plugin {
  const routes = createRouteLabels();
  return {
    onResponse({ request, response }) {
      const state = requestState(request);
      const path = redactedPath(new URL(request.url).pathname);
      const labels = { method: request.method, route: routes.of(path), status: String(response.status) };
      const seconds = (performance.now() - state.startedAt) / 1000;
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, seconds);
      logger[response.status >= 500 ? 'error' : 'info'](
        {
          request_id: state.requestId,
          method: request.method,
          path,
          route: labels.route,
          status: response.status,
          duration_ms: Math.round(seconds * 1000),
          workspace_id: state.actor?.workspaceId ?? null,
          key_prefix: state.actor?.keyPrefix ?? null,
        },
        'request',
      );
    },
  };
}

/** Paths whose last segment alone grants access. */
const SECRET_PATHS: readonly [RegExp, string][] = [
  [/^\/calendar\/[^/]+$/, '/calendar/[token]'],
  [/^\/(setup|invite)\/.+$/, '/$1/[token]'],
];

export function redactedPath(path: string): string {
  for (const [pattern, replacement] of SECRET_PATHS) if (pattern.test(path)) return path.replace(pattern, replacement);
  return path;
}

/** A number, or a token of 16+ characters with a digit in it (uuids, provider ids). */
const ID_SEGMENT = /^(\d+|(?=\D*\d)[A-Za-z0-9_.-]{16,})$/;
const MAX_ROUTES = 100;

/**
 * Metric label for a path: ids become `:id`, so /api/v1/contacts/<uuid> is one route. Paths are chosen by
 * clients, so the number of distinct labels is capped; paths first seen past the cap count as `other`.
 */
export function createRouteLabels(maxRoutes = MAX_ROUTES) {
  const seen = new Set<string>();
  return {
    of(path: string): string {
      const route = path
        .split('/')
        .map((segment) => (ID_SEGMENT.test(segment) ? ':id' : segment))
        .join('/');
      if (seen.has(route)) return route;
      if (seen.size >= maxRoutes) return 'other';
      seen.add(route);
      return route;
    },
  };
}

// GET /health: the unauthenticated health check, answered from the GraphQL `health` field.
// 200 when the database answers, 503 when it does not; the body is the spec's Health object either way.
import type { Plugin } from 'graphql-yoga';
import type { Gateway } from '../core/gateway.js';
import type { HealthQuery } from '../core/operations.generated.js';
import { Response } from '../../infra/http/fetchApi.js';
import { routeHook } from '../../infra/http/routeHook.js';

export function useHealthRoute(gateway: Gateway): Plugin {
  return {
    onRequest: routeHook(
      ({ request, url }) => url.pathname === '/health' && request.method === 'GET',
      async ({ request, endResponse }) => {
        const result = await gateway.run(request, 'Health');
        const health = (result.data as HealthQuery | null | undefined)?.health;
        endResponse(
          new Response(JSON.stringify(health), {
            status: health?.status === 'ok' ? 200 : 503,
            headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
          }),
        );
      },
    ),
  };
}

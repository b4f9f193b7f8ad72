// The REST facade: the routes of the facade table under /api/v1, their OpenAPI document and the /docs reference,
// as one Yoga plugin placed after authentication, mounted as @graphql-yoga/plugin-sofa mounts sofa-api: a
// request under the base path goes to the REST router (adapter.ts), and what it answers ends the request; a path
// it does not know falls through to the pipeline's 404.
import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { methodNotAllowed } from '../../infra/http/errorResponse.js';
import { requestState } from '../../infra/http/requestState.js';
import type { Gateway } from '../core/gateway.js';
import type { FacadeEntry } from '../core/table.js';
import { FACADE_TABLE } from '../operations/index.js';
import { createRestRouter } from './adapter.js';
import { DOCS_PATHS, docsResponse } from './docs.js';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi.js';
import { Response } from '../../infra/http/fetchApi.js';
import type { MediaFiles } from '../../infra/media/mediaFiles.js';
import { REST_BASE_PATH, restSurface } from './routes.js';

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
    async onRequest({ request, url, endResponse }) {
      const { requestId } = requestState(request);
      const document = documents.get(url.pathname);
      if (document) {
        endResponse(request.method === 'GET' ? document() : methodNotAllowed(request, url.pathname, requestId, 'GET'));
        return;
      }
      if (!url.pathname.startsWith(`${REST_BASE_PATH}/`) || SOFA_SUBSCRIPTIONS.test(url.pathname)) return;
      const response = await router.handle(request, url, requestId);
      if (response) endResponse(response);
    },
  };
}

// The REST facade's router: sofa-api routers (createSofaRouter), each built once by its first request, and the spec
// adapter that gives sofa what it cannot express. sofa serves as its authors meant it to: it routes each request to its
// route by method and path (literal segments first), hands our `execute` hook the request, answers the route's
// JSON with the route's status, and passes failures to our `errorHandler`. Its router finds a path with
// parameters by trying each such path of the method in turn, a URLPattern match of eight regular expressions
// each; behind one router for every route, that walk was a tenth of a contact read's CPU and a quarter of what
// it allocated. So there is one router per first path segment (`contacts`, `conversations`, …), found by a map
// lookup, and each walks only its segment's few paths. Building them all at start-up (a URLPattern polyfill object
// compiled per path and method) was a quarter of a second of every start, so a segment's router is built by the
// first request under it. What sofa cannot do, and what the adapter does instead:
// - sofa makes one route of one root field, and builds that field's selection itself (depth-limited, records
//   reduced to {id}); the spec needs several routes over one operation (the customers aliases, the two
//   templates paths) and answers each with its named operation's selection. So sofa is given a routing view:
//   one field per route, named by its operationId, of a type that carries nothing; `execute` runs the route's
//   operation through the gateway.
// - sofa reads each request itself, DELETE's body included, and its reading drops null values (an update's
//   "clear this"), runs a scalar's serialize instead of parseValue, lets the query string win over the body and
//   a path value silently over both, and words type errors without naming the field. So the adapter hides the
//   body from sofa and reads path, query or body itself (input.ts); the view's fields take no arguments.
// - sofa's router answers nothing for a known path with another method: the adapter adds, to the same router,
//   a 405 route with Allow for each method a path lacks.
// - sofa answers a null result as 200 null and sets no headers: the adapter answers 404, the guide form, and the
//   deprecation headers.
// - sofa always mounts its subscription webhooks at <base>/webhook[/:id]: this API has no subscriptions, so the
//   facade never hands those paths to it.
// - sofa answers a route with the JSON of a GraphQL result: a file route (a bound route with `file`: the media
//   file, the CSV export) is matched by its path first, before sofa, and answered by its file's answer
//   (fileAnswer.ts) with the path's values as sent, or the same 405 for a method it lacks.
import {
  getOperationAST,
  GraphQLError,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  Kind,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';
import { createSofa, createSofaRouter } from 'sofa-api';
import { methodNotAllowed } from '../../infra/http/errorResponse.js';
import { Response } from '../../infra/http/fetchApi.js';
import { executionFailure, failureOf, failureResponse, INTERNAL_FAILURE, type Failure } from '../core/executionFailure.js';
import type { Gateway } from '../core/gateway.js';
import type { RestMethod } from '../core/table.js';
import type { MediaFiles } from '../../infra/media/mediaFiles.js';
import { acceptsGuideForm, GUIDE_MEDIA_TYPE, toGuideForm } from './guideForm.js';
import { readVariables, type RoutedRequest } from './input.js';
import { bySpecificity, fillFrom, pathValues, sofaPath } from './paths.js';
import { REST_BASE_PATH, type BoundRoute } from './boundRoute.js';
import { specForm } from '../core/optionalFields.js';

export type RestRouterOptions = {
  gateway: Gateway;
  routes: readonly BoundRoute[];
  /** The store a media file route streams files from. */
  mediaFiles: MediaFiles;
  onUnexpected: (error: unknown) => void;
};

/** One request on its way through sofa: sofa hands it (a shallow copy of it) to `execute` as the context value,
 * so the headers the answer needs are gathered in the one object they share. */
type Call = { request: RoutedRequest; url: URL; requestId: string; headers: Record<string, string> };

/** A finished error answer, carried through sofa's result to its errorHandler. */
class Refusal extends GraphQLError {
  constructor(readonly response: Response) {
    super('refused');
  }
}

const NOT_FOUND: Failure = failureOf('NOT_FOUND', 'Not found');

/** The order methods are listed in an Allow header; HEAD and the others sofa knows are refused with them. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'CONNECT', 'TRACE'] as const;

/** sofa's router as the adapter uses it. fets, under sofa, types requests and answers by route schemas, which
 * these routes do not declare; they are the web-standard Request and Response. */
type Router = {
  route(route: { method: string; path: string; handler: (request: Request, call: Call) => Response }): unknown;
  handleRequest(request: Request, call: Call): Promise<Response | undefined>;
};
type SofaErrorHandler = NonNullable<Parameters<typeof createSofa>[0]['errorHandler']>;

/** The type of the routing view's fields: what runs is the route's operation, so sofa's selection is empty. */
const ROUTE = new GraphQLScalarType({ name: 'RouteAnswer' });

export function createRestRouter(options: RestRouterOptions) {
  const byOperationId = new Map(options.routes.map((bound) => [bound.route.operationId, bound]));

  async function answer(bound: BoundRoute, call: Call): Promise<{ value: unknown } | { failure: Failure }> {
    const reading = await readVariables(bound, call.request, call.url);
    if ('failure' in reading) return reading;
    const { operation } = bound;
    const result = await options.gateway.run(call.request, operation.name, reading.variables);
    const failure = executionFailure(result);
    if (failure) return { failure };
    const value = specForm(operation, (result.data as Record<string, unknown>)[operation.responseKey]);
    if (value === null || value === undefined) return { failure: NOT_FOUND };
    if (!bound.guide) return { value };
    call.headers['vary'] = 'Accept';
    if (!acceptsGuideForm(call.request)) return { value };
    call.headers['content-type'] = `${GUIDE_MEDIA_TYPE}; charset=utf-8`;
    return { value: toGuideForm(bound.guide, value) };
  }

  async function execute(args: ExecutionArgs): Promise<ExecutionResult> {
    const call = args.contextValue as Call;
    // sofa's document selects the route's field of the routing view, named by the route's operationId.
    const root = getOperationAST(args.document)?.selectionSet.selections[0];
    const bound = byOperationId.get(root?.kind === Kind.FIELD ? root.name.value : '')!;
    let outcome: { value: unknown } | { failure: Failure };
    try {
      if (bound.deprecation) Object.assign(call.headers, deprecationHeaders(bound, call.url));
      outcome = await answer(bound, call);
    } catch (error) {
      options.onUnexpected(error);
      outcome = { failure: INTERNAL_FAILURE };
    }
    if ('value' in outcome) return { data: { [bound.route.operationId]: outcome.value } };
    return { errors: [new Refusal(failureResponse(outcome.failure, call.requestId))] };
  }

  const fileRoutes = options.routes.flatMap((bound) => (bound.file ? [{ ...bound, file: bound.file }] : []));

  /** The answer of the file route the path names (its file, or a 405 for a method it lacks), or null when it names none. */
  async function answerFile(request: Request, path: string, url: URL, requestId: string): Promise<Response | null> {
    for (const { route, operation, file } of fileRoutes) {
      const values = pathValues(route.path, path);
      if (!values) continue;
      if (!file.allow.includes(request.method)) return methodNotAllowed(request, url.pathname, requestId, file.allow.join(', '));
      const { gateway, mediaFiles } = options;
      return file.answer({ request, requestId, operation: operation.name, values, gateway, mediaFiles });
    }
    return null;
  }

  /** The router of the routes under one first path segment: their sofa router and a 405 for each method a path lacks. */
  function segmentRouter(routes: BoundRoute[]): Router {
    const view = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Route',
        fields: Object.fromEntries(routes.map(({ route }) => [route.operationId, { type: ROUTE }])),
      }),
    });
    const router = createSofaRouter(
      createSofa({
        basePath: REST_BASE_PATH,
        schema: view,
        routes: Object.fromEntries(
          routes.map(({ route }) => [
            `Route.${route.operationId}`,
            { method: route.method, path: sofaPath(route.path), responseStatus: route.status ?? 200 },
          ]),
        ),
        execute,
        // `execute` fails only with a finished answer; sofa itself refuses nothing, as the views' fields take no arguments.
        errorHandler: ((errors) => (errors[0] as Refusal).response) as SofaErrorHandler,
        // The OpenAPI document and its reference page are the facade's own (openapi.ts, docs.ts).
        openAPI: { endpoint: false },
        swaggerUI: { endpoint: false },
      }),
    ) as unknown as Router;
    const paths = new Map<string, RestMethod[]>();
    for (const { route } of routes) paths.set(route.path, [...(paths.get(route.path) ?? []), route.method]);
    for (const [path, methods] of paths) {
      const allow = METHODS.filter((method) => (methods as string[]).includes(method)).join(', ');
      for (const method of METHODS.filter((candidate) => !(methods as string[]).includes(candidate))) {
        router.route({
          method,
          path: sofaPath(path),
          handler: (request, call) => methodNotAllowed(request, call.url.pathname, call.requestId, allow),
        });
      }
    }
    return router;
  }

  const segments = new Map<string, BoundRoute[]>();
  for (const bound of options.routes.filter((one) => !one.file).sort((a, b) => bySpecificity(a.route.path, b.route.path))) {
    const segment = firstSegment(bound.route.path);
    segments.set(segment, [...(segments.get(segment) ?? []), bound]);
  }
  const routers = new Map<string, Router>();
  function routerOf(segment: string): Router | undefined {
    const built = routers.get(segment);
    if (built) return built;
    const routes = segments.get(segment);
    if (!routes) return undefined;
    const router = segmentRouter(routes);
    routers.set(segment, router);
    return router;
  }

  return {
    /** The answer of the route the request names, or undefined when no route has its path. */
    async handle(request: Request, url: URL, requestId: string): Promise<Response | undefined> {
      const path = url.pathname.slice(REST_BASE_PATH.length);
      const file = await answerFile(request, path, url, requestId);
      if (file) return file;
      // sofa would read the body again, by its own rules: readVariables reads it, when the method has one.
      Object.defineProperty(request, 'body', { value: null, configurable: true });
      const call: Call = { request, url, requestId, headers: {} };
      // A literal first segment wins over a parameter there, as within one router (bySpecificity).
      const segment = firstSegment(path);
      const response = (await routerOf(segment)?.handleRequest(request, call)) ?? (await routerOf(PARAMETER)?.handleRequest(request, call));
      for (const [name, value] of Object.entries(call.headers)) response?.headers.set(name, value);
      return response;
    },
  };
}

/** A deprecated alias's headers, on each of its answers (success or error): its Link names the successor with
 * the request's own path values and query. */
function deprecationHeaders({ route, deprecation }: BoundRoute, url: URL): Record<string, string> {
  const successor = fillFrom(deprecation!.successor, route.path, url.pathname.slice(REST_BASE_PATH.length));
  return { ...deprecation!.headers, link: `<${REST_BASE_PATH}${successor}${url.search}>; rel="successor-version"` };
}

/** The key of the routes whose first segment is a parameter (`/{provider}/templates`). */
const PARAMETER = '{}';

/** The first segment of a path under the base path: `contacts` of `/contacts/{id}` and of `/contacts/01…`. */
function firstSegment(path: string): string {
  const segment = path.split('/', 2)[1] ?? '';
  return segment.startsWith('{') ? PARAMETER : segment;
}

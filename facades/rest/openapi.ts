// The OpenAPI 3.1 document of the REST surface, served at /api/v1/openapi.json and checked in as
// docs/openapi.json. Generated from the bound REST routes of the facade table (facade.ts `restSurface`) alone: parameters and bodies are
// the operations' variables as schema/shared/variables.ts describes them; response schemas follow the very selections
// of the operations, so every documented field is present in the response (null where nullable) and nothing
// else is; errors, the guide form and the headers are described as sent.
import { getNamedType, getNullableType, isObjectType, OperationTypeNode } from 'graphql';
import { KEY_SCOPES, grants, type Permission } from '../../resolvers/workspace/scopes.js';
import type { ErrorCode } from '../../resolvers/shared/errors.js';
import { httpStatusOf } from '../../schema/shared/errors.js';
import { ERROR_STATUS } from '../../infra/http/errorResponse.js';
import { isRequired, variableProperties, variableSchema, type JsonSchema } from '../../schema/shared/variables.js';
import type { PreparedOperation } from '../core/operations.js';
import type { FileAnswer } from './fileAnswer.js';
import { readsBody } from '../core/table.js';
import { GUIDE_MEDIA_TYPE } from './guideForm.js';
import { Components, OutputSchemas, rootNode } from './outputSchema.js';
import { selectedFields } from '../core/selection.js';
import { REST_BASE_PATH, type BoundRoute, type RestSurface } from './boundRoute.js';

type OpenApiDocument = { openapi: '3.1.0'; paths: Record<string, Record<string, unknown>>; [key: string]: unknown };

export const OPENAPI_PATH = `${REST_BASE_PATH}/openapi.json`;

const ref = (kind: 'schemas' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });

const HEADERS: Record<string, JsonSchema> = {
  RequestId: {
    description: 'The id of this request, for support; the same value as error.request_id.',
    required: true,
    schema: { type: 'string' },
  },
  Deprecation: {
    description: 'RFC 9745: this route is deprecated since the given moment (`@` and Unix seconds).',
    required: true,
    schema: { type: 'string', pattern: '^@[0-9]+$' },
  },
  Link: {
    description: 'The route that replaces this one, with the same parameters.',
    required: true,
    schema: { type: 'string', pattern: '^<[^>]+>; rel="successor-version"$' },
  },
  Sunset: {
    description: 'RFC 8594: when this route will stop answering (an HTTP-date). Sent when CUSTOMERS_SUNSET is configured.',
    required: false,
    schema: { type: 'string' },
  },
  Vary: { description: 'Responses depend on the Accept header (guide form).', required: true, schema: { type: 'string' } },
  Allow: { description: 'The methods this path answers.', required: true, schema: { type: 'string' } },
  WwwAuthenticate: { description: 'The authentication scheme: Bearer.', required: true, schema: { type: 'string' } },
};

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The error body of every failed request.',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'Machine-readable, for example VALIDATION_ERROR, UNAUTHORIZED, NOT_FOUND.' },
        message: { type: 'string', description: 'Human-readable.' },
        details: {
          type: 'object',
          description: 'For VALIDATION_ERROR: the reason for each rejected field, keyed by field name.',
        },
        request_id: { type: 'string', description: 'The id of the request, for support.' },
      },
      required: ['code', 'message', 'request_id'],
      additionalProperties: false,
    },
  },
  required: ['error'],
  additionalProperties: false,
};

/** What each domain error code tells a client, for the responses that document it. */
const ERROR_MEANINGS: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'Invalid parameters or body; `details` gives a reason per field.',
  UNAUTHORIZED: 'Missing or invalid API key.',
  INSUFFICIENT_SCOPE: 'The API key lacks the scope this route needs.',
  FORBIDDEN: 'The caller proved no right to this action (a provider callback’s handshake).',
  ORIGIN_NOT_ALLOWED: 'The Origin header names a page that may not call this service.',
  NOT_FOUND: 'No such record in this workspace.',
  INTEGRATION_NOT_FOUND:
    'The workspace has no connected integration of that provider (or the conversation’s or campaign’s integration is gone).',
  CONFLICT: 'The value is already taken by another record; `details` names the field.',
  INVALID_TRANSITION:
    'The record’s status does not allow this action; `details` says which (conversations and campaigns: `status`, `action` and `allowed_from`).',
  CONVERSATION_CLOSED: 'The conversation is closed; reopen it to send.',
  CONTACT_OPTED_OUT:
    'The contact opted out of marketing messages (by keyword, the provider or a person): a MARKETING template is not sent to it; UTILITY and AUTHENTICATION templates and free-form replies within the window are.',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still being processed; retry later.',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used for a different request.',
  MESSAGING_WINDOW_CLOSED:
    'More than 24 hours since the contact’s last message, or the provider said the window is closed (131047): only an approved template may be sent.',
  TEMPLATE_NOT_APPROVED: 'No approved template with that name and language; `details.status` says what there is.',
  PAYLOAD_TOO_LARGE: 'The body is larger than the service accepts.',
  RATE_LIMITED: 'Too many requests for this API key; Retry-After says when to retry.',
  PROVIDER_ERROR:
    'The messaging provider refused or failed; `details` says why (`reason`, Meta’s `provider_code` and `provider_details`) and whether a retry can help. Throughput (130429) and pair-rate (131056) refusals were already retried with backoff.',
  SERVICE_UNAVAILABLE: 'The service did not answer in time.',
  INTERNAL: 'Unexpected server error.',
};

/** One error answer a route documents: its status, code, meaning and headers. */
type DocumentedError = { status: number; code: string; meaning: string; headers: Record<string, unknown> };

/** The error response of one status: the Error schema with the code fixed to the possible ones. */
function errorResponse(errors: readonly DocumentedError[]): JsonSchema {
  const codes = [...new Set(errors.map((error) => error.code))];
  const code = codes.length === 1 ? { const: codes[0] } : { enum: codes };
  const description = errors.length === 1 ? errors[0]!.meaning : errors.map((error) => `\`${error.code}\`: ${error.meaning}`).join('\n\n');
  return {
    description,
    headers: errors[0]!.headers,
    content: {
      'application/json': {
        schema: { allOf: [ref('schemas', 'Error'), { properties: { error: { properties: { code } } } }] },
      },
    },
  };
}

function authScopesOf(bound: BoundRoute): { public?: unknown; permission?: unknown } {
  return (bound.operation.field.extensions as { pothosOptions?: { authScopes?: object } }).pothosOptions?.authScopes ?? {};
}

/** A route over a field marked `public` (the booking page's): no key, so no 401 or 403 either. */
function isPublic(bound: BoundRoute): boolean {
  return authScopesOf(bound).public === true;
}

function securityOf(bound: BoundRoute): Record<string, string[]>[] {
  if (isPublic(bound)) return [];
  const permission = authScopesOf(bound).permission;
  if (typeof permission !== 'string') return [{ bearerAuth: [] }];
  return KEY_SCOPES.filter((scope) => grants(new Set([scope]), permission as Permission)).map((scope) => ({
    bearerAuth: [scope],
  }));
}

/** What each group of routes (a path's first segment) is about; a new group without its line here gets a plain one. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  System: 'Health and this document.',
  Users: "The workspace's people: list, invite, roles.",
  Conversations: 'Conversations with contacts: list, assign, close and reopen, notes, summaries, transcripts.',
  Messages: 'Sending messages and templates, reading and searching messages.',
  Contacts: 'Contacts, their channels and tags, and bulk import.',
  Customers: 'The deprecated customers routes; use Contacts.',
  Tags: 'Tags to label contacts.',
  Templates: "The messaging provider's message templates.",
  'Inbound-failures': 'Parts of provider webhooks that could not be stored, with their raw JSON.',
  Webhooks: 'Outbound webhook endpoints, their deliveries and redelivery.',
  Events: 'The event log that webhooks deliver.',
  Scheduling: 'Scheduling settings, availability and the booking widget.',
  'Appointment-types': 'Kinds of appointments contacts can book.',
  Appointments: 'Booked appointments.',
  Calendar: 'The iCalendar feed of appointments.',
  Public: 'The public booking page: no API key, limited per client address.',
  Knowledge: 'Knowledge documents the AI agent answers from.',
  Analytics: 'Counts, response times and exports.',
  Campaigns: 'Template campaigns to many contacts.',
  Agent: 'The AI agent: settings and runs.',
};

function tagOf(path: string): string {
  const first = path.split('/').find((segment) => segment !== '' && !segment.startsWith('{')) ?? 'system';
  return first.charAt(0).toUpperCase() + first.slice(1);
}

function parametersOf(bound: BoundRoute, components: Components): JsonSchema[] {
  const inQuery = !readsBody(bound.route.method);
  return bound.operation.variables
    .filter((variable) => bound.pathParameters.includes(variable.name) || inQuery)
    .map((variable) => {
      const inPath = bound.pathParameters.includes(variable.name);
      return {
        name: variable.name,
        in: inPath ? 'path' : 'query',
        required: inPath || isRequired(variable),
        ...(variable.description ? { description: variable.description } : {}),
        schema: variableSchema(variable, components.register, true),
      };
    });
}

/** The JSON object body of a POST, PUT or PATCH: the operation's variables that the path does not give. */
function requestBodyOf(bound: BoundRoute, components: Components): JsonSchema | null {
  const bodyVariables = bound.operation.variables.filter((variable) => !bound.pathParameters.includes(variable.name));
  if (!readsBody(bound.route.method) || bodyVariables.length === 0) return null;
  const { properties, required } = variableProperties(bodyVariables, components.register);
  return {
    required: required.length > 0,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          description: 'The arguments of the GraphQL field; other keys are ignored, a key the path gives is refused (400).',
          properties,
          required,
        },
      },
    },
  };
}

/**
 * The success answer: one media type, application/json, the schema form. The guide form, sent only to a client whose
 * Accept names its vendor media type, is a documented variant (`x-guide-form`: its media type and schema) rather than a
 * second media type, which every generated client would merge with the first into a union.
 */
function successOf(bound: BoundRoute, components: Components): Record<string, unknown> {
  const outputs = new OutputSchemas(bound.operation, components);
  const body = outputs.answer(bound.operation);
  const success: Record<string, unknown> = { content: { 'application/json': { schema: body } } };
  if (bound.guide) {
    const { key, items } = bound.guide;
    success['x-guide-form'] = {
      mediaType: GUIDE_MEDIA_TYPE,
      schema: {
        type: 'object',
        description: `The guide form, sent when Accept names ${GUIDE_MEDIA_TYPE}.`,
        properties: { [key]: items ? guideItemsSchema(bound, items, outputs) : body, hasMore: { type: 'boolean' } },
        required: [key, 'hasMore'],
        additionalProperties: false,
      },
    };
  }
  return success;
}

/** The schema of the list that the guide form puts under its key: one field of the response. */
function guideItemsSchema(bound: BoundRoute, items: string, outputs: OutputSchemas): JsonSchema {
  const pageType = getNullableType(bound.operation.field.type);
  const itemsNode = selectedFields(rootNode(bound.operation).selectionSet, new Map()).find((selection) => selection.name.value === items);
  if (!isObjectType(pageType) || !itemsNode) throw new Error(`${bound.operation.name} selects no ${items}`);
  return outputs.of(pageType.getFields()[items]!.type, itemsNode);
}

function responsesOf(bound: BoundRoute, components: Components): Record<string, unknown> {
  const { route, operation } = bound;
  // Answers of the route itself carry the deprecation headers; those of the pipeline around it (401 from
  // authentication, 405 from routing, others such as 429) carry only the request id.
  const pipelineHeaders: Record<string, unknown> = { 'X-Request-Id': ref('headers', 'RequestId') };
  const headers: Record<string, unknown> = route.deprecated
    ? {
        ...pipelineHeaders,
        Deprecation: ref('headers', 'Deprecation'),
        Link: ref('headers', 'Link'),
        Sunset: ref('headers', 'Sunset'),
      }
    : pipelineHeaders;
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: {
      description: operation.field.description ?? 'Success',
      headers: bound.guide ? { ...headers, Vary: ref('headers', 'Vary') } : headers,
      ...successOf(bound, components),
    },
  };
  const domain = (code: ErrorCode): DocumentedError => ({ status: httpStatusOf(code), code, meaning: ERROR_MEANINGS[code], headers });
  const errors: DocumentedError[] = [];
  if (operation.variables.length > 0 || readsBody(route.method)) errors.push(domain('VALIDATION_ERROR'));
  if (!isPublic(bound)) {
    errors.push({
      ...domain('UNAUTHORIZED'),
      headers: { ...pipelineHeaders, 'WWW-Authenticate': ref('headers', 'WwwAuthenticate') },
    });
    errors.push(domain('INSUFFICIENT_SCOPE'));
  }
  const namesRecord = (name: string) => getNamedType(operation.variables.find((variable) => variable.name === name)!.type).name === 'ID';
  if (bound.pathParameters.some(namesRecord)) errors.push(domain('NOT_FOUND'));
  errors.push({
    status: ERROR_STATUS.METHOD_NOT_ALLOWED,
    code: 'METHOD_NOT_ALLOWED',
    meaning: 'The path exists, the method does not; Allow lists the path’s methods.',
    headers: { ...pipelineHeaders, Allow: ref('headers', 'Allow') },
  });
  if (readsBody(route.method)) {
    errors.push({
      status: ERROR_STATUS.UNSUPPORTED_MEDIA_TYPE,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      meaning: 'The body is not application/json.',
      headers,
    });
  }
  for (const code of route.errors ?? []) errors.push(domain(code));
  for (const status of [...new Set(errors.map((error) => error.status))].sort((a, b) => a - b)) {
    responses[String(status)] = errorResponse(errors.filter((error) => error.status === status));
  }
  responses['default'] = {
    description: 'Any other error (for example 429, 500), in the same form.',
    headers: pipelineHeaders,
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  };
  return responses;
}

function operationObject(bound: BoundRoute, components: Components): Record<string, unknown> {
  const { route, operation } = bound;
  const parameters = parametersOf(bound, components);
  const requestBody = requestBodyOf(bound, components);
  const guideNote = bound.guide ? ` Send \`Accept: ${GUIDE_MEDIA_TYPE}\` for the guide form \`{${bound.guide.key}, hasMore}\`.` : '';
  const deprecationNote = route.deprecated
    ? ` Deprecated: use ${route.method} ${REST_BASE_PATH}${route.deprecated.successor}, which behaves the same.`
    : '';
  const root = operation.definition.operation === OperationTypeNode.QUERY ? 'Query' : 'Mutation';
  return {
    operationId: route.operationId,
    tags: [tagOf(route.path)],
    summary: operation.field.description ?? route.operationId,
    description: `Runs the GraphQL field \`${root}.${operation.field.name}\`.${guideNote}${deprecationNote}`,
    ...(route.deprecated ? { deprecated: true } : {}),
    security: securityOf(bound),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: responsesOf(bound, components),
  };
}

/** GET /health and the document itself: answered outside the route table, documented with it. */
function unversionedOperations(health: PreparedOperation, components: Components) {
  const healthSchema = new OutputSchemas(health, components).answer(health);
  const headers = { 'X-Request-Id': ref('headers', 'RequestId') };
  return {
    '/health': {
      get: {
        operationId: 'health',
        tags: ['System'],
        summary: 'Health check; needs no API key.',
        description:
          'Answers 200 while the service and its database answer, 503 while the database does not; for load balancers and probes.',
        security: [],
        responses: {
          '200': {
            description: 'The service and its database answer.',
            headers,
            content: { 'application/json': { schema: healthSchema } },
          },
          '503': { description: 'The database does not answer.', headers, content: { 'application/json': { schema: healthSchema } } },
        },
      },
    },
    [OPENAPI_PATH]: {
      get: {
        operationId: 'openapi',
        tags: ['System'],
        summary: 'This document; needs no API key.',
        description: 'The OpenAPI 3.1 document of every route, generated from the GraphQL schema the routes run.',
        security: [],
        responses: {
          '200': { description: 'The OpenAPI 3.1 document.', headers, content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
  };
}

/**
 * A route answering a file rather than JSON (RestRoute.file), documented as its operation's route with the file
 * as its 200: the operation's JSON answer is the route's means, not its answer.
 */
function fileOperation(bound: BoundRoute, components: Components, file: FileAnswer['document']) {
  // Kept only when a JSON route answers it too (documented before these).
  const answeredAsJson = bound.operation.name in components.schemas;
  const operation = operationObject(bound, components);
  if (!answeredAsJson) delete components.schemas[bound.operation.name];
  const parameters = (operation['parameters'] as { in: string }[] | undefined)?.filter((parameter) => parameter.in === 'path');
  return {
    ...operation,
    ...(parameters ? { parameters } : {}),
    summary: file.summary,
    description: file.description,
    responses: { ...(operation['responses'] as Record<string, unknown>), ...file.responses },
  };
}

export function buildOpenApiDocument({ routes, health }: RestSurface, version: string): OpenApiDocument {
  const components = new Components();
  components.schemas['Error'] = ERROR_SCHEMA;
  const paths: Record<string, Record<string, unknown>> = unversionedOperations(health, components);
  // The file routes last: their operations' JSON schemas are kept only when a JSON route documented them first.
  for (const bound of [...routes.filter((one) => !one.file), ...routes.filter((one) => one.file)]) {
    const path = `${REST_BASE_PATH}${bound.route.path}`;
    const operation = bound.file ? fileOperation(bound, components, bound.file.document) : operationObject(bound, components);
    paths[path] = { ...paths[path], [bound.route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Messaging CRM API',
      version,
      description: [
        'Contacts, conversations, users and tags of a workspace over a chat messaging provider.',
        'Every route except the health check, this document and the booking page routes under `/api/v1/public/` needs `Authorization: Bearer <API key>`.',
        'The booking page routes need no key; they are rate limited per client address instead.',
        `Lists answer in the schema form by default; a client that sends \`Accept: ${GUIDE_MEDIA_TYPE}\` gets the guides' form \`{<key>: [...], hasMore}\`.`,
        'Errors always have the form `{"error": {"code", "message", "details?", "request_id"}}`.',
      ].join('\n\n'),
    },
    // The document is the same for every deployment (it is checked in), so it names the address `npm start`
    // serves; a relative entry lets clients that load it from a deployment call that deployment.
    servers: [
      { url: '/', description: 'The deployment this document was loaded from.' },
      { url: 'https://localhost:3000', description: 'A local `npm start` (self-signed certificate in DATA_DIR/tls).' },
    ],
    tags: [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op as { tags: string[] }).tags)))].map(
      (name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `The ${name.toLowerCase()} routes.` }),
    ),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'A workspace API key; the scopes listed per operation are alternatives.',
        },
      },
      schemas: components.schemas,
      headers: HEADERS,
    },
  };
}

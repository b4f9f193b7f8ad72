// The served OpenAPI document as a checker of live answers: a response's status, headers, media type and body
// must be what the document says for its operation. Used by the document's own test and by the fuzz test.
import { expect } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';

export type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Described>;
};
export type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema };
export type Schema = Record<string, unknown>;
type Described = { headers?: Record<string, { $ref?: string }>; content?: Record<string, { schema: ErrorSchema }> };
/** The documented error codes sit in the second part of an error response's `allOf`. */
type ErrorSchema = { allOf?: [unknown, { properties: { error: { properties: { code: { const?: string; enum?: string[] } } } } }] };
export type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { headers: Record<string, HeaderObject>; schemas: Record<string, Schema> };
};
type HeaderObject = { required?: boolean; schema: object };

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

/** A JSON pointer into the document, as a reference ajv can compile. */
function pointer(...parts: string[]): string {
  return `openapi#/${parts.map((part) => encodeURIComponent(part.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')}`;
}

export type DocumentChecker = {
  /** Checks one live response against the operation's documented response; returns what it covered. With
   * `orDefault`, a status the operation does not list is checked against its `default` response, as OpenAPI reads it. */
  check(operation: Operation, response: Response, options?: { orDefault?: boolean }): Promise<string>;
};

export function documentChecker(document: OpenApi): DocumentChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi');
  return {
    async check(operation, response, options = {}) {
      const listed = String(response.status) in operation.responses;
      const status = listed || !options.orDefault ? String(response.status) : 'default';
      const documented = operation.responses[status];
      expect(documented, `${operation.operationId} documents status ${response.status}`).toBeDefined();
      for (const [name, header] of Object.entries(documented!.headers ?? {})) {
        const object = header.$ref ? document.components.headers[header.$ref.split('/').at(-1)!]! : (header as HeaderObject);
        const value = response.headers.get(name);
        if (value === null) {
          expect(object.required, `${operation.operationId} ${response.status} sends header ${name}`).not.toBe(true);
          continue;
        }
        expect(ajv.validate(object.schema, value), `${name}: ${value}`).toBe(true);
      }
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!;
      // The guide form is the documented variant `x-guide-form` of a list's answer (facades/rest/openapi.ts).
      const guide = (documented as { 'x-guide-form'?: { mediaType: string } })['x-guide-form'];
      const where = guide?.mediaType === mediaType ? ['x-guide-form', 'schema'] : ['content', mediaType, 'schema'];
      const types = [...Object.keys(documented!.content ?? {}), ...(guide ? [guide.mediaType] : [])];
      // A file route documents */*: any type, and its bytes are not JSON to validate.
      if (types.length === 1 && types[0] === '*/*') return [operation.operationId, response.status, '*/*'].join(' ');
      expect(types, `${operation.operationId} ${response.status} documents ${mediaType}`).toContain(mediaType);
      const path = Object.entries(document.paths).find(([, item]) => Object.values(item).includes(operation))!;
      const method = Object.entries(path[1]).find(([, candidate]) => candidate === operation)![0];
      const validate = ajv.getSchema(pointer('paths', path[0], method, 'responses', status, ...where))!;
      // Text (a CSV file) validates as the string it is.
      const body = mediaType.startsWith('text/') ? await response.text() : await response.json();
      expect(validate(body), `${operation.operationId} ${response.status} ${JSON.stringify(validate.errors)}`).toBe(true);
      return [operation.operationId, response.status, mediaType, ...(response.status >= 400 ? [body.error.code] : [])].join(' ');
    },
  };
}

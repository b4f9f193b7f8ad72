// The shape of the facades' one table (facades/operations/index.ts): an entry per named GraphQL operation of
// facades/operations/*.graphql, with the REST routes and the MCP tool that run it. Whatever surface runs an
// operation answers its root field's JSON, takes its variables as input and reports its errors the same way,
// so a route and a tool of one entry cannot drift apart.
import type { ErrorCode } from '../../resolvers/shared/errors.js';

export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Methods whose variables (beyond the path) come from a JSON object body; GET and DELETE read the query string. */
export function readsBody(method: RestMethod): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

/** Where the guide form of a list response puts its items (docs/api-decisions.md, REST). */
export type GuideKey = 'conversations' | 'customers' | 'users' | 'templates' | 'tags';

export type RestRoute = {
  /** The OpenAPI operationId. */
  operationId: string;
  /** GET runs a query; the other methods run mutations. */
  method: RestMethod;
  /** Under /api/v1; `{name}` segments fill the operation's variable of that name. */
  path: string;
  /** Success status; 200 unless given (202: accepted and handled as a provider delivery is). */
  status?: 200 | 201 | 202;
  /** The key of the guide form `{<key>: [...], hasMore}`, for list routes the guides describe. */
  guideKey?: GuideKey;
  /** Error codes this route answers beyond those every route documents (400, 401, 403, 405, 415, and 404 when
   * the path names a record by id); each is documented with its status and the OpenAPI test provokes it. */
  errors?: readonly ErrorCode[];
  /** A deprecated alias: when it was deprecated and the path of the route that replaces it. */
  deprecated?: { since: Date; successor: string };
  /** A route that answers a file rather than its operation's JSON: the operation is its means, and the kind says
   * how it streams and documents the file (facades/rest/fileAnswer.ts, bound in facades/rest/routes.ts). */
  file?: FileKind;
};

/** `media`: a media message's bytes, from the media store; `csv`: an export's pages joined into one CSV file. */
export type FileKind = 'media' | 'csv';

/** `read` only reads; `write` only adds (create, add, import, assign); `destructive` changes or removes what
 * exists (update, delete, remove, unassign, close, reopen, lifecycle actions), as MCP defines it. */
export type ToolKind = 'read' | 'write' | 'destructive';

export type McpTool = { name: string; kind: ToolKind; description: string };

export type FacadeEntry = {
  /** A named operation of facades/operations/*.graphql. */
  operation: string;
  /** The routes that answer with it: usually one; a deprecated alias is a second. */
  rest?: readonly RestRoute[];
  mcp?: McpTool;
};

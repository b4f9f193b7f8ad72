// What a file route of the facade table (a RestRoute with `file`) needs of its kind: how it answers, given the
// request and the route's path values, and how the OpenAPI document describes the file. facade.ts binds each
// file route to its kind's answer; the router (adapter.ts) serves it beside the JSON routes.
import type { MediaFiles } from '../../infra/media/mediaFiles.js';
import type { Gateway } from '../core/gateway.js';

/** One request to a file route: the route's operation runs through the gateway, as a JSON route's does. */
export type FileCall = {
  request: Request;
  requestId: string;
  /** The route's operation, by name. */
  operation: string;
  /** The path's values by parameter name, as they appear in the path. */
  values: Record<string, string>;
  gateway: Gateway;
  mediaFiles: MediaFiles;
};

export type FileAnswer = {
  /** The methods the route answers (GET, and HEAD where the file's headers alone are worth asking for). */
  allow: readonly string[];
  answer(call: FileCall): Promise<Response>;
  /** The operation's summary and description, and the file's responses in place of the JSON 200. */
  document: { summary: string; description: string; responses: Record<string, unknown> };
};

export const REQUEST_ID_HEADER = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

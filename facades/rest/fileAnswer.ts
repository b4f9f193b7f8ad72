// What a file route of the facade table (a RestRoute with `file`) needs of its kind: how it answers, given the
// route's path values, and how the OpenAPI document describes the file (facades/rest/fileRoutes.ts joins them).
import type { MediaFiles } from '../../infra/media/mediaFiles.js';
import type { Gateway } from '../core/gateway.js';

export type FileAnswerer = (request: Request, values: Record<string, string>, requestId: string) => Promise<Response>;

export type FileAnswer = {
  /** The methods the route answers (GET, and HEAD where the file's headers alone are worth asking for). */
  allow: readonly string[];
  answerer(services: { gateway: Gateway; mediaFiles: MediaFiles }): FileAnswerer;
  /** The operation's summary and description, and the file's responses in place of the JSON 200. */
  document: { summary: string; description: string; responses: Record<string, unknown> };
};

export const REQUEST_ID_HEADER = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

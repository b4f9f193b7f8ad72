// GET /api/v1/messages/{id}/media: a media message's file, as bytes rather than JSON, so it has no entry in the
// facade table. The route runs the MessageMediaFile operation (which fetches, checks and keeps the file, or
// says why not, in the spec's error form) and streams the kept file from the media store. A client holding
// the file already (If-None-Match with its SHA-256) gets 304.
import type { MediaFiles } from '../../infra/media/mediaFiles.js';
import { errorResponse } from '../../infra/http/errorResponse.js';
import type { Gateway } from '../core/gateway.js';
import type { MessageMediaFileQuery } from '../core/operations.generated.js';
import { executionFailure, failureResponse, INTERNAL_FAILURE } from '../core/executionFailure.js';
import { attachment } from './attachment.js';
import { methodNotAllowed } from '../../infra/http/errorResponse.js';
import { REST_BASE_PATH } from './routes.js';

export const MEDIA_PATH = '/messages/{id}/media';
const PATTERN = new RegExp(`^${REST_BASE_PATH}/messages/([^/]+)/media$`);

export function createMediaRoute(gateway: Gateway, mediaFiles: MediaFiles) {
  return async function handle(request: Request, url: URL, requestId: string): Promise<Response | null> {
    const match = PATTERN.exec(url.pathname);
    if (!match) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return methodNotAllowed(request, url.pathname, requestId, 'GET, HEAD');
    }
    const result = await gateway.run(
      request,
      'MessageMediaFile',
      // Ids are UUIDs, which need no percent-decoding; anything else is refused by the operation as not a UUID.
      { id: match[1]! },
    );
    const file = (result.data as MessageMediaFileQuery | null | undefined)?.messageMediaFile;
    if (!file) return failureResponse(executionFailure(result) ?? INTERNAL_FAILURE, requestId);
    const headers = {
      'content-type': file.mime_type ?? 'application/octet-stream',
      'content-disposition': attachment(file.filename),
      etag: `"${file.sha256}"`,
      'cache-control': 'private, max-age=86400, immutable',
      'x-content-type-options': 'nosniff',
    };
    if (request.headers.get('if-none-match')?.includes(`"${file.sha256}"`)) return new Response(null, { status: 304, headers });
    const whole = { ...headers, 'content-length': String(file.size) };
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers: whole });
    const body = await mediaFiles.open(file.file_key);
    // Evicted between the two steps by a concurrent request: the next request fetches it again.
    if (!body)
      return errorResponse('SERVICE_UNAVAILABLE', 'The media file was just given up; try again', {
        requestId,
        headers: { 'retry-after': '1' },
      });
    return new Response(body, { status: 200, headers: whole });
  };
}

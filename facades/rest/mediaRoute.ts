// GET /api/v1/messages/{id}/media (the facade table's getMessageMedia): a media message's file, as bytes rather
// than JSON. The route runs the MessageMediaFile operation (which fetches, checks and keeps the file, or says why
// not, in the spec's error form) and streams the kept file from the media store. A client holding the file
// already (If-None-Match with its SHA-256) gets 304.
import { errorResponse } from '../../infra/http/errorResponse.js';
import type { MessageMediaFileQuery } from '../core/operations.generated.js';
import { executionFailure, failureResponse, INTERNAL_FAILURE } from '../core/executionFailure.js';
import { attachment } from './attachment.js';
import { REQUEST_ID_HEADER, type FileAnswer } from './fileAnswer.js';

export const MEDIA_FILE: FileAnswer = {
  allow: ['GET', 'HEAD'],
  async answer({ request, requestId, operation, values, gateway, mediaFiles }) {
    // Ids are UUIDs, which need no percent-decoding; anything else is refused by the operation as not a UUID.
    const result = await gateway.run(request, operation, { id: values['id'] });
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
  },
  document: {
    summary: "A media message's file.",
    description:
      'Streams the file of an image, video, audio, document or sticker message: fetched from the provider the first time, ' +
      'checked against its SHA-256 and kept (MEDIA_CACHE_MAX_BYTES). If-None-Match with the ETag answers 304.',
    responses: {
      '200': {
        description:
          'The file, with its Content-Type, Content-Length, an ETag of its SHA-256 and, for a document, its file name in Content-Disposition.',
        headers: { ...REQUEST_ID_HEADER, ETag: { description: 'The SHA-256 of the file, in hex, quoted.', schema: { type: 'string' } } },
        content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
      },
      '304': { description: 'The client has this file already.', headers: REQUEST_ID_HEADER },
    },
  },
};

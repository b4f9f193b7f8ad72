// Refuses request bodies larger than MAX_BODY_BYTES with 413 PAYLOAD_TOO_LARGE before anything parses them.
// A declared Content-Length is checked up front (Node's parser never delivers more than it declares);
// a body without one (chunked) is read up to the limit and handed on as the bytes that were read, so raw
// bytes stay intact for signature checks downstream.
import type { Plugin } from 'graphql-yoga';
import { payloadTooLarge } from '../http/errorResponse.js';
import { carryRequestState, requestState } from '../http/requestState.js';

export function useBodySizeLimit(maxBytes: number): Plugin {
  return {
    // Synchronous unless a body without a declared length has to be read (infra/http/routeHook.ts says why).
    onRequest({ request, setRequest, endResponse, fetchAPI }) {
      if (!request.body) return;
      // The rest of the body is not wanted: closing beats reading it only to throw it away.
      const tooLarge = () => endResponse(payloadTooLarge(maxBytes, requestState(request).requestId, { connection: 'close' }));
      const declared = request.headers.get('content-length');
      if (declared !== null) {
        if (Number(declared) > maxBytes) tooLarge();
        return;
      }
      return readAtMost(request.body, maxBytes).then((body) => {
        if (!body) return tooLarge();
        const buffered = new fetchAPI.Request(request.url, {
          method: request.method,
          headers: request.headers,
          body,
          signal: request.signal,
        });
        carryRequestState(request, buffered);
        setRequest(buffered);
      });
    },
  };
}

/** The whole stream, or null as soon as it exceeds maxBytes. */
async function readAtMost(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer<ArrayBuffer> | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

// A deadline for every response to start: a request whose response has not begun within REQUEST_TIMEOUT_MS
// is answered 503 SERVICE_UNAVAILABLE with the spec's error object. It wraps the whole application (every
// facade, including routes answered in Yoga's onRequest hooks), so it sits here rather than in a plugin.
// Streaming responses (server-sent events) only need their head in time. Work still running when the
// deadline passes is not interrupted; its late response is discarded. The time a client takes to send its
// body is not the service's: the deadline starts once the body has arrived, so a body that arrives too
// slowly gets Node's one 408 (httpsOnlyServer.ts) and never a 503 before it on the same connection. A request
// without a body (a GET, a DELETE) has nothing to wait for: its deadline starts at once ('end' would never
// fire for a body nobody reads).
import { IncomingMessage } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import { errorResponse } from '../http/errorResponse.js';
import { newRequestId } from '../http/pipeline.js';
import { requestState } from '../http/requestState.js';

export type FetchHandler = (request: Request, context: Record<string, unknown>) => Response | Promise<Response>;

function hasBody(incoming: IncomingMessage): boolean {
  return incoming.headers['transfer-encoding'] !== undefined || Number(incoming.headers['content-length'] ?? 0) > 0;
}

export function withResponseDeadline(handler: FetchHandler, deadlineMs: number): FetchHandler {
  return (request, context) =>
    new Promise<Response>((resolve, reject) => {
      let late = false;
      let answered = false;
      let timer: NodeJS.Timeout | undefined;
      const startDeadline = () => {
        if (answered) return;
        timer = setTimeout(() => {
          late = true;
          // The id the pipeline gave the request, when it got that far, so the answer matches the request's log line.
          const requestId = requestState(request).requestId || newRequestId();
          resolve(
            errorResponse('SERVICE_UNAVAILABLE', `The service did not answer within ${deadlineMs} ms; try again`, {
              requestId,
              headers: { 'x-request-id': requestId },
            }),
          );
        }, deadlineMs);
      };
      // The Node request under the fetch Request (@whatwg-node/server hands it over as `req`).
      const incoming = context['req'];
      if (incoming instanceof IncomingMessage && hasBody(incoming) && !incoming.complete) incoming.once('end', startDeadline);
      else startDeadline();
      Promise.resolve()
        .then(() => handler(request, context))
        .then(
          (response) => {
            if (late) return void response.body?.cancel().catch(() => undefined);
            answered = true;
            clearTimeout(timer);
            resolve(response);
          },
          (error: unknown) => {
            answered = true;
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
    });
}

/** The Node request listener of a fetch-style handler. */
export function nodeListener(handler: FetchHandler) {
  return createServerAdapter(handler);
}

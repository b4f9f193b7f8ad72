// The service's one listening port, HTTPS only. Each connection's first byte tells a TLS handshake (0x16)
// from plain HTTP. TLS connections are served; a plain-HTTP request is answered with the spec's error
// object (400 HTTPS_REQUIRED) and never reaches the application — unless TRUST_PROXY says a TLS-terminating
// proxy stands in front, in which case its X-Forwarded-Proto decides. Also owns what only a real socket
// has: Node's request and header time-outs (408 as a JSON error) and draining on shutdown.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Server as TlsServer, type TLSSocket } from 'node:tls';
import { errorBody } from '../http/errorResponse.js';
import { newRequestId } from '../http/pipeline.js';

const TLS_HANDSHAKE_RECORD = 0x16;

export type HttpsOnlyServerOptions = {
  tls: { cert: string; key: string };
  /** A TLS-terminating proxy in front: plain HTTP is served when its X-Forwarded-Proto is https. */
  trustProxy: boolean;
  /** Longest time a client may take to send a whole request, and to open a connection's first bytes. */
  requestTimeoutMs: number;
  /** The application, for requests that arrived over HTTPS. */
  /** Answers each request; a returned promise settles when the answer is written (its failures are its own). */
  handler: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;
};

export type HttpsOnlyServer = {
  listen(port: number, host: string): Promise<number>;
  /** Stops accepting, lets in-flight requests finish, and closes every connection once they have (or when `deadline` aborts). */
  drain(deadline: AbortSignal): Promise<void>;
};

export function createHttpsOnlyServer(options: HttpsOnlyServerOptions): HttpsOnlyServer {
  const inFlight = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let draining = false;
  let onIdle: (() => void) | undefined;

  const http = createHttpServer(
    {
      requestTimeout: options.requestTimeoutMs,
      headersTimeout: Math.min(options.requestTimeoutMs, 60_000),
      // Node checks the two time-outs above on this interval; its 30 s default would let them run late.
      connectionsCheckingInterval: Math.min(1000, options.requestTimeoutMs),
    },
    (request, response) => {
      inFlight.add(response);
      response.once('close', () => {
        inFlight.delete(response);
        if (draining) http.closeIdleConnections();
        if (inFlight.size === 0) onIdle?.();
      });
      if (draining) response.setHeader('connection', 'close');
      if (arrivedOverHttps(request, options.trustProxy)) void options.handler(request, response);
      else refuse(response, 400, 'HTTPS_REQUIRED', 'This service accepts HTTPS only; repeat the request with https://');
    },
  );
  // Malformed requests and the request/header time-outs: answer with the spec's error object, not Node's bare text.
  http.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Node's own handler makes the same check: no answer on top of a response it has already begun.
    const begun = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage?.headersSent;
    if (socket.writable && !begun) {
      const [status, code, message] = clientErrorAnswer(error.code, options.requestTimeoutMs);
      const requestId = newRequestId();
      socket.end(rawResponse(status, JSON.stringify(errorBody(code, message, { requestId })), requestId));
    }
    socket.destroy();
  });

  const tls = new TlsServer({
    cert: options.tls.cert,
    key: options.tls.key,
    ALPNProtocols: ['http/1.1'],
    handshakeTimeout: options.requestTimeoutMs,
  });
  tls.on('secureConnection', (socket: TLSSocket) => http.emit('connection', socket));
  tls.on('tlsClientError', (_error, socket) => socket.destroy());

  const listener = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const silent = () => socket.destroy();
    socket.setTimeout(options.requestTimeoutMs, silent);
    socket.once('readable', function dispatch() {
      const head = socket.read(1) as Buffer | null;
      if (head === null) {
        socket.once('readable', dispatch);
        return;
      }
      socket.setTimeout(0);
      socket.off('timeout', silent);
      socket.unshift(head);
      if (head[0] === TLS_HANDSHAKE_RECORD) tls.emit('connection', socket);
      else http.emit('connection', socket);
    });
  });

  return {
    listen(port, host) {
      return new Promise((resolve, reject) => {
        listener.once('error', reject);
        listener.listen(port, host, () => {
          // The HTTP server never listens itself (connections are handed to it), and 'listening' is what
          // starts Node's per-connection bookkeeping: request/header time-outs and closing idle connections.
          http.emit('listening');
          resolve((listener.address() as AddressInfo).port);
        });
      });
    },
    async drain(deadline) {
      draining = true;
      listener.close();
      http.closeIdleConnections();
      if (inFlight.size > 0 && !deadline.aborted) {
        await new Promise<void>((resolve) => {
          onIdle = resolve;
          deadline.addEventListener('abort', () => resolve(), { once: true });
        });
      }
      http.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      http.close();
    },
  };
}

function arrivedOverHttps(request: IncomingMessage, trustProxy: boolean): boolean {
  if ((request.socket as TLSSocket).encrypted) return true;
  if (!trustProxy) return false;
  // The proxy we trust appends its own value last; anything before it came from the client.
  const forwarded = request.headers['x-forwarded-proto'];
  const values = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',');
  return values.at(-1)?.trim().toLowerCase() === 'https';
}

function clientErrorAnswer(errorCode: string | undefined, requestTimeoutMs: number): [number, string, string] {
  switch (errorCode) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'REQUEST_TIMEOUT', `The request was not received within ${requestTimeoutMs} ms`];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'VALIDATION_ERROR', 'Request headers are too large'];
    default:
      return [400, 'VALIDATION_ERROR', 'Malformed HTTP request'];
  }
}

function refuse(response: ServerResponse, status: number, code: string, message: string) {
  const requestId = newRequestId();
  const body = JSON.stringify(errorBody(code, message, { requestId }));
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': requestId,
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  response.end(body);
}

function rawResponse(status: number, body: string, requestId: string): string {
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[status] ?? 'Error';
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'content-type: application/json; charset=utf-8',
    `x-request-id: ${requestId}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

// The one HTTP client for every outbound request: webhook deliveries, the WhatsApp Cloud API and its media files,
// the AI agent's model endpoint. Each request passes the target guard (targetGuard.ts) where it connects: a
// literal IP host before any socket opens, a host name in the sockets' DNS lookup, so what is judged is the
// address actually connected (no DNS rebinding between a check and the connection). Plain http only to hosts the
// guard allows by name. Redirects are never followed: a 3xx is the answer. One deadline bounds the whole exchange,
// the last byte of the body included, and the body is cut past a size. Failures are an OutboundError naming one
// of few reasons, with no socket detail. A lint rule keeps `fetch` and Node's http clients out of the rest of the
// app (eslint.config.js).
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { TargetGuard } from './targetGuard.js';

export type OutboundFailure = 'refused' | 'timeout' | 'network' | 'tls' | 'too_large';

export class OutboundError extends Error {
  readonly reason: OutboundFailure;
  constructor(reason: OutboundFailure, message: string) {
    super(message);
    this.name = 'OutboundError';
    this.reason = reason;
  }
}

export type OutboundRequest = {
  method?: string;
  headers?: Record<string, string>;
  /** Any fetch body (a string, bytes, FormData); encoded as fetch would, its content type included. */
  body?: BodyInit | null;
  /** Deadline of the whole exchange, from now to the last byte of the answer's body. */
  timeoutMs: number;
  /** Most bytes of the answer's body; past it the body fails with `too_large`. */
  maxResponseBytes: number;
};

export type OutboundClient = {
  /** The answer as it came (a 3xx included: redirects are not followed), or an OutboundError. */
  request(url: string, init: OutboundRequest): Promise<Response>;
  close(): void;
};

export type OutboundOptions = {
  guard: TargetGuard;
  userAgent: string;
  /** PEM certificates trusted in addition to the system's. */
  extraCa?: string[];
};

/** OpenSSL's certificate verdicts and Node's TLS errors, as error codes. */
const TLS_ERROR_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/** The failure as few words as a caller may show: the guard's reason, or the error code without addresses. */
export function outboundFailure(error: unknown): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? '') : '';
  if (code === 'ETARGETREFUSED') return new OutboundError('refused', `refused: ${(error as Error).message}`);
  if (TLS_ERROR_CODE.test(code)) return new OutboundError('tls', code);
  return new OutboundError('network', code || 'socket hang up');
}

function headersOf(incoming: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

export function createOutboundClient(options: OutboundOptions): OutboundClient {
  const { guard } = options;
  const agents = {
    'https:': new https.Agent({
      keepAlive: true,
      lookup: guard.lookup,
      // One secure context for every connection: passing `ca` would parse every root certificate per handshake.
      ...(options.extraCa?.length ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...options.extraCa] }) } : {}),
    }),
    'http:': new http.Agent({ keepAlive: true, lookup: guard.lookup }),
  };

  /** Checked before any socket: the scheme, and a literal IP host (connecting to one skips the guarded lookup). */
  function refusal(target: URL): string | null {
    if (target.protocol !== 'https:' && target.protocol !== 'http:') return 'refused: not an http(s) URL';
    if (target.protocol === 'http:' && !guard.allowsHost(target.hostname)) return 'refused: not an https URL';
    const literal = guard.literalRefusal(target.hostname);
    return literal ? `refused: ${literal}` : null;
  }

  async function request(url: string, init: OutboundRequest): Promise<Response> {
    const target = new URL(url);
    const refused = refusal(target);
    if (refused) throw new OutboundError('refused', refused);
    const encoded = init.body == null ? null : new Request(target, { method: 'POST', body: init.body });
    const bytes = encoded ? Buffer.from(await encoded.arrayBuffer()) : null;
    const contentType = encoded?.headers.get('content-type');
    const headers: Record<string, string> = {
      'user-agent': options.userAgent,
      ...(contentType ? { 'content-type': contentType } : {}),
      ...init.headers,
      ...(bytes ? { 'content-length': String(bytes.length) } : {}),
    };
    return new Promise<Response>((resolve, reject) => {
      let incoming: http.IncomingMessage | undefined;
      const outgoing = (target.protocol === 'https:' ? https : http).request(target, {
        method: init.method ?? (bytes ? 'POST' : 'GET'),
        headers,
        agent: agents[target.protocol as 'https:' | 'http:'],
      });
      const timer = setTimeout(() => {
        const late = new OutboundError('timeout', `timed out after ${init.timeoutMs} ms`);
        incoming?.destroy(late);
        outgoing.destroy(late);
      }, init.timeoutMs);
      outgoing.on('error', (error) => {
        clearTimeout(timer);
        reject(outboundFailure(error));
      });
      outgoing.on('response', (response) => {
        incoming = response;
        response.on('close', () => clearTimeout(timer));
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 599) {
          response.destroy();
          return reject(new OutboundError('network', `an invalid HTTP status ${status}`));
        }
        if (NULL_BODY_STATUSES.has(status)) {
          response.resume();
          return resolve(new Response(null, { status, headers: headersOf(response.headers) }));
        }
        let received = 0;
        const bounded = new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            received += chunk.byteLength;
            if (received > init.maxResponseBytes) {
              response.destroy();
              throw new OutboundError('too_large', `the answer exceeds ${init.maxResponseBytes} bytes`);
            }
            controller.enqueue(chunk);
          },
        });
        const body = (Readable.toWeb(response) as ReadableStream<Uint8Array>).pipeThrough(bounded);
        resolve(new Response(body, { status, headers: headersOf(response.headers) }));
      });
      outgoing.end(bytes ?? undefined);
    });
  }

  return {
    request,
    close() {
      agents['https:'].destroy();
      agents['http:'].destroy();
    },
  };
}

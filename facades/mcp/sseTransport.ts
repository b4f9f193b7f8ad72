// The HTTP+SSE transport of MCP (protocol 2024-11-05, deprecated but named by the spec) over web-standard
// Request/Response, as Yoga speaks them: the SDK's own SSEServerTransport writes to a Node ServerResponse.
// GET opens the stream, whose first event names the endpoint for the client's POSTs (with the session id);
// each POST carries one JSON-RPC message and is answered 202, the reply travelling on the stream (a POST that
// reaches another instance is forwarded to this one: facades/mcp/sessions.ts). Without an endpoint, the same
// stream is a Streamable HTTP session's GET stream (server → client messages only).
// The stream ends when the client goes away (the GET request's signal aborts) or the server closes it.
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { jsonRpcError } from './jsonRpcError.js';

const KEEP_ALIVE_MS = 15_000;
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export class SseServerTransport implements Transport {
  readonly response: Response;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private readonly encoder = new TextEncoder();
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  /** `messagesPath`: where the client POSTs its messages (HTTP+SSE); absent for a Streamable HTTP GET stream. */
  constructor(
    signal: AbortSignal,
    private readonly messagesPath?: string,
    readonly sessionId: string = randomUUID(),
  ) {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => this.close(),
    });
    this.response = new Response(stream, {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' },
    });
    signal.addEventListener('abort', () => void this.close(), { once: true });
  }

  async start(): Promise<void> {
    // A first write sends the headers at once: the client sees the stream open before any message is due.
    this.write(this.messagesPath ? `event: endpoint\ndata: ${this.messagesPath}?sessionId=${this.sessionId}\n\n` : ': open\n\n');
    this.keepAlive = setInterval(() => this.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('Not connected');
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    try {
      this.controller.close();
    } catch {
      // The consumer already cancelled the stream.
    }
    this.onclose?.();
  }

  /** Hands one message of this session to its server, with the HTTP request that carried it (authInfo). */
  deliver(message: JSONRPCMessage, authInfo: AuthInfo, headers: Record<string, string>): void {
    this.onmessage?.(message, { authInfo, requestInfo: { headers } });
  }

  private write(text: string): void {
    if (this.closed) return;
    try {
      this.controller.enqueue(this.encoder.encode(text));
    } catch {
      void this.close();
    }
  }
}

/** The one JSON-RPC message a POST of the HTTP+SSE transport carries, or the error answer for the POST. */
export async function readPostedMessage(request: Request): Promise<{ message: JSONRPCMessage } | { refusal: Response }> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return { refusal: jsonRpcError(415, ErrorCode.InvalidRequest, 'Unsupported Media Type: Content-Type must be application/json') };
  }
  const body = await readRequestBody(request, MAX_MESSAGE_BYTES);
  if (body.tooLarge) return { refusal: jsonRpcError(413, ErrorCode.InvalidRequest, 'Payload Too Large') };
  try {
    return { message: JSONRPCMessageSchema.parse(JSON.parse(body.text)) };
  } catch {
    return { refusal: jsonRpcError(400, ErrorCode.ParseError, 'Parse error: the body is not one JSON-RPC message') };
  }
}

// The MCP server, mounted in the Yoga pipeline after authentication: /mcp speaks Streamable HTTP, and
// GET /mcp/sse with POST /mcp/messages the older HTTP+SSE transport that the spec names. A request without
// a valid API key was answered 401 before it got here, so no session starts without one. Each session has
// its own MCP server and transport, bound to the key that opened it; every HTTP request that carries tool
// calls is authenticated on its own and the calls run as that request, so its scopes, workspace and rate
// limit apply. A present Origin must be an allowed one (DNS-rebinding protection): a page of another site
// is refused with 403 even when it holds a key. Non-browser clients send no Origin.
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { errorResponse } from '../../infra/http/errorResponse.js';
import { requestState } from '../../infra/http/requestState.js';
import type { Actor } from '../../infra/auth/actor.js';
import { schema } from '../../schema/index.js';
import type { Gateway } from '../core/gateway.js';
import { jsonRpcError } from './jsonRpcError.js';
import { FULL_RETRY_AFTER_SECONDS, SessionRegistry, type KeyCheck, type SessionLimits } from './sessions.js';
import { SseServerTransport } from './sseTransport.js';
import { authInfoFor, createToolServer, prepareTools } from './toolServer.js';
import { FACADE_TABLE } from '../operations/index.js';

export const MCP_PATHS = { streamable: '/mcp', sse: '/mcp/sse', messages: '/mcp/messages' } as const;

export type McpOptions = {
  allowedOrigins: readonly string[];
  /** The server's name and version, as initialize answers them. */
  name: string;
  version: string;
  /** From the settings (MCP_MAX_SESSIONS_PER_KEY, MCP_SESSION_IDLE_MS), their one source. */
  sessions: SessionLimits;
  /** Whether a session's key still authenticates; a revoked key's sessions are closed. */
  keyStillValid: KeyCheck;
};

/** The key a session belongs to, and its bearer credential, for the revocation sweep. */
function ownerOf(request: Request, actor: Actor) {
  const credential = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  return { keyId: actor.keyId, credential };
}

export function useMcp(gateway: Gateway, options: McpOptions): { plugin: Plugin; sessions: SessionRegistry } {
  const tools = prepareTools(FACADE_TABLE, schema);
  const sessions = new SessionRegistry(options.sessions, options.keyStillValid);
  const allowedOrigins = new Set(options.allowedOrigins);
  const newServer = () => createToolServer(tools, gateway, options.version, options.name);
  const sessionNotFound = () => jsonRpcError(404, -32001, 'Session not found');
  const notAllowed = (allow: string) => new Response(null, { status: 405, headers: { allow } });

  async function streamable(request: Request, actor: Actor): Promise<Response> {
    const authInfo = authInfoFor(request, actor);
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = sessions.find(sessionId, actor.keyId, 'streamable');
      return session ? session.transport.handleRequest(request, { authInfo }) : sessionNotFound();
    }
    if (request.method !== 'POST') return jsonRpcError(400, ErrorCode.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required');
    const server = newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => sessions.add(id, ownerOf(request, actor), server, { kind: 'streamable', transport }),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo });
    // Only an initialize request opens a session; the transport has answered anything else with an error.
    if (!transport.sessionId) await server.close();
    return response;
  }

  async function openSse(request: Request, actor: Actor): Promise<Response> {
    if (request.method !== 'GET') return notAllowed('GET');
    const transport = new SseServerTransport(MCP_PATHS.messages, request.signal);
    const server = newServer();
    sessions.add(transport.sessionId, ownerOf(request, actor), server, { kind: 'sse', transport });
    await server.connect(transport);
    return transport.response;
  }

  async function sseMessage(request: Request, actor: Actor, url: URL): Promise<Response> {
    if (request.method !== 'POST') return notAllowed('POST');
    const session = sessions.find(url.searchParams.get('sessionId') ?? '', actor.keyId, 'sse');
    return session ? session.transport.handlePostMessage(request, authInfoFor(request, actor)) : sessionNotFound();
  }

  const opensSession = (path: string, request: Request) =>
    (path === MCP_PATHS.streamable && request.method === 'POST' && !request.headers.has('mcp-session-id')) ||
    (path === MCP_PATHS.sse && request.method === 'GET');

  return {
    sessions,
    plugin: {
      async onRequest({ request, url, endResponse }) {
        const path = url.pathname;
        if (path !== MCP_PATHS.streamable && path !== MCP_PATHS.sse && path !== MCP_PATHS.messages) return;
        const { actor, requestId } = requestState(request);
        if (!actor) throw new Error('The MCP plugin must come after authentication in the pipeline.');
        const origin = request.headers.get('origin');
        if (origin !== null && !allowedOrigins.has(origin)) {
          endResponse(errorResponse(403, 'ORIGIN_NOT_ALLOWED', `Origin ${origin} is not allowed`, { requestId }));
          return;
        }
        if (opensSession(path, request) && !(await sessions.makeRoomFor(actor.keyId))) {
          endResponse(
            errorResponse(429, 'RATE_LIMITED', 'Every MCP session this API key may hold is an open SSE stream; close one or retry later', {
              requestId,
              headers: { 'retry-after': String(FULL_RETRY_AFTER_SECONDS) },
            }),
          );
          return;
        }
        const response =
          path === MCP_PATHS.streamable
            ? await streamable(request, actor)
            : path === MCP_PATHS.sse
              ? await openSse(request, actor)
              : await sseMessage(request, actor, url);
        // A browser client of an allowed origin must be able to read the session headers.
        if (origin !== null) response.headers.set('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
        endResponse(response);
      },
    },
  };
}

// The MCP server, mounted in the Yoga pipeline after authentication: /mcp speaks Streamable HTTP, and
// GET /mcp/sse with POST /mcp/messages the older HTTP+SSE transport that the spec names. A request without
// a valid API key was answered 401 before it got here, so no session starts without one. Sessions are bound
// to the key that opened it and shared by every instance (sessions.ts); every HTTP request that carries tool
// calls is authenticated on its own and the calls run as that request, so its scopes, workspace and rate
// limit apply (a message forwarded to the instance holding an SSE stream runs as the sender the receiving
// instance authenticated). A Streamable HTTP session's GET /mcp is its stream of server → client messages (resource
// updates), opened with the session's own credential and following as it. A present Origin must be an allowed one
// (DNS-rebinding protection): a page of another site is refused with 403 even when it holds a key. Non-browser
// clients send no Origin.
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode, isInitializeRequest, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorResponse } from '../../infra/http/errorResponse.js';
import { requestState } from '../../infra/http/requestState.js';
import type { Actor } from '../../infra/auth/actor.js';
import { schema } from '../../schema/index.js';
import type { Gateway } from '../core/gateway.js';
import { invalidParams, jsonRpcError, jsonRpcIdOf } from './jsonRpcError.js';
import {
  FULL_RETRY_AFTER_SECONDS,
  MAX_SUBSCRIPTIONS_PER_SESSION,
  SessionRegistry,
  type KeyChanges,
  type SessionLimits,
} from './sessions.js';
import { readPostedMessage, SseServerTransport } from './sseTransport.js';
import type { ForwardedMessage, SessionStore } from '../../infra/mcp/sessionStore.js';
import { authInfoFor, prepareTools } from './toolServer.js';
import { createMcpServer } from './server.js';
import type { ResourceSubscriptions } from './resources.js';
import { ConversationFollowing } from './following.js';
import { FACADE_TABLE } from '../operations/index.js';
import { routeHook } from '../../infra/http/routeHook.js';

/** The form of the session ids this service hands out (randomUUID). */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type JsonRpcIdLike = string | number | null;

export const MCP_PATHS = { streamable: '/mcp', sse: '/mcp/sse', messages: '/mcp/messages' } as const;

export type McpOptions = {
  allowedOrigins: readonly string[];
  /** The server's name and version, as initialize answers them. */
  name: string;
  version: string;
  /** From the settings (MCP_MAX_SESSIONS_PER_KEY, MCP_SESSION_IDLE_MS), their one source. */
  sessions: SessionLimits;
  /** Where every instance keeps the sessions. */
  store: SessionStore;
  /** Revocations heard from every instance: the sessions (and streams) of a revoked key or grant end at once. */
  keyChanges?: KeyChanges;
  onError: (error: unknown) => void;
};

/** The request a forwarded message runs as: the sender as the instance that received the POST authenticated them. */
function forwardedRequest(forwarded: ForwardedMessage): Request {
  const headers: Record<string, string> = forwarded.idempotencyKey ? { 'idempotency-key': forwarded.idempotencyKey } : {};
  const request = new Request(`https://forwarded.invalid${MCP_PATHS.messages}`, { method: 'POST', headers });
  Object.assign(requestState(request), { actor: forwarded.actor, requestId: forwarded.requestId });
  return request;
}

export function useMcp(gateway: Gateway, options: McpOptions): { plugin: Plugin; sessions: SessionRegistry } {
  const tools = prepareTools(FACADE_TABLE, schema);
  const sessions = new SessionRegistry(
    options.store,
    options.sessions,
    (stream, forwarded) => {
      const request = forwardedRequest(forwarded);
      stream.transport.deliver(forwarded.message as JSONRPCMessage, authInfoFor(request, forwarded.actor), {});
    },
    options.onError,
    options.keyChanges,
  );
  const allowedOrigins = new Set(options.allowedOrigins);
  const newServer = (subscriptions?: ResourceSubscriptions) =>
    createMcpServer(tools, gateway, { name: options.name, version: options.version, subscriptions });
  /** A Streamable HTTP session's subscriptions, kept with its stored session and followed by its GET stream. */
  const keptWithSession = (sessionId: string): ResourceSubscriptions => ({
    async add(_request, uri) {
      if (await sessions.subscribe(sessionId, uri)) return;
      const message = `A session may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources; unsubscribe from one first`;
      throw new McpError(ErrorCode.InvalidRequest, message);
    },
    remove: (uri) => sessions.unsubscribe(sessionId, uri),
  });
  const sessionNotFound = (request: Request, id: JsonRpcIdLike = null) =>
    jsonRpcError(404, -32001, 'Session not found', { id, requestId: requestState(request).requestId });
  /** The posted message, when the body is JSON (read from a copy: the transport reads the body itself). */
  const postedMessage = (request: Request): Promise<unknown> =>
    request.method === 'POST'
      ? request
          .clone()
          .json()
          .catch(() => null)
      : Promise.resolve(null);
  const notAllowed = (allow: string) => new Response(null, { status: 405, headers: { allow } });

  /** One request of a Streamable HTTP session, answered by a server of its own (the session's state is its row). */
  async function answer(request: Request, actor: Actor, message: unknown, sessionId: string): Promise<Response> {
    const invalid = invalidParams(message);
    if (invalid) {
      return jsonRpcError(200, ErrorCode.InvalidParams, invalid, { id: jsonRpcIdOf(message), requestId: requestState(request).requestId });
    }
    const server = newServer(keptWithSession(sessionId));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { authInfo: authInfoFor(request, actor) });
    } finally {
      await server.close();
    }
  }

  async function streamable(request: Request, actor: Actor): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    const message = await postedMessage(request);
    if (sessionId) {
      // A session id is a UUID this service made: anything else names no session (and never reaches the database).
      if (!SESSION_ID.test(sessionId) || !(await sessions.findStreamable(sessionId, actor.keyId))) {
        return sessionNotFound(request, jsonRpcIdOf(message));
      }
      if (request.method === 'DELETE') {
        await sessions.removeStreamable(sessionId);
        return new Response(null, { status: 200 });
      }
      if (request.method === 'GET') return openSessionStream(request, sessionId);
      return answer(request, actor, message, sessionId);
    }
    const required = () =>
      jsonRpcError(400, ErrorCode.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required', {
        id: jsonRpcIdOf(message),
        requestId: requestState(request).requestId,
      });
    if (request.method !== 'POST' || !isInitializeRequest(message)) return required();
    const id = randomUUID();
    const response = await answer(request, actor, message, id);
    if (response.ok) {
      await sessions.openStreamable(id, actor.keyId);
      response.headers.set('mcp-session-id', id);
    }
    return response;
  }

  /** A Streamable HTTP session's GET stream: resources/updated for what the session subscribed to, followed as the
   * GET's caller (the session's own credential: another's never finds the session). */
  async function openSessionStream(request: Request, sessionId: string): Promise<Response> {
    if (!(request.headers.get('accept') ?? '').includes('text/event-stream')) {
      const message = 'Not Acceptable: the GET stream of a session answers as text/event-stream';
      return jsonRpcError(406, ErrorCode.InvalidRequest, message, { requestId: requestState(request).requestId });
    }
    const transport = new SseServerTransport(request.signal, undefined, sessionId);
    const following = new ConversationFollowing(gateway, (uri) =>
      transport.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } }),
    );
    await transport.start();
    try {
      await sessions.openSessionStream(sessionId, transport, {
        follow: (uris) => following.followOnly(request, uris),
        stop: () => following.stopAll(),
      });
    } catch (error) {
      await transport.close();
      throw error;
    }
    return transport.response;
  }

  async function openSse(request: Request, actor: Actor): Promise<Response> {
    if (request.method !== 'GET') return notAllowed('GET');
    const transport = new SseServerTransport(request.signal, MCP_PATHS.messages);
    const server = newServer();
    await sessions.openStream(transport.sessionId, actor.keyId, server, transport);
    await server.connect(transport);
    return transport.response;
  }

  async function sseMessage(request: Request, actor: Actor, url: URL): Promise<Response> {
    if (request.method !== 'POST') return notAllowed('POST');
    const sessionId = url.searchParams.get('sessionId') ?? '';
    const location = SESSION_ID.test(sessionId) ? await sessions.findStream(sessionId, actor.keyId) : null;
    if (!location) return sessionNotFound(request, jsonRpcIdOf(await postedMessage(request)));
    const posted = await readPostedMessage(request);
    if ('refusal' in posted) return posted.refusal;
    const invalid = invalidParams(posted.message);
    if (invalid) {
      const requestId = requestState(request).requestId;
      return jsonRpcError(400, ErrorCode.InvalidParams, invalid, { id: jsonRpcIdOf(posted.message), requestId });
    }
    if ('stream' in location) {
      location.stream.transport.deliver(posted.message, authInfoFor(request, actor), Object.fromEntries(request.headers));
    } else {
      await sessions.forward(location.instanceId, {
        sessionId,
        message: posted.message,
        actor,
        requestId: requestState(request).requestId,
        idempotencyKey: request.headers.get('idempotency-key'),
      });
    }
    return new Response('Accepted', { status: 202 });
  }

  const opensSession = (path: string, request: Request) =>
    (path === MCP_PATHS.streamable && request.method === 'POST' && !request.headers.has('mcp-session-id')) ||
    (path === MCP_PATHS.sse && request.method === 'GET');

  return {
    sessions,
    plugin: {
      onRequest: routeHook(
        ({ url }) => url.pathname === MCP_PATHS.streamable || url.pathname === MCP_PATHS.sse || url.pathname === MCP_PATHS.messages,
        async ({ request, url, endResponse }) => {
          const path = url.pathname;
          const { actor, requestId } = requestState(request);
          if (!actor) throw new Error('The MCP plugin must come after authentication in the pipeline.');
          const origin = request.headers.get('origin');
          if (origin !== null && !allowedOrigins.has(origin)) {
            endResponse(errorResponse('ORIGIN_NOT_ALLOWED', `Origin ${origin} is not allowed`, { requestId }));
            return;
          }
          if (opensSession(path, request) && !(await sessions.makeRoomFor(actor.keyId))) {
            endResponse(
              errorResponse('RATE_LIMITED', 'Every MCP session this API key may hold is an open SSE stream; close one or retry later', {
                requestId,
                headers: { 'retry-after': String(FULL_RETRY_AFTER_SECONDS) },
              }),
            );
            return;
          }
          let response: Response;
          try {
            response =
              path === MCP_PATHS.streamable
                ? await streamable(request, actor)
                : path === MCP_PATHS.sse
                  ? await openSse(request, actor)
                  : await sseMessage(request, actor, url);
          } catch (error) {
            // A bug or a database away: logged here, answered without its text (no stack, no SQL).
            options.onError(error);
            response = jsonRpcError(500, ErrorCode.InternalError, 'Internal error', { requestId });
          }
          // A browser client of an allowed origin must be able to read the session headers.
          if (origin !== null) response.headers.set('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
          endResponse(response);
        },
      ),
    },
  };
}

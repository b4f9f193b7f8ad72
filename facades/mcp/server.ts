// The MCP server of one session: the tools (toolServer.ts), the resources (resources.ts) and the prompts
// (prompts.ts), all run through the gateway as the HTTP request that carried each message. The SDK's Server
// answers initialize with the client's protocol revision when it knows it, else the newest it knows.
// Resource subscriptions need a server that outlives the request: an HTTP+SSE session's, which lives with its
// stream. A Streamable HTTP request's server ends with the request (the server keeps no GET stream), so those
// sessions do not offer resources.subscribe (docs/api-decisions.md, MCP).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Gateway } from '../core/gateway.js';
import { serveTools, type PreparedTool } from './toolServer.js';
import { serveResources } from './resources.js';
import { servePrompts } from './prompts.js';

export type ServerOptions = { name: string; version: string; /** Whether the server outlives the request. */ subscriptions: boolean };

export function createMcpServer(tools: Map<string, PreparedTool>, gateway: Gateway, options: ServerOptions): Server {
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {}, resources: { subscribe: options.subscriptions }, prompts: {} } },
  );
  serveTools(server, tools, gateway);
  serveResources(server, gateway, options.subscriptions);
  servePrompts(server, gateway);
  return server;
}

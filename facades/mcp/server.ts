// The MCP server of one session: the tools (toolServer.ts), the resources (resources.ts) and the prompts
// (prompts.ts), all run through the gateway as the HTTP request that carried each message. The SDK's Server
// answers initialize with the client's protocol revision when it knows it, else the newest it knows. Both
// transports take resource subscriptions; the caller says where they are kept (ResourceSubscriptions).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Gateway } from '../core/gateway.js';
import { serveTools, type PreparedTool } from './toolServer.js';
import { serveResources, type ResourceSubscriptions } from './resources.js';
import { servePrompts } from './prompts.js';
import { ConversationFollowing } from './following.js';

export type ServerOptions = {
  name: string;
  version: string;
  /** Where the session's subscriptions are kept; absent, the server itself follows them while it lives (HTTP+SSE). */
  subscriptions?: ResourceSubscriptions;
};

export function createMcpServer(tools: Map<string, PreparedTool>, gateway: Gateway, options: ServerOptions): Server {
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {}, resources: { subscribe: true }, prompts: {} } },
  );
  serveTools(server, tools, gateway);
  serveResources(server, gateway, options.subscriptions ?? followedByServer(server, gateway));
  servePrompts(server, gateway);
  return server;
}

/** Subscriptions that the server follows itself, until it closes. */
function followedByServer(server: Server, gateway: Gateway): ResourceSubscriptions {
  const following = new ConversationFollowing(gateway, (uri) => server.sendResourceUpdated({ uri }));
  const previousOnClose = server.onclose;
  server.onclose = () => {
    following.stopAll();
    previousOnClose?.();
  };
  return {
    add: (request, uri) => following.follow(request, uri),
    remove: async (uri) => following.stop(uri),
  };
}

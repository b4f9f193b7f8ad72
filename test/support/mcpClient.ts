// The MCP SDK's own client over the harness's /mcp with an API key, as an agent's MCP host calls the service: a
// tool's answer is read as {isError, json, structured} (the text content, and the structuredContent that carries the
// same object on success); `client` is the SDK client itself, for listing tools, resources and prompts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Harness } from './harness.js';

export type McpAnswer = { isError: boolean; json: Record<string, any>; structured: CallToolResult['structuredContent'] };

export async function openMcpClient(h: Harness, key: string) {
  const transport = new StreamableHTTPClientTransport(new URL('http://service.test/mcp'), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (url, init) => Promise.resolve(h.app.yoga.fetch(new Request(url, init))),
  });
  const client = new Client({ name: 'test-host', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name: string, args: Record<string, unknown> = {}): Promise<McpAnswer> {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      return { isError: result.isError === true, json: JSON.parse(text) as Record<string, any>, structured: result.structuredContent };
    },
    async close() {
      await transport.terminateSession();
      await client.close();
    },
  };
}

// The transcript tools as an AI client uses them, through the MCP SDK's own Client on both transports over a
// real port: conversations_messages, messages_get and messages_search answer exactly the JSON of their REST
// routes, and another workspace's conversation is NOT_FOUND.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openHarness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';
import { getJson } from '../support/restFixtures.js';

const h = await openHarness({ rateLimitPerMinute: 100_000 });
const http = createServer(h.app.yoga);
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

const shop = await h.workspace('Tools');
const other = await h.workspace('Not theirs');
const contact = await h.db.prisma.customer.create({ data: { company_id: shop.workspace_id, name: 'Ada' } });
const conversation = await seedConversation(h.db.prisma, shop, contact.id, {
  messages: ['Hello', 'My parcel is late', 'Order 1234', 'Thanks'],
});
const messageIds = (await h.db.prisma.message.findMany({ where: { conversation_id: conversation.id }, orderBy: { id: 'desc' } })).map(
  (message) => message.id,
);

const TRANSPORTS = {
  'Streamable HTTP': (key: string) =>
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  SSE: (key: string) =>
    new SSEClientTransport(new URL(`${base}/mcp/sse`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
};

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('over %s', (name) => {
  async function withClient<T>(key: string, use: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ name: 'transcripts-test', version: '1.0.0' });
    const transport = TRANSPORTS[name](key);
    await client.connect(transport);
    try {
      return await use(client);
    } finally {
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession();
      await client.close();
    }
  }

  async function call(client: Client, tool: string, args: Record<string, unknown>) {
    const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    return { isError: result.isError === true, json: JSON.parse(text) as Record<string, unknown> };
  }

  it('answers each transcript tool with exactly the JSON of its REST route', async () => {
    await withClient(shop.api_key, async (client) => {
      const cases: [string, Record<string, unknown>, string][] = [
        [
          'conversations_messages',
          { conversation_id: conversation.id, limit: 2 },
          `/api/v1/conversations/${conversation.id}/messages?limit=2`,
        ],
        [
          'conversations_messages',
          { conversation_id: conversation.id, limit: 2, before: messageIds[1] },
          `/api/v1/conversations/${conversation.id}/messages?limit=2&before=${messageIds[1]}`,
        ],
        ['messages_get', { id: messageIds[2] }, `/api/v1/messages/${messageIds[2]}`],
        [
          'messages_search',
          { q: 'parcel', conversation_id: conversation.id },
          `/api/v1/messages/search?q=parcel&conversation_id=${conversation.id}`,
        ],
      ];
      for (const [tool, args, path] of cases) {
        const rest = await getJson(h, path, { key: shop.api_key });
        expect(rest.status).toBe(200);
        expect(await call(client, tool, args)).toEqual({ isError: false, json: rest.body });
      }
      const page = (await call(client, 'conversations_messages', { conversation_id: conversation.id, limit: 2 })).json;
      expect(page).toMatchObject({ has_more: true, next_cursor: messageIds[1] });
      expect((page['data'] as { body: string }[]).map((message) => message.body)).toEqual(['Thanks', 'Order 1234']);
    });
  });

  it("answers NOT_FOUND for another workspace's conversation and message, as REST does", async () => {
    await withClient(other.api_key, async (client) => {
      for (const [tool, args] of [
        ['conversations_messages', { conversation_id: conversation.id }],
        ['messages_get', { id: messageIds[0] }],
      ] as const) {
        const { isError, json } = await call(client, tool, args);
        expect(isError).toBe(true);
        expect((json['error'] as { code: string }).code).toBe('NOT_FOUND');
      }
      expect((await call(client, 'messages_search', { q: 'parcel' })).json).toEqual({ data: [], next_cursor: null, has_more: false });
    });
  });
});

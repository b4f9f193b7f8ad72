// Open MCP GET streams hold no database connection while they wait (on PostgreSQL the test pool has 5): fifteen
// Streamable HTTP sessions, spread over three instances of the service on one database as a scaled-out deployment
// has them, each hold the SDK client's GET stream following a conversation; meanwhile tool calls that run
// transactions are answered, and a new message reaches all fifteen streams through the one listening connection
// that the process shares (infra/db/notifications.ts).
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openHarness, type Harness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';
import { createApp, type App } from '../../app/createApp.js';
import { createLogger } from '../../infra/observability/logger.js';
import { createEdge } from '../../app/edge.js';
import { loadSettings } from '../../infra/config/settings.js';

const INSTANCES = 3;
/** The per-key cap (MCP_MAX_SESSIONS_PER_KEY): each instance's streams belong to a key of their own. */
const STREAMS_PER_INSTANCE = 5;

let harness: Harness;
const instances: { app: App; http: HttpServer; base: string }[] = [];
const clients: Client[] = [];

/** One instance of the service (its own app and session store) on the harness's database, on a real port. */
async function startInstance() {
  const logger = createLogger('silent');
  const edge = createEdge({ ...loadSettings({}), RATE_LIMIT_PER_MINUTE: 100_000 }, { logger });
  const app = createApp(harness.services, {
    graphiql: false,
    logger,
    edge,
    mcp: { allowedOrigins: [] },
    sessionStore: harness.sessionStore(),
  });
  // Each client holds a GET stream beside its POSTs: a pooled socket closed after the default 5 s would reset a POST.
  const http = createServer({ keepAliveTimeout: 60_000 }, app.yoga);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  instances.push({ app, http, base: `http://127.0.0.1:${(http.address() as AddressInfo).port}` });
}

beforeAll(async () => {
  harness = await openHarness();
  for (let started = 0; started < INSTANCES; started += 1) await startInstance();
});

afterAll(async () => {
  for (const client of clients) {
    await (client.transport as StreamableHTTPClientTransport).terminateSession().catch(() => undefined);
    await client.close();
  }
  for (const { app, http } of instances) {
    await app.mcpSessions.closeAll();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

/** A Streamable HTTP client, once its GET stream is the one its session's notifications go to. */
async function connectWithStream(base: string, key: string): Promise<Client> {
  const client = new Client({ name: 'streams-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  await expect
    .poll(async () => (await harness.db.prisma.mcpSession.findUnique({ where: { id: transport.sessionId! } }))?.stream_id ?? null, {
      timeout: 10_000,
    })
    .not.toBeNull();
  return client;
}

async function tool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, any>;
}

it(`answers requests while ${INSTANCES * STREAMS_PER_INSTANCE} GET streams are open, and tells each of them of a new message`, async () => {
  const workspace = await harness.workspace();
  const writer = await connectWithStream(instances[0]!.base, workspace.api_key);
  const contact = await tool(writer, 'contacts_create', { name: 'Followed', phone_number: `+1557${String(Date.now()).slice(-7)}` });
  const conversation = await seedConversation(harness.db.prisma, workspace, contact['id'], { messages: ['hi'] });
  const uri = `crm://conversations/${conversation.id}`;

  const told = new Map<Client, number>();
  for (const { base } of instances) {
    const key = await harness.key(workspace.workspace_id, ['conversations']);
    for (let opened = 0; opened < STREAMS_PER_INSTANCE; opened += 1) {
      const follower = await connectWithStream(base, key);
      told.set(follower, 0);
      follower.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void told.set(follower, told.get(follower)! + 1));
      await follower.subscribeResource({ uri });
    }
  }

  // Each contacts_create runs a transaction: with the pool taken by the streams, they would wait and fail.
  const created = await Promise.all(
    Array.from({ length: 10 }, (_, each) =>
      tool(writer, 'contacts_create', { name: `Meanwhile ${each}`, phone_number: `+1558${String(Date.now() + each).slice(-7)}` }),
    ),
  );
  expect(created).toHaveLength(10);

  await tool(writer, 'messages_send', { conversation_id: conversation.id, body: 'to every follower' });
  await expect.poll(() => [...told.values()], { timeout: 10_000 }).toEqual(Array(INSTANCES * STREAMS_PER_INSTANCE).fill(1));
});

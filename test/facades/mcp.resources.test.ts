// MCP resources and prompts as AI clients use them: the SDK's own Client over real HTTP on both transports.
// Proves resources/list and resources/templates/list, resources/read of a conversation (transcript newest last,
// with the window's state), a contact and a knowledge document, tenancy (another workspace's record is
// "Resource not found") and scopes (a key without the scope gets INSUFFICIENT_SCOPE), resources/subscribe on both
// transports sending notifications/resources/updated when a message arrives in the conversation (on Streamable HTTP
// through the session's GET stream, which the SDK client opens itself) and nothing after unsubscribe, the GET
// stream's doors (another key, no session, no event-stream Accept; DELETE and a revoked key end it), and the
// prompts: summarize_conversation and draft_reply embed the conversation resource, draft_reply proposes a template
// when the window is closed, triage_inbox lists open conversations.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { ResourceUpdatedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openHarness, type Harness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';
import { createApp, type App } from '../../app/createApp.js';
import { createLogger } from '../../infra/observability/logger.js';
import { createEdge } from '../../app/edge.js';
import { loadSettings } from '../../infra/config/settings.js';
import type { CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';
import { createApiKey, revokeApiKey } from '../../resolvers/workspace/apiKeys.js';

let harness: Harness;
let app: App;
let http: HttpServer;
let base: string;
const clients: Client[] = [];

beforeAll(async () => {
  harness = await openHarness();
  const logger = createLogger('silent');
  const edge = createEdge({ ...loadSettings({}), RATE_LIMIT_PER_MINUTE: 100_000 }, { logger });
  app = createApp(harness.services, { graphiql: false, logger, edge, mcp: { allowedOrigins: [] }, sessionStore: harness.sessionStore() });
  // Each client holds a GET stream beside its POSTs: with the default 5 s, a pooled socket the server closes while
  // the loaded event loop stalls resets the client's next POST (ECONNRESET).
  http = createServer({ keepAliveTimeout: 60_000 }, app.yoga);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterEach(async () => {
  for (const client of clients.splice(0)) {
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
});

afterAll(async () => {
  await app.mcpSessions.closeAll();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

const TRANSPORTS = {
  'Streamable HTTP': (key: string) =>
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  SSE: (key: string) =>
    new SSEClientTransport(new URL(`${base}/mcp/sse`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
};
type TransportName = keyof typeof TRANSPORTS;

async function connect(transport: TransportName, key: string) {
  const client = new Client({ name: 'resources-test', version: '1.0.0' });
  await client.connect(TRANSPORTS[transport](key));
  clients.push(client);
  return client;
}

async function tool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, any>;
}

const textOf = (contents: object[]) => String((contents[0] as { text?: string } | undefined)?.text);

describe.each(Object.keys(TRANSPORTS) as TransportName[])('over %s', (transport) => {
  let workspace: CreatedWorkspace;
  let other: CreatedWorkspace;
  beforeAll(async () => {
    workspace = await harness.workspace();
    other = await harness.workspace();
  });

  it('lists the resource templates and the latest conversations, and reads a transcript, a contact and a knowledge document', async () => {
    const client = await connect(transport, workspace.api_key);
    expect(client.getServerCapabilities()).toEqual({ resources: { subscribe: true }, prompts: {}, tools: {} });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'crm://conversations/{id}',
      'crm://contacts/{id}',
      'crm://knowledge/{id}',
    ]);

    const contact = await tool(client, 'contacts_create', { name: 'Grace Hopper', phone_number: `+1555${String(Date.now()).slice(-7)}` });
    const conversation = await seedConversation(harness.db.prisma, workspace, contact['id'], {
      messages: ['first question', 'second question'],
    });
    await tool(client, 'messages_send', { conversation_id: conversation.id, body: 'our answer' });

    const { resources } = await client.listResources();
    expect(resources).toContainEqual({
      uri: `crm://conversations/${conversation.id}`,
      name: 'Conversation with Grace Hopper',
      mimeType: 'text/plain',
    });

    const read = await client.readResource({ uri: `crm://conversations/${conversation.id}` });
    const lines = textOf(read.contents).split('\n');
    expect(lines[0]).toBe(`Conversation ${conversation.id} with Grace Hopper (${contact['phone_number']}), status active.`);
    expect(lines[1]).toMatch(/^Messaging window: open until \d{4}-/);
    // Oldest first, newest last: the two inbound questions, then the reply sent through the tool.
    expect(lines.slice(3).map((line) => line.replace(/^\[[^\]]+\] /, ''))).toEqual([
      'contact: first question',
      'contact: second question',
      'api_key: our answer',
    ]);

    const person = await client.readResource({ uri: `crm://contacts/${contact['id']}` });
    expect(person.contents[0]).toMatchObject({ mimeType: 'application/json' });
    expect(JSON.parse(textOf(person.contents))).toEqual(await tool(client, 'contacts_get', { id: contact['id'] }));

    const document = await tool(client, 'knowledge_create', { title: 'Returns', content: 'Returns are free within 30 days.' });
    const knowledge = await client.readResource({ uri: `crm://knowledge/${document['id']}` });
    expect(JSON.parse(textOf(knowledge.contents))).toMatchObject({ title: 'Returns', content: 'Returns are free within 30 days.' });
  });

  it("keeps workspaces apart and applies the key's scopes: another workspace's record is not found, a missing scope refused", async () => {
    const owner = await connect(transport, workspace.api_key);
    const contact = await tool(owner, 'contacts_create', {
      name: 'Kept apart',
      email: `apart.${transport.length}.${Date.now()}@example.com`,
    });
    const conversation = await seedConversation(harness.db.prisma, workspace, contact['id'], { messages: ['private'] });

    const stranger = await connect(transport, other.api_key);
    await expect(stranger.readResource({ uri: `crm://conversations/${conversation.id}` })).rejects.toMatchObject({
      code: -32002,
      data: { error: { code: 'NOT_FOUND' } },
    });
    await expect(stranger.readResource({ uri: `crm://contacts/${contact['id']}` })).rejects.toMatchObject({ code: -32002 });
    expect((await stranger.listResources()).resources).toEqual([]);
    await expect(stranger.readResource({ uri: 'crm://invoices/1' })).rejects.toMatchObject({ code: -32002 });

    const { api_key: narrow } = await createApiKey(harness.db.prisma, { workspaceId: workspace.workspace_id, scopes: ['customers'] });
    const limited = await connect(transport, narrow);
    expect(JSON.parse(textOf((await limited.readResource({ uri: `crm://contacts/${contact['id']}` })).contents))).toMatchObject({
      name: 'Kept apart',
    });
    await expect(limited.readResource({ uri: `crm://conversations/${conversation.id}` })).rejects.toMatchObject({
      data: { error: { code: 'INSUFFICIENT_SCOPE' } },
    });
    await expect(limited.subscribeResource({ uri: `crm://conversations/${conversation.id}` })).rejects.toMatchObject({
      data: { error: { code: 'INSUFFICIENT_SCOPE' } },
    });
    await expect(stranger.subscribeResource({ uri: `crm://conversations/${conversation.id}` })).rejects.toMatchObject({ code: -32002 });
    expect((await limited.listResources()).resources).toEqual([]);
  });

  it('offers summarize_conversation, draft_reply and triage_inbox; draft_reply proposes a template once the window is closed', async () => {
    const client = await connect(transport, workspace.api_key);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      'summarize_conversation',
      'draft_reply',
      'triage_inbox',
    ]);
    const contact = await tool(client, 'contacts_create', { name: 'Alan', email: `alan.${transport.length}.${Date.now()}@example.com` });
    const open = await seedConversation(harness.db.prisma, workspace, contact['id'], { messages: ['where is my parcel?'] });
    const stale = await seedConversation(harness.db.prisma, workspace, contact['id'], {
      lastMessageAt: new Date(Date.now() - 25 * 3600_000),
    });

    const summary = await client.getPrompt({ name: 'summarize_conversation', arguments: { conversation_id: open.id } });
    expect(summary.messages[0]!.content).toMatchObject({
      type: 'resource',
      resource: { uri: `crm://conversations/${open.id}`, mimeType: 'text/plain', text: expect.stringContaining('where is my parcel?') },
    });
    expect(summary.messages[1]!.content).toMatchObject({ type: 'text', text: expect.stringContaining('Summarize') });

    const reply = await client.getPrompt({ name: 'draft_reply', arguments: { conversation_id: open.id, instructions: 'be brief' } });
    expect(reply.messages[1]!.content).toMatchObject({ text: expect.stringMatching(/^Draft the next reply[\s\S]*be brief/) });

    const closed = await client.getPrompt({ name: 'draft_reply', arguments: { conversation_id: stale.id } });
    expect(closed.messages[0]!.content).toMatchObject({ resource: { text: expect.stringContaining('Messaging window: closed') } });
    expect(closed.messages[1]!.content).toMatchObject({ text: expect.stringContaining('- order_confirmation (en_US') });
    expect(closed.messages[1]!.content).toMatchObject({ text: expect.stringContaining('window of this conversation is closed') });

    const triage = await client.getPrompt({ name: 'triage_inbox', arguments: { limit: '50' } });
    expect(triage.messages[0]!.content).toMatchObject({ text: expect.stringContaining(`crm://conversations/${open.id} with Alan`) });

    await expect(client.getPrompt({ name: 'summarize_conversation', arguments: {} })).rejects.toThrow(/conversation_id is required/);
    const stranger = await connect(transport, other.api_key);
    await expect(stranger.getPrompt({ name: 'summarize_conversation', arguments: { conversation_id: open.id } })).rejects.toMatchObject({
      code: -32002,
    });
  });
});

/** Resolves once the Streamable HTTP client's GET stream is the one its session's notifications go to. */
async function streamOpen(client: Client) {
  const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
  await expect
    .poll(async () => (await harness.db.prisma.mcpSession.findUnique({ where: { id: sessionId } }))?.stream_id ?? null, { timeout: 10_000 })
    .not.toBeNull();
  return sessionId;
}

describe.each(Object.keys(TRANSPORTS) as TransportName[])('resource subscriptions over %s', (transport) => {
  it('sends notifications/resources/updated when a message arrives in the subscribed conversation, and stops after unsubscribe', async () => {
    const workspace = await harness.workspace();
    const client = await connect(transport, workspace.api_key);
    if (transport === 'Streamable HTTP') await streamOpen(client);
    const contact = await tool(client, 'contacts_create', { name: 'Subscriber', phone_number: `+1556${String(Date.now()).slice(-7)}` });
    const conversation = await seedConversation(harness.db.prisma, workspace, contact['id'], { messages: ['hi'] });
    const elsewhere = await seedConversation(harness.db.prisma, workspace, contact['id'], { messages: ['other'] });
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updated.push(notification.params.uri));

    const uri = `crm://conversations/${conversation.id}`;
    await client.subscribeResource({ uri });
    await tool(client, 'messages_send', { conversation_id: elsewhere.id, body: 'not this one' });
    await tool(client, 'messages_send', { conversation_id: conversation.id, body: 'a new message' });
    await expect.poll(() => updated, { timeout: 10_000 }).toEqual([uri]);

    await client.unsubscribeResource({ uri });
    await tool(client, 'messages_send', { conversation_id: conversation.id, body: 'after unsubscribe' });
    // A message of the still-followed kind would have arrived by the time this read completes and another send's
    // event is out: the subscription is gone, so the list stays as it was.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(updated).toEqual([uri]);
    await expect(client.subscribeResource({ uri: 'crm://contacts/x' })).rejects.toThrow(/Only a conversation/);
  });
});

describe("a Streamable HTTP session's GET stream", () => {
  const stream = (headers: Record<string, string>) => fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', ...headers } });

  it('is open only to the credential that created the session, only with a session id and as text/event-stream', async () => {
    const workspace = await harness.workspace();
    const client = await connect('Streamable HTTP', workspace.api_key);
    const sessionId = await streamOpen(client);
    const otherKey = await harness.key(workspace.workspace_id, ['conversations']);

    const foreign = await stream({ authorization: `Bearer ${otherKey}`, 'mcp-session-id': sessionId });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
    const withoutSession = await stream({ authorization: `Bearer ${workspace.api_key}` });
    expect(withoutSession.status).toBe(400);
    expect(await withoutSession.json()).toMatchObject({ error: { message: 'Bad Request: Mcp-Session-Id header is required' } });
    const notStream = await fetch(`${base}/mcp`, {
      headers: { authorization: `Bearer ${workspace.api_key}`, 'mcp-session-id': sessionId },
    });
    expect(notStream.status).toBe(406);
    expect((await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } })).status).toBe(401);
  });

  /** A session opened by hand (the SDK client would open its own GET stream and take the session's stream back). */
  async function rawSession(key: string) {
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
    const response = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize }),
    });
    await response.body?.cancel();
    return { authorization: `Bearer ${key}`, 'mcp-session-id': response.headers.get('mcp-session-id')! };
  }

  /** An open GET stream's reader, past its first line. */
  async function openStream(headers: Record<string, string>) {
    const response = await stream(headers);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    return reader;
  }
  const ended = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
    while (!(await reader.read()).done);
  };

  it('ends on DELETE /mcp and at once when the key is revoked; a newer GET stream takes over from an older one', async () => {
    const workspace = await harness.workspace();
    const own = await rawSession(workspace.api_key);
    const first = await openStream(own);
    const second = await openStream(own);
    await ended(first);

    expect((await fetch(`${base}/mcp`, { method: 'DELETE', headers: own })).status).toBe(200);
    await ended(second);
    expect((await stream(own)).status).toBe(404);

    const revokedKey = await createApiKey(harness.db.prisma, {
      workspaceId: workspace.workspace_id,
      name: 'revoked',
      scopes: ['conversations'],
    });
    const revocable = await rawSession(revokedKey.api_key);
    const held = await openStream(revocable);
    const revokedAt = Date.now();
    await revokeApiKey(harness.db.prisma, workspace.workspace_id, revokedKey.key.id);
    await ended(held);
    // Not at the next sweep (every 30 s here): the revocation itself is heard.
    expect(Date.now() - revokedAt).toBeLessThan(10_000);
  });
});

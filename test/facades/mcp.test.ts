// The MCP server as AI clients use it: the SDK's own Client over real HTTP (a port on 127.0.0.1), on both
// transports (Streamable HTTP at /mcp, HTTP+SSE at /mcp/sse). Proves the tool list and each tool, that a
// tool answers what GraphQL answers, workspace isolation, scopes, 401 before any session, the Origin
// check, session binding to the key, and error results carrying the spec's error object. Every tool declares an
// output schema and every success carries structuredContent that the SDK client validates against it (each client
// lists the tools first, which arms that check); the server negotiates the protocol revision down for older clients.
import { LOCAL_RECEIVER_HOSTS } from '../support/webhookReceiver.js';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openHarness, type Harness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';
import { createApp, type App } from '../../app/createApp.js';
import { createLogger } from '../../infra/observability/logger.js';
import { operation, operationDefinition } from '../../facades/core/operations.js';
import { ANNOTATIONS } from '../../facades/mcp/toolServer.js';
import { FACADE_TABLE } from '../../facades/operations/index.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { createEdge } from '../../app/edge.js';
import { loadSettings } from '../../infra/config/settings.js';
import type { CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';
import { createApiKey, revokeApiKey } from '../../resolvers/workspace/apiKeys.js';

const TOOLS = FACADE_TABLE.flatMap((entry) => (entry.mcp ? [{ ...entry.mcp, operation: entry.operation }] : []));

const ALLOWED_ORIGIN = 'https://app.example.com';
const MAX_SESSIONS_PER_KEY = 3;

let harness: Harness;
const servers: { app: App; http: HttpServer; base: string }[] = [];
const clients: { client: Client; transport: StreamableHTTPClientTransport | SSEClientTransport }[] = [];

/** The service on a real port, with the MCP settings under test. */
async function serve(mcp: NonNullable<Parameters<typeof createApp>[1]['mcp']>, settings: Partial<ReturnType<typeof loadSettings>> = {}) {
  const logger = createLogger('silent');
  // The tests call every tool over both transports with one key each: more than 100 requests a minute.
  const edge = createEdge({ ...loadSettings({}), RATE_LIMIT_PER_MINUTE: 100_000, ...settings }, { logger });
  const app = createApp(harness.services, { graphiql: false, logger, edge, mcp, sessionStore: harness.sessionStore() });
  // Each client holds a GET stream beside its POSTs: with the default 5 s, a pooled socket the server closes while
  // the loaded event loop stalls resets the client's next POST (ECONNRESET).
  const http = createServer({ keepAliveTimeout: 60_000 }, app.yoga);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const server = { app, http, base: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
  servers.push(server);
  return server;
}

let main: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  // Webhook tools point at a closed port on this machine: private targets are allowed here, and nothing listens.
  harness = await openHarness({ webhookTargets: createTargetGuard({ allowedHosts: LOCAL_RECEIVER_HOSTS }) });
  main = await serve({ allowedOrigins: [ALLOWED_ORIGIN] });
});

/** Streamable HTTP sessions outlive their client until deleted, as the protocol says; tests delete theirs. */
afterEach(async () => {
  for (const { client, transport } of clients.splice(0)) {
    // A session the server already closed (evicted, idle, revoked) answers 404 to the DELETE: nothing left to end.
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId)
      await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
});

afterAll(async () => {
  for (const { app, http } of servers) {
    await app.mcpSessions.closeAll();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

const TRANSPORTS = {
  'Streamable HTTP': (base: string, headers: Record<string, string>) =>
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }),
  SSE: (base: string, headers: Record<string, string>) => new SSEClientTransport(new URL(`${base}/mcp/sse`), { requestInit: { headers } }),
};
type TransportName = keyof typeof TRANSPORTS;
const TRANSPORT_NAMES = Object.keys(TRANSPORTS) as TransportName[];

/** A connected client; `validate` (default true) lists the tools first, which arms the client's output check. */
async function connect(
  transportName: TransportName,
  key: string,
  options: { headers?: Record<string, string>; base?: string; validate?: boolean } = {},
) {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const transport = TRANSPORTS[transportName](options.base ?? main.base, { authorization: `Bearer ${key}`, ...options.headers });
  await client.connect(transport);
  clients.push({ client, transport });
  // The SDK client validates structuredContent against a tool's outputSchema once it has listed the tools.
  if (options.validate !== false) await client.listTools();
  return client;
}

/** A tool's result: its JSON text, which must equal its structured content (none on an error result). */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  const json = JSON.parse(text) as Record<string, any>;
  expect(result.structuredContent).toEqual(result.isError === true ? undefined : json);
  return { isError: result.isError === true, json };
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const { isError, json } = await call(client, name, args);
  expect(isError, JSON.stringify(json)).toBe(false);
  return json;
}

async function failure(client: Client, name: string, args: Record<string, unknown> = {}) {
  const { isError, json } = await call(client, name, args);
  expect(isError).toBe(true);
  return json['error'] as { code: string; message: string; details?: Record<string, unknown>; request_id: string };
}

/** A validator that refuses every value: the client must then refuse every structured result. */
const rejectingValidator = {
  getValidator: () => () => ({ valid: false as const, data: undefined, errorMessage: 'refused by the test' }),
};

let phones = 0;
const phone = () => `+4477${String(Date.now() % 10_000_000).padStart(7, '0')}${++phones % 10}`;

describe.each(TRANSPORT_NAMES)('over %s', (transport) => {
  let workspace: CreatedWorkspace;
  beforeAll(async () => {
    workspace = await harness.workspace();
  });

  it('lists every tool with its description, kind annotations and an input schema derived from its operation', async () => {
    const client = await connect(transport, workspace.api_key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
    for (const entry of TOOLS) {
      const tool = tools.find((candidate) => candidate.name === entry.name)!;
      // `conversations_messages` (issue 14) reads a conversation's messages: `messages` is its action.
      expect(tool.name).toMatch(
        /^[a-z]+(_[a-z]+)*_(list|search|get|create|update|delete|bulk_import|add|remove|close|reopen|assign|unassign|send|book|cancel|upload|summary|export|rotate_token|test|rotate_secret|redeliver|schedule|start|pause|resume|messages|runs|timeline)$/,
      );
      expect(tool.description).toBe(entry.description);
      expect(tool.annotations).toEqual(ANNOTATIONS[entry.kind]);
      expect(tool.inputSchema.type).toBe('object');
      const variables = (operationDefinition(entry.operation).variableDefinitions ?? []).map(
        (definition) => definition.variable.name.value,
      );
      expect(Object.keys(tool.inputSchema.properties ?? {}), entry.name).toEqual(variables.sort());
      expect(tool.outputSchema, entry.name).toMatchObject({ type: 'object', additionalProperties: false, $defs: expect.any(Object) });
    }
    // The REST response schema of the same operation, with its components under the tool schema's own $defs.
    const get = tools.find((tool) => tool.name === 'contacts_get')!;
    expect(get.outputSchema?.required).toEqual(expect.arrayContaining(['id', 'name', 'phone_number', 'tags', 'created_at']));
    // "Or null" as anyOf branches of one type each, as every MCP client reads them (facades/mcp/portableSchema.ts).
    expect(get.outputSchema?.properties?.['tags']).toMatchObject({
      anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }],
    });
    const update = tools.find((tool) => tool.name === 'contacts_update')!;
    expect(update.inputSchema.required).toEqual(['id']);
    expect(Object.keys(update.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'name', 'phone_number', 'wa_id', 'email', 'metadata']),
    );
    const add = tools.find((tool) => tool.name === 'contact_channels_add')!;
    expect(add.inputSchema.properties?.['type']).toMatchObject({ enum: ['bsuid', 'email', 'parent_bsuid', 'phone', 'username', 'wa_id'] });
    expect(add.inputSchema.required).toEqual(['customer_id', 'type', 'value']);
  });

  it('manages contacts, channels, bulk imports and tags with the contacts_* , contact_channels_* and tags_* tools', async () => {
    const client = await connect(transport, workspace.api_key);
    const number = phone();
    const created = await ok(client, 'contacts_create', { name: 'Ada Lovelace', phone_number: number, email: 'ADA@example.com' });
    expect(created).toMatchObject({
      name: 'Ada Lovelace',
      phone_number: number,
      email: 'ada@example.com',
      tags: [],
      conversation_count: 0,
    });
    const id = created['id'] as string;

    const fetched = await ok(client, 'contacts_get', { id });
    const graphql = await harness.graphql(workspace.api_key, print(operation('Contact')), { id });
    expect(fetched).toEqual(graphql.body.data!['contact']);

    expect((await ok(client, 'contacts_list', { limit: 5 }))['data'][0]).toMatchObject({ id });
    expect((await ok(client, 'contacts_search', { q: 'lovelace' }))['data']).toEqual([expect.objectContaining({ id })]);
    expect(await ok(client, 'contacts_update', { id, name: 'Ada King', notes: 'prefers email' })).toMatchObject({
      name: 'Ada King',
      notes: 'prefers email',
    });

    const channel = await ok(client, 'contact_channels_add', { customer_id: id, type: 'wa_id', value: number.slice(1) });
    expect(channel).toMatchObject({ type: 'wa_id', is_primary: true, provider: 'sandbox' });
    expect((await ok(client, 'contact_channels_list', { customer_id: id }))['channels']).toHaveLength(3);
    expect(await ok(client, 'contact_channels_remove', { id: channel['id'] })).toEqual({ id: channel['id'], deleted: true });

    const imported = await ok(client, 'contacts_bulk_import', {
      contacts: [
        { name: 'Imported One', email: `one.${transport.length}.${Date.now()}@example.com` },
        { name: 'Dup', phone_number: number },
      ],
    });
    expect(imported).toMatchObject({ created: 1, failed: 1 });
    expect(imported['results'][1]).toMatchObject({
      index: 1,
      status: 'failed',
      contact: null,
      error: { code: 'CONFLICT', details: { contact_id: id } },
    });

    const tag = await ok(client, 'tags_create', { name: `vip ${transport}`, color: '#1e88e5' });
    expect((await ok(client, 'tags_list'))['tags']).toEqual(expect.arrayContaining([expect.objectContaining({ id: tag['id'] })]));
    expect(await ok(client, 'tags_assign', { customer_id: id, tag_id: tag['id'] })).toEqual({
      customer_id: id,
      tag_id: tag['id'],
      assigned: true,
    });
    expect((await ok(client, 'contacts_get', { id }))['tags']).toEqual([`vip ${transport}`]);
    expect(await ok(client, 'tags_unassign', { customer_id: id, tag_id: tag['id'] })).toMatchObject({ assigned: false });

    const conversation = await seedConversation(harness.db.prisma, workspace, id, { messages: ['hello'] });
    expect(await ok(client, 'contacts_delete', { id })).toEqual({ id, deleted: true, deleted_conversations: 1, deleted_messages: 1 });
    expect((await failure(client, 'conversations_get', { id: conversation.id })).code).toBe('NOT_FOUND');
  });

  it('sends messages within the window and templates outside it with messages_send, and lists templates with templates_list', async () => {
    const client = await connect(transport, workspace.api_key);
    const contact = await ok(client, 'contacts_create', { name: `Hedy ${transport}`, wa_id: `4477${Date.now() % 10_000_000}` });
    const open = await seedConversation(harness.db.prisma, workspace, contact['id'], { lastMessageAt: new Date() });
    const sent = await ok(client, 'messages_send', { conversation_id: open.id, body: 'Your parcel is on its way' });
    expect(sent['message']).toMatchObject({
      conversation_id: open.id,
      body: 'Your parcel is on its way',
      direction: 'outbound',
      status: 'sent',
    });

    const stale = await seedConversation(harness.db.prisma, workspace, contact['id'], {
      lastMessageAt: new Date(Date.now() - 25 * 3600_000),
    });
    const refused = await failure(client, 'messages_send', { conversation_id: stale.id, body: 'Hello again' });
    expect(refused).toMatchObject({ code: 'MESSAGING_WINDOW_CLOSED', details: { window_closed_at: expect.any(String) } });

    const approved = await ok(client, 'templates_list', { status: 'approved' });
    expect(approved['total']).toBe(approved['templates'].length);
    const template = approved['templates'].find((candidate: { name: string }) => candidate.name === 'order_confirmation');
    expect(template).toMatchObject({ status: 'APPROVED', language: 'en_US' });
    // As on REST, optional fields without a value are left out rather than null.
    expect(template.components.find((component: { type: string }) => component.type === 'BODY')).toEqual({
      type: 'BODY',
      text: 'Hi {{1}}, thank you for your order! It will ship on {{2}}.',
    });
    expect(template).not.toHaveProperty('rejected_reason');
    const viaTemplate = await ok(client, 'messages_send', {
      conversation_id: stale.id,
      template: { name: 'order_confirmation', language: 'en_US', parameters: ['#7', 'Hedy', 'Monday'] },
    });
    expect(viaTemplate['message']).toMatchObject({ status: 'sent', direction: 'outbound' });
  });

  it("books an appointment into a free slot, adds and searches knowledge, and reads the week's metrics", async () => {
    const client = await connect(transport, workspace.api_key);
    const everyDay = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekday) => ({
      weekday,
      start: '00:00',
      end: '24:00',
    }));
    const type = await ok(client, 'appointment_types_create', {
      name: `Fitting ${transport}`,
      duration_minutes: 30,
      buffer_minutes: 10,
      availability: everyDay,
    });
    const from = new Date(Date.now() + 24 * 3600_000).toISOString();
    const to = new Date(Date.now() + 48 * 3600_000).toISOString();
    const { slots } = await ok(client, 'calendar_slots_list', { appointment_type_id: type['id'], from, to });
    expect(slots.length).toBeGreaterThan(0);
    const contact = await ok(client, 'contacts_create', { name: `Booker ${transport}` });
    const booked = await ok(client, 'appointments_book', {
      customer_id: contact['id'],
      appointment_type_id: type['id'],
      start_at: slots[0].start_at,
    });
    expect(booked).toMatchObject({ status: 'scheduled', start_at: slots[0].start_at });
    const clash = await failure(client, 'appointments_book', {
      customer_id: contact['id'],
      appointment_type_id: type['id'],
      start_at: slots[0].start_at,
    });
    expect(clash.code).toBe('CONFLICT');
    const after = await ok(client, 'calendar_slots_list', { appointment_type_id: type['id'], from, to });
    expect(after['slots'].map((slot: { start_at: string }) => slot.start_at)).not.toContain(slots[0].start_at);

    await ok(client, 'knowledge_create', { title: `Returns ${transport}`, content: 'Returns are free within 30 days of delivery.' });
    const upload = await ok(client, 'knowledge_upload', {
      content_base64: Buffer.from('<h1>Shipping</h1><p>We ship parcels every weekday.</p><script>x()</script>').toString('base64'),
      filename: 'shipping.html',
      content_type: 'text/html',
    });
    expect(upload['title']).toBe('shipping');
    const found = await ok(client, 'knowledge_search', { q: 'parcels shipped' });
    expect(found['results'][0]['document']).toMatchObject({ id: upload['id'] });

    const week = { from: new Date(Date.now() - 7 * 24 * 3600_000).toISOString(), to: new Date(Date.now() + 3600_000).toISOString() };
    const metrics = await ok(client, 'analytics_summary', week);
    expect(metrics['totals']).toMatchObject({ conversations_opened: expect.any(Number), messages_outbound: expect.any(Number) });
    const csv = await ok(client, 'analytics_export', week);
    expect(csv).toMatchObject({ content_type: 'text/csv; charset=utf-8', content: expect.stringMatching(/^scope,/) });
  });

  it('drafts, edits, schedules, starts, pauses, resumes, cancels and deletes a campaign with the campaigns_* tools, and reads its recipients and export', async () => {
    // No runner runs in this file (test/campaigns/mcp.test.ts runs one): the started campaign's recipient stays pending.
    const client = await connect(transport, workspace.api_key);
    const contact = await ok(client, 'contacts_create', { name: `Reader ${transport}`, phone_number: phone() });
    const tag = await ok(client, 'tags_create', { name: `readers ${transport}` });
    await ok(client, 'tags_assign', { customer_id: contact['id'], tag_id: tag['id'] });
    const template = { name: 'appointment_reminder', language: 'en_US', parameters: ['there', 'Friday', '10:00'] };
    const created = await ok(client, 'campaigns_create', { name: `Readers ${transport}`, template, audience_tag_id: tag['id'] });
    expect(created).toMatchObject({ status: 'draft', template, audience_tag_id: tag['id'], progress: { total: 0 } });
    const id = created['id'] as string;
    expect(await ok(client, 'campaigns_update', { id, send_rate_per_minute: 30 })).toMatchObject({ send_rate_per_minute: 30 });
    const fetched = await ok(client, 'campaigns_get', { id });
    expect(fetched).toEqual((await harness.graphql(workspace.api_key, print(operation('CampaignGet')), { id })).body.data!['campaign']);
    expect((await ok(client, 'campaigns_list', { status: 'draft' }))['data']).toEqual(
      expect.arrayContaining([expect.objectContaining({ id })]),
    );
    const at = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    expect(await ok(client, 'campaigns_schedule', { id, scheduled_at: at })).toMatchObject({ status: 'scheduled', scheduled_at: at });
    expect(await ok(client, 'campaigns_start', { id })).toMatchObject({ status: 'running', progress: { total: 1, pending: 1 } });
    expect(await ok(client, 'campaigns_pause', { id })).toMatchObject({ status: 'paused' });
    expect(await ok(client, 'campaigns_resume', { id })).toMatchObject({ status: 'running' });
    const recipients = await ok(client, 'campaigns_recipients_list', { campaign_id: id });
    expect(recipients['data']).toEqual([
      expect.objectContaining({ contact_id: contact['id'], contact_name: `Reader ${transport}`, status: 'pending' }),
    ]);
    expect((await ok(client, 'campaigns_export', { id }))['content']).toContain(`Reader ${transport}`);
    expect((await failure(client, 'campaigns_delete', { id })).code).toBe('INVALID_TRANSITION');
    expect(await ok(client, 'campaigns_cancel', { id })).toMatchObject({ status: 'cancelled', progress: { cancelled: 1 } });
    expect(await ok(client, 'campaigns_delete', { id })).toMatchObject({ id, status: 'cancelled' });
  });

  it('manages webhook subscriptions and their deliveries with the webhooks_* and webhook_deliveries_* tools', async () => {
    const client = await connect(transport, workspace.api_key);
    const created = await ok(client, 'webhooks_create', { url: 'https://127.0.0.1:9/hooks', events: ['message.received'] });
    expect(created).toMatchObject({
      url: 'https://127.0.0.1:9/hooks',
      events: ['message.received'],
      active: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const id = created['id'] as string;
    expect((await ok(client, 'webhooks_list'))['webhooks']).toEqual(expect.arrayContaining([expect.objectContaining({ id })]));
    const fetched = await ok(client, 'webhooks_get', { id });
    expect(fetched).not.toHaveProperty('secret');
    expect(await ok(client, 'webhooks_update', { id, events: ['message.received', 'message.status'] })).toMatchObject({
      events: ['message.received', 'message.status'],
    });
    const rotated = await ok(client, 'webhooks_rotate_secret', { id });
    expect(rotated['secret']).not.toBe(created['secret']);
    expect((await failure(client, 'webhooks_create', { url: 'http://127.0.0.1:9/hooks', events: ['message.received'] })).code).toBe(
      'VALIDATION_ERROR',
    );

    // No delivery worker runs in this file: the test event waits as a pending delivery.
    const test = await ok(client, 'webhooks_test', { id });
    expect(test).toMatchObject({ subscription_id: id, event_type: 'webhook.test', status: 'pending', attempt_count: 0 });
    const listed = await ok(client, 'webhook_deliveries_list', { subscription_id: id });
    expect(listed['data'].map((delivery: { id: string }) => delivery.id)).toContain(test['id']);
    expect(await ok(client, 'webhook_deliveries_get', { id: test['id'] })).toMatchObject({ id: test['id'], attempts: [] });
    const early = await failure(client, 'webhook_deliveries_redeliver', { id: test['id'] });
    expect(early).toMatchObject({ code: 'INVALID_TRANSITION', message: 'Only a failed delivery can be redelivered; this one is pending' });
    expect(await ok(client, 'webhooks_delete', { id })).toMatchObject({ id });
    expect((await failure(client, 'webhooks_get', { id })).code).toBe('NOT_FOUND');
  });

  it('manages conversations, notes and summaries with the conversations_*, conversation_notes_* and conversation_summaries_* tools', async () => {
    const client = await connect(transport, workspace.api_key);
    const contact = await ok(client, 'contacts_create', { name: `Grace ${transport}` });
    const { id } = await seedConversation(harness.db.prisma, workspace, contact['id'], { messages: [`parcel ${transport} lost`] });

    const listed = await ok(client, 'conversations_list', { status: 'active', limit: 1 });
    expect(listed['data'][0]).toMatchObject({ id, customer: { id: contact['id'], name: `Grace ${transport}` } });
    expect((await ok(client, 'conversations_search', { q: `parcel ${transport}` }))['data']).toEqual([expect.objectContaining({ id })]);
    const fetched = await ok(client, 'conversations_get', { id });
    const graphql = await harness.graphql(workspace.api_key, print(operation('Conversation')), { id });
    expect(fetched).toEqual(graphql.body.data!['conversation']);

    expect(
      await ok(client, 'conversations_update', {
        id,
        assigned_user_id: workspace.user_id,
        service_enabled: true,
        details: { topic: 'delivery' },
      }),
    ).toMatchObject({
      assigned_user_id: workspace.user_id,
      service_enabled: true,
      details: { topic: 'delivery' },
    });
    expect(await ok(client, 'conversations_close', { id })).toMatchObject({ id, status: 'closed' });
    const invalid = await failure(client, 'conversations_close', { id });
    expect(invalid).toMatchObject({
      code: 'INVALID_TRANSITION',
      message: 'Cannot close a conversation whose status is closed',
      details: { status: 'closed', action: 'close' },
      request_id: expect.stringMatching(/^req_/),
    });
    expect(await ok(client, 'conversations_reopen', { id })).toMatchObject({ status: 'active' });

    for (const [group, author] of [
      ['conversation_notes', true],
      ['conversation_summaries', false],
    ] as const) {
      const record = await ok(client, `${group}_create`, { conversation_id: id, body: 'first draft' });
      expect(record).toMatchObject({ conversation_id: id, body: 'first draft', ...(author ? { author_user_id: workspace.user_id } : {}) });
      expect(await ok(client, `${group}_update`, { id: record['id'], body: 'final' })).toMatchObject({ body: 'final' });
      expect(await ok(client, `${group}_list`, { conversation_id: id })).toMatchObject({
        data: [{ id: record['id'], body: 'final' }],
        has_more: false,
      });
      expect(await ok(client, `${group}_delete`, { id: record['id'] })).toEqual({ id: record['id'], deleted: true });
    }
  });

  it("keeps workspaces apart: another workspace's key finds none of these records and cannot change them", async () => {
    const mine = await connect(transport, workspace.api_key);
    const contact = await ok(mine, 'contacts_create', { name: `Private ${transport} ${Date.now()}` });
    const { id: conversationId } = await seedConversation(harness.db.prisma, workspace, contact['id']);

    const stranger = await harness.workspace();
    const theirs = await connect(transport, stranger.api_key);
    expect((await ok(theirs, 'contacts_list'))['data']).toEqual([]);
    expect((await ok(theirs, 'contacts_search', { q: 'Private' }))['data']).toEqual([]);
    expect((await ok(theirs, 'conversations_list'))['data']).toEqual([]);
    for (const [tool, args] of [
      ['contacts_get', { id: contact['id'] }],
      ['contacts_update', { id: contact['id'], name: 'Taken over' }],
      ['contacts_delete', { id: contact['id'] }],
      ['contact_channels_list', { customer_id: contact['id'] }],
      ['conversations_get', { id: conversationId }],
      ['conversations_close', { id: conversationId }],
      ['conversation_notes_create', { conversation_id: conversationId, body: 'x' }],
    ] as const) {
      expect(await failure(theirs, tool, args), tool).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await ok(mine, 'contacts_get', { id: contact['id'] }))['name']).toBe(contact['name']);
  });

  it('refuses a tool whose scope the key lacks with INSUFFICIENT_SCOPE, and runs those it has', async () => {
    const readOnly = await harness.key(workspace.workspace_id, ['contacts:read']);
    const client = await connect(transport, readOnly);
    expect(await ok(client, 'contacts_list', { limit: 1 })).toHaveProperty('data');
    expect(await failure(client, 'contacts_create', { name: 'Nope' })).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      message: 'This API key lacks the customers scope',
      details: { required_scope: ['customers'] },
    });
    expect((await failure(client, 'conversations_list')).code).toBe('INSUFFICIENT_SCOPE');
  });

  it('answers invalid arguments with a VALIDATION_ERROR result naming each field', async () => {
    const client = await connect(transport, workspace.api_key);
    expect(await failure(client, 'contacts_get', {})).toMatchObject({ code: 'VALIDATION_ERROR', details: { id: expect.any(String) } });
    expect(await failure(client, 'contacts_get', { id: 'not-a-uuid' })).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { id: 'must be a UUID' },
    });
    expect(await failure(client, 'contact_channels_add', { customer_id: 'x', type: 'fax', value: 'y' })).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { type: expect.stringContaining('email') },
    });
    expect(await failure(client, 'contacts_create', { name: 'Typo', phone: '+15550000000' })).toMatchObject({ code: 'VALIDATION_ERROR' });
    // A result that does not match the declared schema is refused by the client: the check is armed.
    const listed = await client.listTools();
    const strict = new Client({ name: 'strict', version: '1' }, { jsonSchemaValidator: rejectingValidator });
    await strict.connect(TRANSPORTS[transport](main.base, { authorization: `Bearer ${workspace.api_key}` }));
    clients.push({ client: strict, transport: strict.transport as StreamableHTTPClientTransport });
    expect((await strict.listTools()).tools).toHaveLength(listed.tools.length);
    await expect(strict.callTool({ name: 'tags_list', arguments: {} })).rejects.toThrow(/does not match the tool's output schema/);
    await expect(client.callTool({ name: 'contacts_explode', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe('authentication, origin and sessions', () => {
  let workspace: CreatedWorkspace;
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    workspace = await harness.workspace();
    server = await serve({ allowedOrigins: [ALLOWED_ORIGIN] }, { MCP_MAX_SESSIONS_PER_KEY: MAX_SESSIONS_PER_KEY });
  });
  /** Sessions close asynchronously when their client goes; counts are read once the previous test's are gone. */
  const settledSessionCount = async () => {
    await expect.poll(() => server.app.mcpSessions.count()).toBe(0);
    return 0;
  };

  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const post = (headers: Record<string, string>, body = initialize, path = '/mcp') =>
    fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  it('answers the newest protocol revision the SDK knows, and an older client its own', async () => {
    const versionFor = async (protocolVersion: string) => {
      const body = JSON.stringify({ ...JSON.parse(initialize), params: { ...JSON.parse(initialize).params, protocolVersion } });
      const response = await post({ authorization: `Bearer ${workspace.api_key}` }, body);
      expect(response.status).toBe(200);
      const sessionId = response.headers.get('mcp-session-id')!;
      await fetch(`${server.base}/mcp`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${workspace.api_key}`, 'mcp-session-id': sessionId },
      });
      return ((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion;
    };
    expect(await versionFor(LATEST_PROTOCOL_VERSION)).toBe(LATEST_PROTOCOL_VERSION);
    expect(await versionFor('2025-06-18')).toBe('2025-06-18');
    expect(await versionFor('2024-11-05')).toBe('2024-11-05');
    // A revision the server does not know is answered with its newest; the client decides whether to go on.
    expect(await versionFor('2099-01-01')).toBe(LATEST_PROTOCOL_VERSION);
    // The SDK's client, asking for the newest, gets it, and SSE clients negotiate the same way.
    const client = await connect('SSE', workspace.api_key, { base: server.base });
    expect((client.transport as unknown as { _protocolVersion: string })._protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('answers 401 UNAUTHORIZED without a key or with a bad one, on every MCP path, before any session starts', async () => {
    await settledSessionCount();
    const attempts = [
      post({}),
      post({ authorization: 'Bearer mcrm_not_a_real_key_at_all_000000' }),
      fetch(`${server.base}/mcp/sse`, { headers: { accept: 'text/event-stream' } }),
      fetch(`${server.base}/mcp/sse`, { headers: { accept: 'text/event-stream', authorization: 'Bearer nope' } }),
      post({}, '{}', '/mcp/messages?sessionId=00000000-0000-0000-0000-000000000000'),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(401);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED', message: 'Unauthorized' } });
    }
    for (const transport of TRANSPORT_NAMES) {
      await expect(connect(transport, 'mcrm_bad_key_0000000000000000000000', { base: server.base })).rejects.toThrow(/401|Unauthorized/);
    }
    expect(await server.app.mcpSessions.count()).toBe(0);
  });

  it('refuses a present but foreign Origin with 403 on both transports, and serves an allowed one', async () => {
    const foreign = { authorization: `Bearer ${workspace.api_key}`, origin: 'https://attacker.example' };
    const streamable = await post(foreign);
    expect(streamable.status).toBe(403);
    expect(await streamable.json()).toMatchObject({ error: { code: 'ORIGIN_NOT_ALLOWED' } });
    const sse = await fetch(`${server.base}/mcp/sse`, { headers: { ...foreign, accept: 'text/event-stream' } });
    expect(sse.status).toBe(403);

    const allowed = await post({ authorization: `Bearer ${workspace.api_key}`, origin: ALLOWED_ORIGIN });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('mcp-session-id')).toBeTruthy();
    expect(allowed.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    await allowed.body?.cancel();
    const closed = await fetch(`${server.base}/mcp`, {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${workspace.api_key}`,
        origin: ALLOWED_ORIGIN,
        'mcp-session-id': allowed.headers.get('mcp-session-id')!,
      },
    });
    expect(closed.status).toBe(200);

    for (const transport of TRANSPORT_NAMES) {
      const client = await connect(transport, workspace.api_key, { headers: { origin: ALLOWED_ORIGIN }, base: server.base });
      expect((await client.listTools()).tools.length).toBe(TOOLS.length);
    }
  });

  it('serves a Streamable HTTP session only to the key that opened it, and forgets it once deleted', async () => {
    const transport = TRANSPORTS['Streamable HTTP'](server.base, { authorization: `Bearer ${workspace.api_key}` });
    const client = new Client({ name: 'owner', version: '1' });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    const otherKey = await harness.key(workspace.workspace_id, ['customers']);
    const listTools = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });

    const hijack = await post(
      { authorization: `Bearer ${otherKey}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      listTools,
    );
    expect(hijack.status).toBe(404);
    const owner = await post(
      { authorization: `Bearer ${workspace.api_key}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      listTools,
    );
    expect(owner.status).toBe(200);
    await owner.body?.cancel();

    await transport.terminateSession();
    await client.close();
    const after = await post({ authorization: `Bearer ${workspace.api_key}`, 'mcp-session-id': sessionId }, listTools);
    expect(after.status).toBe(404);
  });

  it('accepts SSE messages only from the key that opened the stream, and ends the session when the stream closes', async () => {
    const before = await settledSessionCount();
    const abort = new AbortController();
    const stream = await fetch(`${server.base}/mcp/sse`, {
      headers: { authorization: `Bearer ${workspace.api_key}`, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)/.exec(first)![1]!;
    expect(endpoint).toMatch(/^\/mcp\/messages\?sessionId=[0-9a-f-]{36}$/);
    expect(await server.app.mcpSessions.count()).toBe(before + 1);

    const otherKey = await harness.key(workspace.workspace_id, ['customers']);
    expect((await post({ authorization: `Bearer ${otherKey}` }, initialize, endpoint)).status).toBe(404);
    expect((await post({ authorization: `Bearer ${workspace.api_key}` }, initialize, endpoint)).status).toBe(202);
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"serverInfo"');

    abort.abort();
    await expect.poll(() => server.app.mcpSessions.count()).toBe(before);
    expect((await post({ authorization: `Bearer ${workspace.api_key}` }, initialize, endpoint)).status).toBe(404);
  });

  it(`never locks a key out: ten clients that never close, and an eleventh still connects; the key holds at most ${MAX_SESSIONS_PER_KEY}`, async () => {
    const key = await harness.key(workspace.workspace_id, ['customers']);
    const abandoned: Client[] = [];
    for (let opened = 0; opened < 10; opened += 1) {
      abandoned.push(await connect('Streamable HTTP', key, { base: server.base, validate: false }));
    }
    expect(await server.app.mcpSessions.count()).toBeLessThanOrEqual(MAX_SESSIONS_PER_KEY);
    const latest = await connect('Streamable HTTP', key, { base: server.base, validate: false });
    expect((await latest.listTools()).tools.length).toBeGreaterThan(0);
    // The most recent sessions are the ones kept: the previous client still works, the first one gave way.
    expect((await abandoned.at(-1)!.listTools()).tools.length).toBeGreaterThan(0);
    await expect(abandoned[0]!.listTools()).rejects.toThrow();
  });

  it('answers 429 RATE_LIMITED with Retry-After, on both transports, only when every session of the key is a live SSE stream', async () => {
    const key = await harness.key(workspace.workspace_id, ['customers']);
    for (let opened = 0; opened < MAX_SESSIONS_PER_KEY; opened += 1) await connect('SSE', key, { base: server.base, validate: false });
    const refused = await post({ authorization: `Bearer ${key}` });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    await expect(connect('SSE', key, { base: server.base })).rejects.toThrow(/429/);
    const otherKey = await post({ authorization: `Bearer ${workspace.api_key}` });
    expect(otherKey.status).toBe(200);
    await otherKey.body?.cancel();
  });
});

describe('sessions that outlive their use', () => {
  it("closes a revoked key's sessions, its open SSE stream included, and Streamable HTTP sessions left idle", async () => {
    const quick = await serve({ allowedOrigins: [] }, { MCP_SESSION_IDLE_MS: 300, API_KEY_CACHE_SECONDS: 0 });
    const workspace = await harness.workspace();
    // A client that exits without DELETE /mcp: its GET stream closes, and nothing keeps the session any more.
    const idle = await connect('Streamable HTTP', workspace.api_key, { base: quick.base });
    const idleSession = (idle.transport as StreamableHTTPClientTransport).sessionId!;
    await idle.close();
    await expect.poll(() => quick.app.mcpSessions.count(), { timeout: 5000 }).toBe(0);
    const listTools = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const headers = { authorization: `Bearer ${workspace.api_key}`, 'mcp-session-id': idleSession, 'mcp-protocol-version': '2025-06-18' };
    const afterIdle = await fetch(`${quick.base}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: listTools,
    });
    expect(afterIdle.status).toBe(404);

    const revokedKey = await createApiKey(harness.db.prisma, {
      workspaceId: workspace.workspace_id,
      name: 'revoked',
      scopes: ['customers'],
    });
    const stream = await fetch(`${quick.base}/mcp/sse`, {
      headers: { authorization: `Bearer ${revokedKey.api_key}`, accept: 'text/event-stream' },
    });
    const reader = stream.body!.getReader();
    await reader.read();
    expect(await quick.app.mcpSessions.count()).toBe(1);
    await revokeApiKey(harness.db.prisma, workspace.workspace_id, revokedKey.key.id);
    await expect.poll(() => quick.app.mcpSessions.count(), { timeout: 5000 }).toBe(0);
    // The stream ends: the client reads to its end instead of waiting forever.
    while (!(await reader.read()).done);
  });
});

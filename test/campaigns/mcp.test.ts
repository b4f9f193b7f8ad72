// The issue's "done when": an AI client runs a campaign to a tag and reads its results through MCP (the SDK's
// own client over Streamable HTTP on a real port), and an integrator does the same through REST; each answer
// equals what the named GraphQL operation answers. The runner is ticked by hand between the calls. Also the
// REST surface's statuses: 201 on create, 409 for a refused move, 400 naming the field, 404 for another
// workspace's campaign, 403 without the campaigns scope.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { v7 as uuidv7 } from 'uuid';
import { openHarness } from '../support/harness.js';
import { campaignTestFile, REMINDER, runToEnd, testRunner, uniquePhone } from '../support/campaigns.js';
import { expectError, getJson, operationResult, postJson, sendJson } from '../support/restFixtures.js';
import { createApp } from '../../app/createApp.js';
import { createLogger } from '../../infra/observability/logger.js';
import { createEdge } from '../../app/edge.js';
import { loadSettings } from '../../infra/config/settings.js';
import { ANNOTATIONS } from '../../facades/mcp/toolServer.js';
import { FACADE_TABLE } from '../../facades/operations/index.js';

const TOOLS = FACADE_TABLE.flatMap((entry) => (entry.mcp ? [{ ...entry.mcp, operation: entry.operation }] : []));

const h = await openHarness({ rateLimitPerMinute: 10_000 });
const file = campaignTestFile(() => h);

async function serve() {
  const logger = createLogger('silent');
  const edge = createEdge({ ...loadSettings({}), RATE_LIMIT_PER_MINUTE: 10_000 }, { logger });
  const app = createApp(h.services, { graphiql: false, logger, edge, sessionStore: h.sessionStore() });
  const http: HttpServer = createServer(app.yoga);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { app, http, base: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

async function mcpClient(base: string, key: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'campaign-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    async call(name: string, args: Record<string, unknown> = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      const json = JSON.parse(text) as Record<string, any>;
      expect(result.structuredContent).toEqual(result.isError ? undefined : json);
      return { isError: result.isError === true, json };
    },
    async close() {
      await transport.terminateSession();
      await client.close();
    },
  };
}

describe('through MCP', () => {
  const servers: Awaited<ReturnType<typeof serve>>[] = [];
  afterAll(async () => {
    for (const { app, http } of servers) {
      // The client's GET stream made the app listen for its sessions' changes: stopped before the database closes.
      await app.mcpSessions.closeAll();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it('an AI client tags contacts, runs a campaign to the tag and reads its progress, recipients and CSV export', async () => {
    const server = await serve();
    servers.push(server);
    const { base } = server;
    const workspace = await file.workspace();
    const mcp = await mcpClient(base, workspace.api_key);
    const ok = async (name: string, args: Record<string, unknown> = {}) => {
      const { isError, json } = await mcp.call(name, args);
      expect(isError, `${name}: ${JSON.stringify(json)}`).toBe(false);
      return json;
    };
    try {
      const tag = await ok('tags_create', { name: 'spring-sale' });
      const contacts = [];
      for (const name of ['Ada', 'Grace', 'Hedy']) {
        const contact = await ok('contacts_create', { name, phone_number: uniquePhone() });
        await ok('tags_assign', { customer_id: contact['id'], tag_id: tag['id'] });
        contacts.push(contact);
      }

      const created = await ok('campaigns_create', { name: 'Spring sale', template: REMINDER, audience_tag_id: tag['id'] });
      expect(created).toMatchObject({ status: 'draft', audience_tag_id: tag['id'], progress: { total: 0 } });
      const id = created['id'] as string;
      expect(await ok('campaigns_start', { id })).toMatchObject({ status: 'running', progress: { total: 3, pending: 3 } });
      const refused = await mcp.call('campaigns_start', { id });
      expect(refused).toMatchObject({ isError: true, json: { error: { code: 'INVALID_TRANSITION', details: { status: 'running' } } } });

      const runner = testRunner(h.services);
      expect(await runToEnd(h, runner, id)).toBe('completed');

      // The sandbox reports each message delivered, then read, shortly after it is sent.
      await expect.poll(async () => (await ok('campaigns_get', { id }))['progress']['read'], { timeout: 5000 }).toBe(3);
      const campaign = await ok('campaigns_get', { id });
      expect(campaign).toMatchObject({ status: 'completed', progress: { total: 3, read: 3, pending: 0, sending: 0, failed: 0 } });
      expect(campaign).toEqual(await operationResult(h, workspace.api_key, 'CampaignGet', { id }));

      const recipients = await ok('campaigns_recipients_list', { campaign_id: id });
      expect(recipients['data'].map((recipient: { contact_name: string }) => recipient.contact_name).sort()).toEqual([
        'Ada',
        'Grace',
        'Hedy',
      ]);
      expect(recipients['data'].every((recipient: { message_id: string | null }) => recipient.message_id)).toBe(true);
      const csv = await ok('campaigns_export', { id });
      expect(csv['content'].trimEnd().split('\r\n')).toHaveLength(4);
      expect((await ok('campaigns_list', { status: 'completed' }))['data']).toEqual([expect.objectContaining({ id, status: 'completed' })]);
      expect(await ok('campaigns_delete', { id })).toMatchObject({ id, status: 'completed' });
      expect((await mcp.call('campaigns_get', { id })).json).toMatchObject({ error: { code: 'NOT_FOUND' } });
    } finally {
      await mcp.close();
    }
  });

  it('lists the campaign tools with read-only and destructive annotations by kind', () => {
    const campaignTools = TOOLS.filter((tool) => tool.name.startsWith('campaigns_'));
    expect(campaignTools.map((tool) => tool.name).sort()).toEqual(
      [
        'audience_summary',
        'cancel',
        'create',
        'delete',
        'export',
        'get',
        'list',
        'pause',
        'recipients_list',
        'resume',
        'schedule',
        'start',
        'update',
      ].map((action) => `campaigns_${action}`),
    );
    const kinds = Object.fromEntries(campaignTools.map((tool) => [tool.name, tool.kind]));
    expect(kinds).toMatchObject({
      campaigns_audience_summary: 'read',
      campaigns_list: 'read',
      campaigns_get: 'read',
      campaigns_recipients_list: 'read',
      campaigns_export: 'read',
      campaigns_create: 'write',
    });
    for (const action of ['update', 'delete', 'schedule', 'start', 'pause', 'resume', 'cancel']) {
      expect(ANNOTATIONS[kinds[`campaigns_${action}`]!]).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    }
  });
});

describe('through REST', () => {
  it('an integrator runs a campaign to a tag and reads progress, recipients and the CSV, each answer equal to its operation', async () => {
    const workspace = await file.workspace();
    const key = workspace.api_key;
    const tag = (await postJson(h, '/api/v1/tags', key, { name: 'newsletter' })).body;
    const contactIds: string[] = [];
    for (const name of ['Alan', 'Barbara']) {
      const contact = await postJson(h, '/api/v1/contacts', key, { name, phone_number: uniquePhone() });
      expect(contact.status).toBe(201);
      expect((await sendJson(h, 'PUT', `/api/v1/contacts/${contact.body.id}/tags/${tag.id}`, key)).status).toBe(200);
      contactIds.push(contact.body.id);
    }

    const created = await postJson(h, '/api/v1/campaigns', key, {
      name: 'Newsletter',
      template: REMINDER,
      audience_tag_id: tag.id,
      send_rate_per_minute: 60,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toEqual(await operationResult(h, key, 'CampaignGet', { id }));
    const patched = await sendJson(h, 'PATCH', `/api/v1/campaigns/${id}`, key, { name: 'Monthly newsletter', send_rate_per_minute: null });
    expect(patched.body).toMatchObject({ name: 'Monthly newsletter', send_rate_per_minute: null });

    const started = await postJson(h, `/api/v1/campaigns/${id}/start`, key, undefined);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: 'running', progress: { total: 2, pending: 2 } });
    expectError(await postJson(h, `/api/v1/campaigns/${id}/resume`, key, undefined), 409, {
      code: 'INVALID_TRANSITION',
      details: { status: 'running', action: 'resume', allowed_from: ['paused'] },
    });
    expectError(await sendJson(h, 'DELETE', `/api/v1/campaigns/${id}`, key), 409, { code: 'INVALID_TRANSITION' });
    expect((await postJson(h, `/api/v1/campaigns/${id}/pause`, key, undefined)).body).toMatchObject({ status: 'paused' });
    expect((await postJson(h, `/api/v1/campaigns/${id}/resume`, key, undefined)).body).toMatchObject({ status: 'running' });

    const runner = testRunner(h.services);
    expect(await runToEnd(h, runner, id)).toBe('completed');
    expect(runner.sends.sends).toHaveLength(2);
    // The sandbox reports each message delivered, then read, shortly after it is sent; compare once it has.
    await expect.poll(async () => (await getJson(h, `/api/v1/campaigns/${id}`, { key })).body.progress.read, { timeout: 5000 }).toBe(2);

    const campaign = await getJson(h, `/api/v1/campaigns/${id}`, { key });
    expect(campaign.body).toMatchObject({ status: 'completed', progress: { total: 2, pending: 0 } });
    expect(campaign.body).toEqual(await operationResult(h, key, 'CampaignGet', { id }));
    const list = await getJson(h, '/api/v1/campaigns?status=completed&limit=5', { key });
    expect(list.body).toEqual(await operationResult(h, key, 'CampaignsList', { status: 'completed', limit: 5 }));
    expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([id]);

    const recipients = await getJson(h, `/api/v1/campaigns/${id}/recipients?limit=1`, { key });
    expect(recipients.body).toMatchObject({ data: [{ contact_id: contactIds.sort()[0], message_id: expect.any(String) }], has_more: true });
    const rest = await getJson(h, `/api/v1/campaigns/${id}/recipients?cursor=${recipients.body.next_cursor}`, { key });
    expect(rest.body).toMatchObject({ data: [{ contact_id: contactIds[1] }], has_more: false });
    expect(rest.body).toEqual(
      await operationResult(h, key, 'CampaignRecipientsList', { campaign_id: id, cursor: recipients.body.next_cursor }),
    );

    const csv = await getJson(h, `/api/v1/campaigns/${id}/export`, { key });
    expect(csv.body).toMatchObject({ filename: `campaign_${id}.csv`, content_type: 'text/csv; charset=utf-8' });
    expect(csv.body.content).toMatch(/^contact_id,contact_name,phone_number,/);
    expect(csv.body.content).toContain('Barbara');
  });

  /** A draft campaign with more recipients than two pages of the export (5,000), written directly as a run leaves them. */
  async function bigCampaign(workspace: { workspace_id: string; api_key: string }, recipients = 12_001) {
    const key = workspace.api_key;
    const tag = (await postJson(h, '/api/v1/tags', key, { name: 'everyone' })).body;
    const created = await postJson(h, '/api/v1/campaigns', key, { name: 'Big', template: REMINDER, audience_tag_id: tag.id });
    const contacts = Array.from({ length: recipients }, (_, index) => ({
      id: uuidv7(),
      company_id: workspace.workspace_id,
      name: `Recipient ${index}`,
      phone_number: `+1777${String(index).padStart(7, '0')}`,
    }));
    await h.db.prisma.customer.createMany({ data: contacts });
    await h.db.prisma.campaignRecipient.createMany({
      data: contacts.map((contact) => ({
        campaign_id: created.body.id,
        contact_id: contact.id,
        company_id: workspace.workspace_id,
        status: 'skipped',
      })),
    });
    return { id: created.body.id as string, contacts };
  }

  // Writing 12,001 recipients alone can take 30 s on the embedded database of a loaded machine.
  it(
    'exports every recipient of a large campaign exactly once, in contact order: in pages of 5,000, and streamed whole as export.csv',
    { timeout: 120_000 },
    async () => {
      const workspace = await file.workspace();
      const key = workspace.api_key;
      const { id, contacts } = await bigCampaign(workspace);
      const pages: { content: string; has_more: boolean; next_cursor: string | null }[] = [];
      for (let cursor: string | null = null; pages.length === 0 || pages.at(-1)!.has_more; cursor = pages.at(-1)!.next_cursor) {
        pages.push((await getJson(h, `/api/v1/campaigns/${id}/export${cursor ? `?cursor=${cursor}` : ''}`, { key })).body);
      }
      expect(pages.map((page) => page.content.trimEnd().split('\r\n').length)).toEqual([5_001, 5_000, 2_001]);
      const [header, ...rows] = pages
        .map((page) => page.content)
        .join('')
        .trimEnd()
        .split('\r\n');
      expect(header).toMatch(/^contact_id,contact_name,/);
      expect(rows.map((row) => row.split(',')[0])).toEqual(contacts.map((contact) => contact.id).sort());

      const download = await h.fetch(`/api/v1/campaigns/${id}/export.csv`, { key });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(download.headers.get('content-disposition')).toBe(
        `attachment; filename="campaign_${id}.csv"; filename*=UTF-8''campaign_${id}.csv`,
      );
      expect(await download.text()).toBe(pages.map((page) => page.content).join(''));
    },
  );

  // Writing 30,001 recipients takes most of the default 30 s on the embedded database of a slow machine.
  it('cuts the export.csv download when a later page fails, so a short file never looks whole', { timeout: 120_000 }, async () => {
    const workspace = await file.workspace();
    // Seven pages: more than the response's own read-ahead can have fetched before the campaign goes.
    const { id } = await bigCampaign(workspace, 30_001);
    const download = await h.fetch(`/api/v1/campaigns/${id}/export.csv`, { key: workspace.api_key });
    expect(download.status).toBe(200);
    // The campaign goes while the file is being written: the pages still to come are not found.
    expect((await sendJson(h, 'DELETE', `/api/v1/campaigns/${id}`, workspace.api_key)).status).toBe(200);
    const reader = download.body!.getReader();
    let text = '';
    const readToEnd = async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    };
    await expect(readToEnd()).rejects.toThrow(/The export stopped: Campaign not found/);
    expect(text).toMatch(/^contact_id,contact_name,/);
    expect(text.trimEnd().split('\r\n').length).toBeLessThan(30_002);
  });

  it('answers 400 naming the field, 404 for another workspace’s campaign, 403 without the campaigns scope', async () => {
    const workspace = await file.workspace();
    const key = workspace.api_key;
    const tag = (await postJson(h, '/api/v1/tags', key, { name: 'x' })).body;
    expectError(await postJson(h, '/api/v1/campaigns', key, { name: 'No audience', template: REMINDER }), 400, {
      code: 'VALIDATION_ERROR',
      details: { audience_tag_id: 'give the audience: audience_tag_id, audience_contact_ids, or audience_tag_ids and audience_conditions' },
    });
    expectError(
      await postJson(h, '/api/v1/campaigns', key, {
        name: 'Rate',
        template: REMINDER,
        audience_tag_id: tag.id,
        send_rate_per_minute: 5000,
      }),
      400,
      {
        details: { send_rate_per_minute: 'must be between 1 and 1000' },
      },
    );
    const created = await postJson(h, '/api/v1/campaigns', key, { name: 'Mine', template: REMINDER, audience_tag_id: tag.id });
    expectError(await postJson(h, `/api/v1/campaigns/${created.body.id}/schedule`, key, { scheduled_at: 'tomorrow' }), 400, {
      details: { scheduled_at: 'must be an ISO 8601 date-time between the years 1 and 9999' },
    });

    const stranger = await file.workspace();
    for (const [method, path] of [
      ['GET', `/api/v1/campaigns/${created.body.id}`],
      ['PATCH', `/api/v1/campaigns/${created.body.id}`],
      ['DELETE', `/api/v1/campaigns/${created.body.id}`],
      ['POST', `/api/v1/campaigns/${created.body.id}/start`],
      ['POST', `/api/v1/campaigns/${created.body.id}/cancel`],
      ['GET', `/api/v1/campaigns/${created.body.id}/recipients`],
      ['GET', `/api/v1/campaigns/${created.body.id}/export`],
      ['GET', `/api/v1/campaigns/${created.body.id}/export.csv`],
    ] as const) {
      expectError(await sendJson(h, method, path, stranger.api_key), 404, { code: 'NOT_FOUND' });
    }
    const tagsOnly = await h.key(workspace.workspace_id, ['tags']);
    expectError(await getJson(h, '/api/v1/campaigns', { key: tagsOnly }), 403, {
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: ['campaigns'] },
    });
    expect((await getJson(h, `/api/v1/campaigns/${created.body.id}`, { key })).body).toMatchObject({ status: 'draft' });
  });
});

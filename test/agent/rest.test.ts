// The AI agent's settings and runs on every surface: GraphQL (agentSettings, agentSettingsUpdate, agentRuns),
// REST (GET/PATCH /api/v1/agent, GET /api/v1/conversations/{id}/agent-runs) and MCP (agent_settings_get,
// agent_settings_update, agent_runs_list through the SDK's own client). The model API key is sealed at rest and
// never returned; bad settings are 400s in the spec's error form; the settings need the `agent` scope.
import { afterAll, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMcpClient } from '../support/mcpClient.js';
import { openMessagingWorld } from '../support/messaging.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { inboundPayload } from '../support/whatsappPayloads.js';
import { expectError, getJson, operationResult, sendJson } from '../support/restFixtures.js';

// Model hosts resolve to a public address here (no DNS in tests); literal internal addresses are still refused.
const publicDns = createTargetGuard({ resolve: () => Promise.resolve([{ address: '93.184.216.34', family: 4 }]) });
const world = await openMessagingWorld('sandbox', { webhookTargets: publicDns });
const h = world.harness;
const prisma = h.db.prisma;

// Runs made here are never worked (no worker runs in this file); they are closed so that the agent test files'
// workers on a shared PostgreSQL do not pick them up.
afterAll(() =>
  prisma.agentRun.updateMany({
    where: { status: 'pending', workspace: { name: { startsWith: 'Agent surfaces' } } },
    data: { status: 'skipped' },
  }),
);

async function workspace() {
  const ws = await world.workspace();
  await prisma.workspace.update({ where: { id: ws.workspaceId }, data: { name: `Agent surfaces ${ws.workspaceId}` } });
  return ws;
}

describe('agent settings', () => {
  it('are the defaults until changed, and change through REST PATCH with the API key sealed and never returned', async () => {
    const ws = await workspace();
    const initial = await getJson(h, '/api/v1/agent', { key: ws.apiKey });
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({
      kind: 'knowledge',
      llm_base_url: null,
      llm_api_key_set: false,
      knowledge_threshold: 0.57,
      default_language: 'en',
      handoff_keywords: ['human', 'agent', 'person'],
      max_consecutive_replies: 5,
      tool_scopes: ['scheduling', 'customers', 'tags'],
      daily_model_calls: 500,
      daily_tokens: 200000,
      call_timeout_ms: 20000,
      max_tool_calls: 4,
    });

    const patched = await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, {
      kind: 'llm',
      llm_base_url: 'https://api.openai.com/v1',
      llm_model: 'gpt-4o-mini',
      llm_api_key: 'sk-secret-value',
      handoff_keywords: ['manager'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ kind: 'llm', llm_model: 'gpt-4o-mini', llm_api_key_set: true, handoff_keywords: ['manager'] });
    expect(JSON.stringify(patched.body)).not.toContain('sk-secret-value');
    const stored = await prisma.agentSettings.findUniqueOrThrow({ where: { company_id: ws.workspaceId } });
    expect(stored.llm_api_key).not.toContain('sk-secret-value');
    expect(h.services.secrets.open(stored.llm_api_key!)).toBe('sk-secret-value');

    // GraphQL reads the same settings; a null key removes it.
    const read = await operationResult(h, ws.apiKey, 'AgentSettingsGet');
    expect(read).toEqual(patched.body);
    const cleared = await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, { llm_api_key: null });
    expect(cleared.body).toMatchObject({ llm_api_key_set: false, kind: 'llm' });
  });

  it('refuses bad settings with 400 and the reason per field, and keys without the agent scope with 403', async () => {
    const ws = await workspace();
    const other = await workspace();
    const foreignUser = await prisma.user.findFirstOrThrow({ where: { company_id: other.workspaceId } });
    expectError(await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, { kind: 'llm' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { llm_base_url: 'is required when kind is llm', llm_model: 'is required when kind is llm' },
    });
    expectError(
      await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, { temperature: 5, kind: 'robot', handoff_user_id: foreignUser.id }),
      400,
      {
        code: 'VALIDATION_ERROR',
        details: expect.objectContaining({ temperature: 'must be between 0 and 2', kind: 'must be one of knowledge, llm' }),
      },
    );
    expectError(await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, { handoff_user_id: foreignUser.id }), 400, {
      code: 'VALIDATION_ERROR',
      details: { handoff_user_id: 'must be the id of a user of this workspace' },
    });
    // The model endpoint passes the SSRF guard of webhook receivers: https and a public address.
    expectError(await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, { llm_base_url: 'http://models.example.com/v1' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { llm_base_url: 'must be an https URL' },
    });
    expectError(await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, { llm_base_url: 'https://127.0.0.1:11434/v1' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { llm_base_url: expect.stringContaining('internal address') },
    });
    expectError(await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, { tool_scopes: ['webhooks'] }), 400, { code: 'VALIDATION_ERROR' });
    expectError(await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, { default_language: 'Português' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { default_language: 'must be an ISO 639-1 language code such as en, pt or hi' },
    });
    expect((await sendJson(h, 'PATCH', '/api/v1/agent', ws.apiKey, { default_language: 'PT' })).body).toMatchObject({
      default_language: 'pt',
    });
    const narrow = await h.key(ws.workspaceId, ['conversations']);
    expectError(await getJson(h, '/api/v1/agent', { key: narrow }), 403, { code: 'INSUFFICIENT_SCOPE' });
  });
});

describe('agent runs', () => {
  it('are listed per conversation on REST, GraphQL and MCP, and MCP changes the settings too', async () => {
    const ws = await workspace();
    const from = `1555${randomInt(1_000_000, 9_999_999)}`;
    await world.webhook(inboundPayload(ws.phoneNumberId, { from, text: 'Hi' }), ws.appSecret);
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    await sendJson(h, 'PATCH', `/api/v1/conversations/${conversation.id}`, ws.apiKey, { service_enabled: true });
    await world.webhook(inboundPayload(ws.phoneNumberId, { from, text: 'Are you open today?' }), ws.appSecret);
    const trigger = await prisma.message.findFirstOrThrow({ where: { conversation_id: conversation.id, body: 'Are you open today?' } });

    const rest = await getJson(h, `/api/v1/conversations/${conversation.id}/agent-runs`, { key: ws.apiKey });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      data: [expect.objectContaining({ conversation_id: conversation.id, message_id: trigger.id, status: 'pending', reply: null })],
      next_cursor: null,
      has_more: false,
    });
    expect(await operationResult(h, ws.apiKey, 'AgentRunsList', { conversation_id: conversation.id })).toEqual(rest.body);
    expectError(await getJson(h, `/api/v1/conversations/${crypto.randomUUID()}/agent-runs`, { key: ws.apiKey }), 404, {
      code: 'NOT_FOUND',
    });

    const mcp = await openMcpClient(h, ws.apiKey);
    try {
      expect(await mcp.call('agent_runs_list', { conversation_id: conversation.id })).toMatchObject({ isError: false, json: rest.body });
      expect((await mcp.call('agent_settings_get')).json).toMatchObject({ kind: 'knowledge' });
      const updated = await mcp.call('agent_settings_update', { greeting: 'Hello!', max_tool_calls: 2 });
      expect(updated).toMatchObject({ isError: false, json: { greeting: 'Hello!', max_tool_calls: 2 } });
      const refused = await mcp.call('agent_settings_update', { max_tool_calls: 99 });
      expect(refused).toMatchObject({
        isError: true,
        json: { error: { code: 'VALIDATION_ERROR', details: { max_tool_calls: 'must be between 0 and 20' } } },
      });
    } finally {
      await mcp.close();
    }
  });
});

// Automation rules as data on every surface: REST (GET/POST /api/v1/automations, GET/PATCH/DELETE
// /api/v1/automations/{id}, GET …/runs, POST …/test), GraphQL (automations, automationCreate…) and MCP
// (automations_list/create/update/delete/runs/test through the SDK's own client), with the same JSON. Bad rules
// are a 400 naming the path at fault (unknown trigger, operator or action, a pattern RE2 refuses, more than 10
// conditions or actions); the 101st rule is a 409; a key without the `automations` scope gets 403, no key 401,
// another workspace's rule 404.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openHarness } from '../support/harness.js';
import { expectError, getJson, postJson, sendJson } from '../support/restFixtures.js';

const h = await openHarness({ rateLimitPerMinute: 1000 });
const shop = await h.workspace('Automations shop');
const other = await h.workspace('Automations other');
const key = shop.api_key;

type Rule = { id: string; name: string; enabled: boolean; trigger: unknown; conditions: unknown; actions: unknown[]; run_count: number };

const REFUNDS = {
  name: 'Refunds to billing',
  enabled: true,
  trigger: { event: 'message.received' },
  conditions: { all: [{ field: 'message.text', operator: 'contains', value: 'refund' }] },
  actions: [
    { type: 'add_tag', tag: 'refund' },
    { type: 'assign', user_id: shop.user_id },
  ],
};

async function mcpClient(apiKey: string) {
  const transport = new StreamableHTTPClientTransport(new URL('http://service.test/mcp'), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    fetch: (url, init) => Promise.resolve(h.app.yoga.fetch(new Request(url, init))),
  });
  const client = new Client({ name: 'automations-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('automations over REST', () => {
  it('creates, lists, gets, updates, tests and deletes a rule, the JSON as written', async () => {
    const created = await postJson(h, '/api/v1/automations', key, REFUNDS);
    expect(created.status).toBe(201);
    const rule = created.body as Rule;
    expect(rule).toMatchObject({ ...REFUNDS, run_count: 0 });

    expect((await getJson(h, '/api/v1/automations', { key })).body).toMatchObject({
      data: [expect.objectContaining({ id: rule.id })],
      has_more: false,
    });
    expect((await getJson(h, `/api/v1/automations/${rule.id}`, { key })).body).toMatchObject(REFUNDS);
    const updated = await sendJson(h, 'PATCH', `/api/v1/automations/${rule.id}`, key, {
      enabled: false,
      conditions: { any: [{ field: 'contact.tags', operator: 'in', value: ['vip'] }] },
    });
    expect(updated.body).toMatchObject({
      enabled: false,
      name: REFUNDS.name,
      conditions: { any: [{ field: 'contact.tags', operator: 'in', value: ['vip'] }] },
    });

    const tested = await postJson(h, `/api/v1/automations/${rule.id}/test`, key, {});
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({ evaluated: 0, matched: 0, results: [] });
    expect((await getJson(h, `/api/v1/automations/${rule.id}/runs`, { key })).body).toEqual({
      data: [],
      next_cursor: null,
      has_more: false,
    });

    expect((await sendJson(h, 'DELETE', `/api/v1/automations/${rule.id}`, key)).status).toBe(200);
    expectError(await getJson(h, `/api/v1/automations/${rule.id}`, { key }), 404, { code: 'NOT_FOUND' });
  });

  it('refuses bad rules with the path at fault', async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        { ...REFUNDS, trigger: { event: 'message.sent' } },
        {
          'trigger.event':
            'must be one of message.received, conversation.created, conversation.updated, contact.created, tag.added, conversation.waiting, schedule',
        },
      ],
      [
        { ...REFUNDS, conditions: { all: [{ field: 'message.text', operator: 'like', value: 'x' }] } },
        { 'conditions.all.0.operator': 'must be one of contains, equals, matches, in, not_in, is' },
      ],
      [
        { ...REFUNDS, conditions: { all: [{ field: 'message.text', operator: 'matches', value: '(a+' }] } },
        { 'conditions.all.0.value': expect.stringMatching(/^must be a valid RE2 regular expression/) },
      ],
      [
        { ...REFUNDS, conditions: { all: [{ field: 'message.text', operator: 'matches', value: '(a+)+\\1' }] } },
        { 'conditions.all.0.value': expect.stringMatching(/^must be a valid RE2/) },
      ],
      [
        { ...REFUNDS, conditions: { all: [{ field: 'contact.tags', operator: 'in', value: 'vip' }] } },
        { 'conditions.all.0.value': 'must be a list for in' },
      ],
      [
        { ...REFUNDS, conditions: { all: [{ all: [{ any: [] }] }] } },
        { 'conditions.all.0.all.0': 'must be a condition {field, operator, value}: groups nest one level only' },
      ],
      [{ ...REFUNDS, actions: [{ type: 'launch_rocket' }] }, { 'actions.0.type': expect.stringMatching(/^must name a known action type/) }],
      [{ ...REFUNDS, actions: [] }, { actions: 'must have at least 1 action' }],
      [
        { ...REFUNDS, actions: Array.from({ length: 11 }, () => ({ type: 'add_tag', tag: 'x' })) },
        { actions: 'must have at most 10 actions' },
      ],
      [
        {
          ...REFUNDS,
          conditions: { all: Array.from({ length: 11 }, () => ({ field: 'message.text', operator: 'contains', value: 'x' })) },
        },
        { conditions: 'must have at most 10 conditions' },
      ],
      [{ ...REFUNDS, actions: [{ type: 'webhook', url: 'ftp://example.com' }] }, { 'actions.0.url': 'must be an http(s) URL' }],
    ];
    for (const [body, details] of cases) {
      expectError(await postJson(h, '/api/v1/automations', key, body), 400, { code: 'VALIDATION_ERROR', details });
    }
  });

  it('allows 100 rules per workspace and refuses the 101st', async () => {
    const crowded = await h.workspace('Automations crowded');
    await h.db.prisma.automationRule.createMany({
      data: Array.from({ length: 100 }, (_, index) => ({
        company_id: crowded.workspace_id,
        name: `rule ${index}`,
        trigger: { event: 'message.received' },
        trigger_event: 'message.received',
        conditions: { all: [] },
        actions: [{ type: 'add_tag', tag: 'x' }],
      })),
    });
    expectError(await postJson(h, '/api/v1/automations', crowded.api_key, REFUNDS), 409, { code: 'CONFLICT', details: { limit: 100 } });
  });

  it('keeps other doors shut: no key, a key without the automations scope, another workspace', async () => {
    const rule = (await postJson(h, '/api/v1/automations', key, REFUNDS)).body as Rule;
    expect((await getJson(h, '/api/v1/automations')).status).toBe(401);
    const narrow = await h.key(shop.workspace_id, ['conversations', 'customers', 'webhooks']);
    expectError(await getJson(h, '/api/v1/automations', { key: narrow }), 403, { code: 'INSUFFICIENT_SCOPE' });
    expectError(await postJson(h, '/api/v1/automations', narrow, REFUNDS), 403, { code: 'INSUFFICIENT_SCOPE' });
    for (const [method, path, body] of [
      ['GET', `/api/v1/automations/${rule.id}`, undefined],
      ['PATCH', `/api/v1/automations/${rule.id}`, { enabled: false }],
      ['DELETE', `/api/v1/automations/${rule.id}`, undefined],
      ['GET', `/api/v1/automations/${rule.id}/runs`, undefined],
      ['POST', `/api/v1/automations/${rule.id}/test`, {}],
    ] as const) {
      expectError(await sendJson(h, method, path, other.api_key, body), 404, { code: 'NOT_FOUND' });
    }
    expect((await getJson(h, `/api/v1/automations/${rule.id}`, { key })).body).toMatchObject({ enabled: true });
  });
});

describe('automations over GraphQL and MCP', () => {
  it('takes and answers the same JSON in GraphQL', async () => {
    const { body } = await h.graphql<{ automationCreate: Rule }>(
      key,
      'mutation($name: String!, $trigger: JSON!, $conditions: JSON, $actions: JSONList!) { automationCreate(name: $name, trigger: $trigger, conditions: $conditions, actions: $actions) { id name enabled trigger conditions actions } }',
      REFUNDS,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.automationCreate).toMatchObject(REFUNDS);
    const listed = await h.graphql<{ automations: { data: { id: string }[] } }>(key, '{ automations { data { id } } }');
    expect(listed.body.data!.automations.data.map((rule) => rule.id)).toContain(body.data!.automationCreate.id);
  });

  it('lets an AI client write, try, list, change and delete a rule with the MCP tools', async () => {
    const client = await mcpClient(key);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'automations_list',
        'automations_create',
        'automations_update',
        'automations_delete',
        'automations_runs',
        'automations_test',
      ]),
    );
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result.structuredContent as Record<string, unknown>;
    };
    const rule = (await call('automations_create', { ...REFUNDS, name: 'From MCP' })) as unknown as Rule;
    expect(rule).toMatchObject({ ...REFUNDS, name: 'From MCP' });
    expect(await call('automations_test', { id: rule.id })).toMatchObject({ evaluated: 0, matched: 0 });
    expect(await call('automations_runs', { id: rule.id })).toMatchObject({ data: [] });
    expect(await call('automations_update', { id: rule.id, enabled: false })).toMatchObject({ enabled: false });
    expect(((await call('automations_list', {})).data as Rule[]).map((listed) => listed.id)).toContain(rule.id);
    expect(await call('automations_delete', { id: rule.id })).toMatchObject({ id: rule.id });
    const refused = (await client.callTool({
      name: 'automations_create',
      arguments: { ...REFUNDS, trigger: { event: 'nope' } },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    await client.close();
  });
});

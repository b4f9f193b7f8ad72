// The reports over REST and MCP: each route and each tool answers what its named GraphQL operation answers,
// with filters and intervals read from the query string or the tool's arguments, the same 400 for a bad
// range, and 403 for a key without the analytics scope (the other door of these read-only routes).
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { expectError, getJson, operationResult } from '../support/restFixtures.js';
import { AGENT_WEEK, CAMPAIGN_WEEK, RESPONSE_WEEK, seedReports } from './seed.js';
import { openMcpClient } from '../support/mcpClient.js';

const h = await openHarness();
const { workspace, leo } = await seedReports(h, 'Reports over REST');
const key = workspace.api_key;

const query = (values: Record<string, string>) => new URLSearchParams(values).toString();

const ROUTES = [
  { path: '/api/v1/reports/conversations', operation: 'ReportConversations', tool: 'reports_conversations_summary', range: RESPONSE_WEEK },
  { path: '/api/v1/reports/people', operation: 'ReportPeople', tool: 'reports_people_summary', range: RESPONSE_WEEK },
  { path: '/api/v1/reports/agent', operation: 'ReportAgent', tool: 'reports_agent_summary', range: AGENT_WEEK },
  { path: '/api/v1/reports/campaigns', operation: 'ReportCampaigns', tool: 'reports_campaigns_summary', range: CAMPAIGN_WEEK },
  { path: '/api/v1/reports/templates', operation: 'ReportTemplates', tool: 'reports_templates_summary', range: CAMPAIGN_WEEK },
];

describe('reports routes and tools', () => {
  it.each(ROUTES)('GET $path and $tool answer as $operation', async ({ path, operation, tool, range }) => {
    const expected = await operationResult(h, key, operation, range);
    const answer = await getJson(h, `${path}?${query(range)}`, { key });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(expected);
    const mcp = await openMcpClient(h, key);
    const called = await mcp.call(tool, range);
    await mcp.close();
    expect(called.isError).toBe(false);
    expect(called.structured).toEqual(expected);
  });

  it('reads the interval, time zone and filters from the query string', async () => {
    const variables = { ...RESPONSE_WEEK, interval: 'day', time_zone: 'Asia/Tokyo', assignee_user_id: leo.id };
    const answer = await getJson(h, `/api/v1/reports/conversations?${query(variables)}`, { key });
    expect(answer.body).toEqual(await operationResult(h, key, 'ReportConversations', variables));
    expect(answer.body.totals).toMatchObject({ conversations_opened: 5, first_response_median_seconds: 480 });
    expect(answer.body.series[1]).toMatchObject({ start: '2026-10-05T15:00:00.000Z' });
  });

  it('refuses a bad interval with 400 and a key without the analytics scope with 403', async () => {
    const bad = await getJson(h, `/api/v1/reports/conversations?${query({ ...RESPONSE_WEEK, interval: 'month' })}`, { key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const customersOnly = await h.key(workspace.workspace_id, ['customers']);
    const refused = await getJson(h, `/api/v1/reports/people?${query(RESPONSE_WEEK)}`, { key: customersOnly });
    expectError(refused, 403, { code: 'INSUFFICIENT_SCOPE' });
  });
});

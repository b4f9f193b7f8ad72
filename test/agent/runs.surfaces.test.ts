// The AI agent's runs on every conversation of the workspace (agentRuns without conversation_id), on GraphQL, REST
// (GET /api/v1/agent/runs) and MCP (agent_runs_recent_list), after the agent worker answered real WhatsApp questions
// on two conversations: newest first across both, each reply with the FAQ or sentence (and its document) it was
// drawn from; `status` keeps one status; pages of `limit` follow `next_cursor` to the end without repeating a run.
// It needs the `conversations` scope (a key with only `knowledge` is refused on every surface, no key is 401), and
// another workspace sees none of it.
import { describe, expect, it } from 'vitest';
import { openAgentWorld } from '../support/agent.js';
import { FAQ_ANSWER, FAQ_QUESTION, HOURS, repliedWorkspace, SHIPPING_TITLE } from '../support/agentReplies.js';
import { openMcpClient } from '../support/mcpClient.js';
import { expectError, getJson, operationResult } from '../support/restFixtures.js';

const agent = await openAgentWorld();
const { harness: h } = agent;

type RunPage = { data: Record<string, any>[]; next_cursor: string | null; has_more: boolean };

// Made once, by the first test that asks (expect.poll, which waits for the worker, runs only inside a test).
let answering: ReturnType<typeof repliedWorkspace> | undefined;
const answered = () => (answering ??= repliedWorkspace(agent));

const runsPage = async (key: string, search = '') => (await getJson(h, `/api/v1/agent/runs${search}`, { key })).body as RunPage;

describe("the workspace's agent runs", { timeout: 120_000 }, () => {
  it('lists both conversations’ runs newest first, each reply with what it was drawn from, the same on REST, GraphQL and MCP', async () => {
    const { ws, runs, faq, document, conversationIds } = await answered();
    const rest = await runsPage(ws.apiKey);
    expect(rest.has_more).toBe(false);
    expect(rest.data.map((run) => run['id'])).toEqual(runs.map((run) => run.id).reverse());
    expect(new Set(rest.data.map((run) => run['conversation_id']))).toEqual(new Set(conversationIds));
    const [handedOff, noAnswer, secondFaq, sentence, firstFaq] = rest.data;
    expect(firstFaq).toMatchObject({
      conversation_id: conversationIds[0],
      status: 'replied',
      reply: FAQ_ANSWER,
      answer_source: { kind: 'faq', faq_id: faq.id, question: FAQ_QUESTION },
    });
    expect(sentence).toMatchObject({
      status: 'replied',
      reply: `${HOURS}\n\nSource: ${SHIPPING_TITLE}`,
      answer_source: { kind: 'sentence', document_id: document.id, title: SHIPPING_TITLE, text: HOURS },
    });
    expect(sentence!['explanation']).toContain(`of "${SHIPPING_TITLE}"`);
    expect(secondFaq).toMatchObject({ conversation_id: conversationIds[1], answer_source: { kind: 'faq', faq_id: faq.id } });
    expect(noAnswer).toMatchObject({ status: 'replied', answer_source: { kind: 'no_answer' } });
    expect(handedOff).toMatchObject({ status: 'handed_off', handoff_reason: 'no_confident_answer', reply: null });

    expect(await operationResult(h, ws.apiKey, 'AgentRunsRecent')).toEqual(rest);
    const mcp = await openMcpClient(h, ws.apiKey);
    try {
      expect(await mcp.call('agent_runs_recent_list')).toEqual({ isError: false, json: rest, structured: rest });
      const handedOffPage = { data: [handedOff], next_cursor: null, has_more: false };
      expect(await mcp.call('agent_runs_recent_list', { status: 'handed_off' })).toEqual({
        isError: false,
        json: handedOffPage,
        structured: handedOffPage,
      });
    } finally {
      await mcp.close();
    }
  });

  it('keeps one status when asked, and refuses one that is none', async () => {
    const { ws, runs } = await answered();
    const repliedOnly = await runsPage(ws.apiKey, '?status=replied');
    expect(repliedOnly.data.map((run) => run['id'])).toEqual(
      runs
        .filter((run) => run.status === 'replied')
        .map((run) => run.id)
        .reverse(),
    );
    expectError(await getJson(h, '/api/v1/agent/runs?status=answered', { key: ws.apiKey }), 400, { code: 'VALIDATION_ERROR' });
  });

  it('pages with limit and next_cursor to the end, each run once', async () => {
    const { ws, runs } = await answered();
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 5; pages += 1) {
      const page = await runsPage(ws.apiKey, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.data.map((run) => run['id'] as string));
      expect(page.data.length).toBeLessThanOrEqual(2);
      if (!page.has_more) {
        expect(page.next_cursor).toBeNull();
        break;
      }
      cursor = page.next_cursor!;
    }
    expect(seen).toEqual(runs.map((run) => run.id).reverse());
    const graphqlSecond = (await operationResult(h, ws.apiKey, 'AgentRunsRecent', { limit: 2, cursor: seen[1] })) as RunPage;
    expect(graphqlSecond.data.map((run) => run['id'])).toEqual(seen.slice(2, 4));
  });

  it('needs the conversations scope, and shows another workspace nothing', async () => {
    const { ws } = await answered();
    expect((await getJson(h, '/api/v1/agent/runs')).status).toBe(401);
    const knowledgeOnly = await h.key(ws.workspaceId, ['knowledge']);
    expectError(await getJson(h, '/api/v1/agent/runs', { key: knowledgeOnly }), 403, { code: 'INSUFFICIENT_SCOPE' });
    const refused = await h.graphql(knowledgeOnly, 'query { agentRuns { data { id } } }', {});
    expect(refused.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_SCOPE');
    const mcp = await openMcpClient(h, knowledgeOnly);
    try {
      expect(await mcp.call('agent_runs_recent_list')).toMatchObject({ isError: true, json: { error: { code: 'INSUFFICIENT_SCOPE' } } });
    } finally {
      await mcp.close();
    }
    const other = await h.workspace('Runs elsewhere');
    expect(await runsPage(other.api_key)).toEqual({ data: [], next_cursor: null, has_more: false });
  });
});

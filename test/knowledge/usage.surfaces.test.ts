// Which knowledge the agent's replies were drawn from (knowledgeUsage), on GraphQL, REST (GET /api/v1/knowledge/usage)
// and MCP (knowledge_usage_summary), after the agent worker answered real WhatsApp questions: the FAQ answered twice
// comes before the document whose sentence answered once, a reply without an answer counts for nothing, a hand-off
// neither; the range [from, to) and limit are kept; a deleted document keeps its row by the title its runs recorded,
// with a null document. It needs the `knowledge` scope (a key with only `conversations` is refused on every surface,
// no key is 401), and another workspace sees none of it.
import { describe, expect, it } from 'vitest';
import { openAgentWorld } from '../support/agent.js';
import { FAQ_QUESTION, repliedWorkspace, SHIPPING_TITLE } from '../support/agentReplies.js';
import { openMcpClient } from '../support/mcpClient.js';
import { expectError, getJson } from '../support/restFixtures.js';

const agent = await openAgentWorld();
const { harness: h } = agent;

const HOUR_MS = 3_600_000;
/** Around this file's run: every reply it makes falls inside. */
const range = { from: new Date(Date.now() - HOUR_MS).toISOString(), to: new Date(Date.now() + HOUR_MS).toISOString() };
const query = (range: { from: string; to: string }, extra = '') =>
  `/api/v1/knowledge/usage?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}${extra}`;

const USAGE = `query($from: DateTime!, $to: DateTime!, $limit: Int) {
  knowledgeUsage(from: $from, to: $to, limit: $limit) { data { kind name replies last_used_at document { id title } faq { id question } } } }`;

// Made once, by the first test that asks (expect.poll, which waits for the worker, runs only inside a test).
let answering: ReturnType<typeof repliedWorkspace> | undefined;
const answered = () => (answering ??= repliedWorkspace(agent));

describe('knowledge usage', { timeout: 120_000 }, () => {
  it('counts the replies drawn from each FAQ and document, most used first, the same on REST, GraphQL and MCP', async () => {
    const { runs, ws, faq, document } = await answered();
    expect(runs.map((run) => [run.status, (run.answer_source as { kind: string } | null)?.kind ?? null])).toEqual([
      ['replied', 'faq'],
      ['replied', 'sentence'],
      ['replied', 'faq'],
      ['replied', 'no_answer'],
      ['handed_off', null],
    ]);
    const rest = await getJson(h, query(range), { key: ws.apiKey });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      data: [
        {
          kind: 'faq',
          name: FAQ_QUESTION,
          replies: 2,
          last_used_at: runs[2]!.created_at.toISOString(),
          document: null,
          faq: { id: faq.id, question: FAQ_QUESTION },
        },
        {
          kind: 'document',
          name: SHIPPING_TITLE,
          replies: 1,
          last_used_at: runs[1]!.created_at.toISOString(),
          document: { id: document.id, title: SHIPPING_TITLE },
          faq: null,
        },
      ],
    });
    const graphql = await agent.gql(ws.apiKey, USAGE, range);
    expect(graphql['knowledgeUsage']).toEqual(rest.body);
    const mcp = await openMcpClient(h, ws.apiKey);
    try {
      const first = { data: [rest.body.data[0]] };
      expect(await mcp.call('knowledge_usage_summary', { ...range, limit: 1 })).toEqual({ isError: false, json: first, structured: first });
    } finally {
      await mcp.close();
    }
  });

  it('keeps to the range: nothing before the first reply, nothing from its end on', async () => {
    const { runs, ws } = await answered();
    const first = runs[0]!.created_at.getTime();
    const before = { from: new Date(first - 2 * HOUR_MS).toISOString(), to: new Date(first - 1).toISOString() };
    expect((await getJson(h, query(before), { key: ws.apiKey })).body).toEqual({ data: [] });
    const untilSecond = { from: range.from, to: runs[1]!.created_at.toISOString() };
    expect((await getJson(h, query(untilSecond), { key: ws.apiKey })).body.data).toEqual([
      expect.objectContaining({ kind: 'faq', replies: 1 }),
    ]);
    expectError(await getJson(h, query({ from: range.to, to: range.from }), { key: ws.apiKey }), 400, { code: 'VALIDATION_ERROR' });
  });

  it('needs the knowledge scope, and shows another workspace nothing', async () => {
    const { ws } = await answered();
    expect((await getJson(h, query(range))).status).toBe(401);
    const transcripts = await h.key(ws.workspaceId, ['conversations']);
    expectError(await getJson(h, query(range), { key: transcripts }), 403, { code: 'INSUFFICIENT_SCOPE' });
    const refused = await h.graphql(transcripts, USAGE, range);
    expect(refused.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_SCOPE');
    const mcp = await openMcpClient(h, transcripts);
    try {
      expect(await mcp.call('knowledge_usage_summary', range)).toMatchObject({
        isError: true,
        json: { error: { code: 'INSUFFICIENT_SCOPE' } },
      });
    } finally {
      await mcp.close();
    }
    const other = await h.workspace('Usage elsewhere');
    expect((await getJson(h, query(range), { key: other.api_key })).body).toEqual({ data: [] });
  });

  it('keeps a deleted document by the title its replies recorded', async () => {
    const { ws, document } = await answered();
    await agent.gql(ws.apiKey, 'mutation($id: ID!) { knowledgeDocumentDelete(id: $id) { id } }', { id: document.id });
    const { body } = await getJson(h, query(range), { key: ws.apiKey });
    expect(body.data[1]).toMatchObject({ kind: 'document', name: SHIPPING_TITLE, replies: 1, document: null });
  });
});

// The knowledge search is the AI agent's ranking (issue #40): it follows the question's language and each
// document's (a Portuguese question typed without accents finds the Portuguese document's plural, accented form,
// an English question the English document, never the other), gives the sentence and FAQ the agent would answer
// from with the agent's scores and threshold (issue #40's "Can I return a shirt I already wore?" → the returns
// sentence, above the threshold), on GraphQL, REST (GET /api/v1/knowledge/search) and MCP (knowledge_search).
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';
import { getJson } from '../support/restFixtures.js';
import { openMcpClient } from '../support/mcpClient.js';

const h = await openHarness();
const { data } = graphqlCalls(h);
const shop = await h.workspace('Search languages');
const key = shop.api_key;

const SHIPPING =
  'We ship to Spain, Portugal, France and Germany, and delivery takes 2 to 4 working days. ' +
  'Shipping is free for orders over 50 euros; below that it costs 4.90 euros. ' +
  'Returns are accepted within 30 days if the item is unused and still has its labels. ' +
  'Refunds are paid to the original payment method within 5 working days of receiving the return. ' +
  'Our customer service is open Monday to Saturday from 9:00 to 18:00 and closed on Sundays.';
const RETURNS = 'Returns are accepted within 30 days if the item is unused and still has its labels.';
const ENTREGAS =
  'Entregamos em todo o Brasil e o prazo de entrega é de 3 a 7 dias úteis. ' +
  'As devoluções são aceitas em até 7 dias após o recebimento, com o produto sem uso e na embalagem original.';

const SEARCH = `query($q: String!, $limit: Int) { knowledgeSearch(q: $q, limit: $limit) {
  language languages threshold
  faq { score faq { id question } }
  sentences { text score document { id title language } }
  results { rank snippet document { id title language } } } }`;

type Search = {
  language: string;
  languages: string[];
  threshold: number;
  faq: { score: number; faq: { id: string; question: string } } | null;
  sentences: { text: string; score: number; document: { id: string; title: string; language: string } }[];
  results: { rank: number; snippet: string; document: { id: string; title: string; language: string } }[];
};

const search = async (q: string) => (await data<{ knowledgeSearch: Search }>(key, SEARCH, { q })).knowledgeSearch;

const english = (
  await data<{ knowledgeDocumentCreate: { id: string } }>(
    key,
    'mutation($c: String!) { knowledgeDocumentCreate(title: "Shipping and returns", content: $c) { id } }',
    { c: SHIPPING },
  )
).knowledgeDocumentCreate;
const portuguese = (
  await data<{ knowledgeDocumentCreate: { id: string } }>(
    key,
    'mutation($c: String!) { knowledgeDocumentCreate(title: "Entregas e devoluções", content: $c) { id } }',
    { c: ENTREGAS },
  )
).knowledgeDocumentCreate;

describe("the knowledge search ranks as the agent does, in the question's language", () => {
  it("gives issue #40's returns question the returns sentence, above the agent's threshold", async () => {
    const found = await search('Can I return a shirt I already wore?');
    expect(found).toMatchObject({ language: 'en', languages: ['en', 'pt'], threshold: 0.57, faq: null });
    expect(found.sentences[0]).toMatchObject({ text: RETURNS, document: { id: english.id } });
    expect(found.sentences[0]!.score).toBeGreaterThanOrEqual(found.threshold);
    expect(found.results.map((result) => result.document.id)).toEqual([english.id]);
    expect(found.results[0]!.snippet).toContain('**Returns** are accepted');
  });

  it('reads a Portuguese question without accents against the Portuguese document only, stemming plurals', async () => {
    const found = await search('Voces aceitam devolucao?');
    expect(found.language).toBe('pt');
    expect(found.sentences.map((sentence) => sentence.document.id)).toEqual([portuguese.id]);
    expect(found.sentences[0]!.text).toMatch(/^As devoluções são aceitas/);
    expect(found.results).toEqual([
      {
        rank: found.sentences[0]!.score,
        snippet: expect.stringContaining('devoluções'),
        document: expect.objectContaining({ language: 'pt' }),
      },
    ]);
  });

  it('reads an English question against the English document only', async () => {
    const found = await search('How long does delivery take?');
    expect(found.language).toBe('en');
    expect(new Set(found.sentences.map((sentence) => sentence.document.language))).toEqual(new Set(['en']));
    expect(found.sentences[0]!.text).toMatch(/^We ship to Spain/);
  });

  it('shows the FAQ the agent would answer with before the documents', async () => {
    const created = await data<{ knowledgeFaqCreate: { id: string } }>(
      key,
      'mutation { knowledgeFaqCreate(question: "Do you sell gift cards?", answer: "Yes, from 10 to 200 euros.") { id } }',
    );
    const found = await search('Do you sell gift cards?');
    expect(found.faq).toEqual({
      score: expect.any(Number),
      faq: { id: created.knowledgeFaqCreate.id, question: 'Do you sell gift cards?' },
    });
    expect(found.faq!.score).toBeGreaterThanOrEqual(found.threshold);
  });

  it('answers the same over REST and MCP', async () => {
    const q = 'Can I return a shirt I already wore?';
    const rest = await getJson(h, `/api/v1/knowledge/search?q=${encodeURIComponent(q)}`, { key });
    expect(rest.status).toBe(200);
    expect(rest.body.sentences[0]).toMatchObject({ text: RETURNS });
    expect(rest.body.language).toBe('en');

    const mcp = await openMcpClient(h, key);
    const result = await mcp.call('knowledge_search', { q: 'Entregam no Brasil?' });
    await mcp.close();
    expect(result.isError).toBe(false);
    const structured = result.structured as unknown as Search;
    expect(structured.language).toBe('pt');
    expect(structured.results[0]!.document.id).toBe(portuguese.id);
  });
});

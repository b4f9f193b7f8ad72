// The knowledge search: the AI agent's own ranking (resolvers/agent/retrieval.ts rankKnowledge) of the workspace's
// sentences and FAQs for a question, so what a person searches is what the agent would answer from. The question
// is read in its language (detected, else the workspace's default) against knowledge written in it, each stemmed
// in its own configuration; documents come best sentence first, with their best sentences as the snippet.
import { z } from 'zod';
import { type Context, requireActor } from '../shared/context.js';
import { parseInput, searchTerm } from '../shared/validation.js';
import { agentSettingsOf } from './settings.js';
import { rankKnowledge } from './retrieval.js';
import type { AgentSentence } from '../../adapters/agent/types.js';
import { configurationOf } from '../knowledge/language.js';
import { availableConfigurations } from '../knowledge/sentences.js';

/** Sentences ranked at most (the agent's own candidate limit bounds them too). */
const RANKED_SENTENCES = 400;
const SNIPPET_SENTENCES = 2;
const HIGHLIGHT = 'StartSel=**, StopSel=**, HighlightAll=true';

const searchInput = z.object({
  q: searchTerm(500),
  limit: z
    .number()
    .int()
    .min(1, { message: 'must be between 1 and 50' })
    .max(50, { message: 'must be between 1 and 50' })
    .nullish()
    .transform((value) => value ?? 10),
});

/** The sentences' text with the question's words wrapped in ** (ts_headline in each sentence's configuration). */
async function highlighted(ctx: Context, question: string, sentences: AgentSentence[]): Promise<string[]> {
  if (sentences.length === 0) return [];
  const available = await availableConfigurations(ctx.prisma);
  const rows = await ctx.prisma.$queryRaw<{ n: number; snippet: string }[]>`
    SELECT t.n::int AS n, ts_headline(t.config::regconfig, t.text, plainto_tsquery(t.config::regconfig, ${question}), ${HIGHLIGHT}) AS snippet
    FROM unnest(${sentences.map((sentence) => sentence.text)}::text[], ${sentences.map((sentence) => configurationOf(sentence.language, available))}::text[])
      WITH ORDINALITY AS t(text, config, n)
    ORDER BY t.n`;
  return rows.map((row) => row.snippet);
}

/** The documents whose sentences answer the question best, the best FAQ, and the best sentences, all scored as the agent scores them. */
export async function searchKnowledge(ctx: Context, input: z.input<typeof searchInput>) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(searchInput, input);
  const settings = await agentSettingsOf(ctx.prisma, workspaceId);
  const ranked = await rankKnowledge(
    ctx.prisma,
    workspaceId,
    { question: args.q, previousQuestion: null, defaultLanguage: settings.default_language },
    RANKED_SENTENCES,
  );
  const byDocument = new Map<string, AgentSentence[]>();
  for (const sentence of ranked.sentences)
    byDocument.set(sentence.document_id, [...(byDocument.get(sentence.document_id) ?? []), sentence]);
  const ordered = [...byDocument.values()]
    .sort((a, b) => b[0]!.score - a[0]!.score || (a[0]!.document_id < b[0]!.document_id ? 1 : -1))
    .slice(0, args.limit);
  const bestSentences = ranked.sentences.slice(0, args.limit);
  const ids = [
    ...new Set([...ordered.map((sentences) => sentences[0]!.document_id), ...bestSentences.map((sentence) => sentence.document_id)]),
  ];
  const [documents, faq] = await Promise.all([
    ctx.prisma.knowledgeDocument.findMany({ where: { id: { in: ids }, company_id: workspaceId } }),
    ranked.faq ? ctx.prisma.knowledgeFaq.findFirst({ where: { id: ranked.faq.faq_id, company_id: workspaceId } }) : null,
  ]);
  const byId = new Map(documents.map((document) => [document.id, document]));
  const snippetSentences = ordered.map((sentences) => sentences.slice(0, SNIPPET_SENTENCES).sort((a, b) => a.position - b.position));
  const snippets = await highlighted(ctx, args.q, snippetSentences.flat());
  let next = 0;
  const results = snippetSentences.map((sentences, index) => {
    const snippet = snippets.slice(next, next + sentences.length).join(' … ');
    next += sentences.length;
    return { document: byId.get(ordered[index]![0]!.document_id)!, rank: ordered[index]![0]!.score, snippet };
  });
  return {
    language: ranked.language,
    languages: ranked.languages,
    threshold: settings.knowledge_threshold,
    faq: faq && ranked.faq ? { faq, score: ranked.faq.score } : null,
    sentences: bestSentences.map((sentence) => ({ document: byId.get(sentence.document_id)!, text: sentence.text, score: sentence.score })),
    results,
  };
}

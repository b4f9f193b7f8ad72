// Knowledge for the AI agent's question: the workspace's sentences and FAQ questions (resolvers/knowledge/sentences.ts)
// that share a term with it (GIN on their terms) or resemble it (trigrams), each scored in [0, 1]:
//   0.2  × the share of the question's known words it holds, each word weighted by its rarity among the candidates
//          (a word no sentence holds tells nothing about which sentence answers; a word every sentence holds, little),
//   0.4  × the share of all the question's words it holds (words the knowledge never uses lower every score),
//   0.15 × trigram word similarity of the question to it (typos, forms the stemmer misses, unstemmed languages),
//   0.1  × how early its first matched word comes (a sentence about returns starts with returns),
//   0.15 × how early in the question the first word it holds comes (a question about returns asks it first: "Can I
//          return a shirt I already wore?"; the words after the topic are its details, which the knowledge may word
//          otherwise).
// Words weigh by their stem's length (up to 6 letters); a word held by the document's title or the heading above
// counts 0.75, by a shared 5-letter stem prefix 0.8.
// The question is read in each knowledge language's configuration; only the customer's language is searched.
import type { Db } from '../shared/context.js';
import { detectLanguage, isFollowUp } from '../knowledge/language.js';
import { indexUnsplitDocuments, prefixTerm, wordsOf, type Words } from '../knowledge/sentences.js';

import type { AgentKnowledge, AgentPassage, AgentSentence } from '../../adapters/agent/types.js';

/** The agent's knowledge, with the passages of the best sentences, whole, for the model's prompt and the run's record. */
export type Knowledge = AgentKnowledge & { passages: AgentPassage[] };

// The weights below were chosen on the evaluation set (bench/agentEval, docs/api-decisions.md "The AI agent").
const KNOWN = 0.2;
const ALL = 0.4;
const SIMILAR = 0.15;
const EARLY = 0.1;
const ASKED_FIRST = 0.15;
/** A word held by the document's title or the heading above the sentence counts this much. */
const CONTEXT = 0.75;
const MAX_CANDIDATES = 400;
const KEPT_SENTENCES = 8;
const KEPT_PASSAGES = 3;
/** How much the previous question's words count in a follow-up ("and to France?"). */
const PREVIOUS_WEIGHT = 0.6;

type Candidate = {
  id: string;
  document_id: string | null;
  faq_id: string | null;
  passage: number;
  position: number;
  text: string;
  language: string;
  terms: string[] | null;
  context_terms: string[] | null;
  similarity: number;
  title: string | null;
  question: string | null;
  answer: string | null;
};

type Word = { variants: string[]; prefixes: string[]; weight: number };

/** Longer stems carry more meaning ("descuent" against "hac"): a word's weight grows with its stem up to 6 letters. */
function informativeness(variants: string[]): number {
  const longest = Math.max(...variants.map((variant) => Array.from(variant).length));
  return Math.min(1, Math.max(longest, 2) / 6);
}

/** Stems of "how much / how many / which" in the tested languages: they ask and name no topic (the configurations'
 * stop-word lists keep them). */
const QUESTION_WORDS = new Set(
  'much mani quant quanto cuant cuanto combien wieviel viel berapa qual quai quais cual cuale quale qual quel welch apa'.split(' '),
);

function wordList(words: Words, weight: number): Word[] {
  return words
    .filter((variants) => !variants.some((variant) => QUESTION_WORDS.has(variant)))
    .map((variants) => ({
      variants,
      prefixes: variants.map(prefixTerm).filter((prefix): prefix is string => prefix !== null),
      weight: weight * informativeness(variants),
    }));
}

/** How well a set of terms holds the word: 1 for a stem, 0.8 for a shared stem prefix, 0. */
function holds(terms: ReadonlySet<string>, word: Word): number {
  if (word.variants.some((variant) => terms.has(variant))) return 1;
  return word.prefixes.some((prefix) => terms.has(prefix)) ? 0.8 : 0;
}

function scoreAll(candidates: Candidate[], words: Word[]): number[] {
  const sets = candidates.map((candidate) => ({
    terms: new Set(candidate.terms ?? []),
    context: new Set(candidate.context_terms ?? []),
    order: candidate.terms ?? [],
  }));
  const matches = sets.map((set) => words.map((word) => Math.max(holds(set.terms, word), holds(set.context, word) * CONTEXT)));
  const documentFrequency = words.map((_, index) => matches.filter((row) => row[index]! > 0).length);
  const rarity = documentFrequency.map((count) => (count === 0 ? 0 : 1 / Math.log2(1 + count)));
  const knownWeight = words.reduce((sum, word, index) => sum + word.weight * rarity[index]!, 0);
  const allWeight = words.reduce((sum, word) => sum + word.weight, 0);
  return candidates.map((candidate, row) => {
    const match = matches[row]!;
    if (allWeight === 0 || knownWeight === 0) return SIMILAR * candidate.similarity;
    const known = words.reduce((sum, word, index) => sum + word.weight * rarity[index]! * match[index]!, 0) / knownWeight;
    const all = words.reduce((sum, word, index) => sum + word.weight * match[index]!, 0) / allWeight;
    const order = sets[row]!.order;
    const first = order.findIndex((term) => words.some((word) => word.variants.includes(term) || word.prefixes.includes(term)));
    const early = first === -1 ? 0 : 1 - first / Math.max(order.length, 1);
    const firstAsked = match.findIndex((held) => held > 0);
    const askedFirst = firstAsked === -1 ? 0 : 1 - firstAsked / words.length;
    return KNOWN * known + ALL * all + SIMILAR * candidate.similarity + EARLY * early + ASKED_FIRST * askedFirst;
  });
}

/**
 * An FAQ's question is matched both ways, as one question against another: the share of the customer's words it
 * holds (0.4), the share of its own words the customer's question holds (0.4: "Gift cards?" is all there in "Do
 * you sell gift cards?"), and trigram similarity (0.2).
 */
function faqScore(candidate: Candidate, words: Word[]): number {
  const terms = new Set(candidate.terms ?? []);
  const allWeight = words.reduce((sum, word) => sum + word.weight, 0);
  const forward = allWeight === 0 ? 0 : words.reduce((sum, word) => sum + word.weight * holds(terms, word), 0) / allWeight;
  const asked = new Set(words.flatMap((word) => [...word.variants, ...word.prefixes]));
  const own = [...terms].filter((term) => !term.endsWith('*') && !QUESTION_WORDS.has(term));
  const backward = own.length === 0 ? 0 : own.filter((term) => asked.has(term) || asked.has(prefixTerm(term) ?? '')).length / own.length;
  return 0.4 * forward + 0.4 * backward + 0.2 * candidate.similarity;
}

async function knowledgeLanguages(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ language: string }[]>`
    SELECT DISTINCT language FROM knowledge_sentences WHERE company_id = ${workspaceId}::uuid ORDER BY language`;
  return rows.map((row) => row.language);
}

async function passagesOf(db: Db, best: AgentSentence[]): Promise<AgentPassage[]> {
  const chosen: AgentSentence[] = [];
  for (const sentence of best) {
    if (chosen.length >= KEPT_PASSAGES) break;
    if (!chosen.some((other) => other.document_id === sentence.document_id && other.passage === sentence.passage)) chosen.push(sentence);
  }
  if (chosen.length === 0) return [];
  const rows = await db.knowledgeSentence.findMany({
    where: { OR: chosen.map((sentence) => ({ document_id: sentence.document_id, passage: sentence.passage })) },
    orderBy: { ordinal: 'asc' },
    select: { document_id: true, passage: true, text: true },
  });
  return chosen.map((sentence) => ({
    document_id: sentence.document_id,
    title: sentence.title,
    text: rows
      .filter((row) => row.document_id === sentence.document_id && row.passage === sentence.passage)
      .map((row) => row.text)
      .join(' '),
    rank: Math.round(sentence.score * 1000) / 1000,
  }));
}

type Ask = { question: string; previousQuestion: string | null; defaultLanguage: string };

/** The knowledge for a question; `previousQuestion` is the contact's message before it, for follow-ups. */
export async function retrieveKnowledge(db: Db, workspaceId: string, ask: Ask): Promise<Knowledge> {
  const ranked = await rankKnowledge(db, workspaceId, ask, KEPT_SENTENCES);
  return { ...ranked, passages: await passagesOf(db, ranked.sentences) };
}

/**
 * The question's best FAQ and its `kept` best sentences, scored as above: what the agent answers from, and what
 * the knowledge search (resolvers/agent/knowledgeSearch.ts) lists. A question of stop words only finds nothing.
 */
export async function rankKnowledge(db: Db, workspaceId: string, ask: Ask, kept: number): Promise<AgentKnowledge> {
  await indexUnsplitDocuments(db, workspaceId);
  const languages = await knowledgeLanguages(db, workspaceId);
  const followUp = ask.previousQuestion !== null && isFollowUp(ask.question);
  const detected = detectLanguage(ask.question) ?? (ask.previousQuestion ? detectLanguage(ask.previousQuestion) : null);
  const language = detected ?? ask.defaultLanguage;
  const empty = { language, languages, faq: null, sentences: [], followUp };
  if (languages.length === 0) return { ...empty, languageMissing: false };
  // Undetected questions are searched in every language; a language the knowledge lacks is said so.
  if (detected && !languages.includes(detected)) return { ...empty, languageMissing: true };
  const searched = detected ? [detected] : languages;
  const asked = [ask.question, ...(followUp ? [ask.previousQuestion!] : [])];
  const read = await wordsOf(
    db,
    searched.flatMap((searchedLanguage) => asked.map((text) => ({ text, language: searchedLanguage }))),
  );
  const wordsByLanguage = new Map(
    searched.map((searchedLanguage, index) => {
      const [current, previous] = [read[index * asked.length]!, read[index * asked.length + 1]];
      return [searchedLanguage, [...wordList(current, 1), ...(previous ? wordList(previous, PREVIOUS_WEIGHT) : [])]];
    }),
  );
  const terms = [...new Set([...wordsByLanguage.values()].flat().flatMap((word) => [...word.variants, ...word.prefixes]))];
  // A question of stop words only ("hi", "the") asks about nothing the knowledge could answer.
  if (terms.length === 0) return { ...empty, languageMissing: false };
  const text = asked.join(' ');
  const candidates = await db.$queryRaw<Candidate[]>`
    WITH q AS (SELECT lower(unaccent(${text})) AS folded)
    SELECT s.id::text AS id, s.document_id::text AS document_id, s.faq_id::text AS faq_id, s.passage, s.ordinal AS position, s.text,
      s.language, s.terms, s.context_terms, word_similarity(q.folded, s.folded)::float8 AS similarity,
      d.title, f.question, f.answer
    FROM q, knowledge_sentences s
      LEFT JOIN knowledge_documents d ON d.id = s.document_id
      LEFT JOIN knowledge_faqs f ON f.id = s.faq_id
    WHERE s.company_id = ${workspaceId}::uuid AND s.language = ANY(${searched}::text[])
      AND (s.terms && ${terms}::text[] OR q.folded <% s.folded)
    LIMIT ${MAX_CANDIDATES}`;
  const scores = new Map<string, number>();
  for (const searchedLanguage of searched) {
    const inLanguage = candidates.filter((candidate) => candidate.language === searchedLanguage);
    const words = wordsByLanguage.get(searchedLanguage)!;
    const scored = scoreAll(inLanguage, words);
    inLanguage.forEach((candidate, index) => scores.set(candidate.id, candidate.faq_id ? faqScore(candidate, words) : scored[index]!));
  }
  const rounded = (candidate: Candidate) => Math.round((scores.get(candidate.id) ?? 0) * 1000) / 1000;
  const byScore = [...candidates].sort((a, b) => rounded(b) - rounded(a) || a.position - b.position);
  const faq = byScore.find((candidate) => candidate.faq_id !== null);
  const sentences: AgentSentence[] = byScore
    .filter((candidate) => candidate.document_id !== null && rounded(candidate) > 0)
    .slice(0, kept)
    .map((candidate) => ({
      id: candidate.id,
      document_id: candidate.document_id!,
      title: candidate.title ?? '',
      passage: candidate.passage,
      position: candidate.position,
      text: candidate.text,
      language: candidate.language,
      score: rounded(candidate),
    }));
  return {
    language: detected ?? (searched.length === 1 ? searched[0]! : (sentences[0]?.language ?? language)),
    languages,
    languageMissing: false,
    faq: faq
      ? { faq_id: faq.faq_id!, question: faq.question ?? '', answer: faq.answer ?? '', language: faq.language, score: rounded(faq) }
      : null,
    sentences,
    followUp,
  };
}

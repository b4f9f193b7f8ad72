// Knowledge split into answerable pieces when it is written: a document into passages (paragraphs; a Markdown
// heading goes with the paragraphs under it) and each passage into sentences (Intl.Segmenter, Node's built-in ICU
// sentence breaker: it knows every language's punctuation, Devanagari's danda included, and that "4.90" or "9:00"
// end no sentence, with nothing to install); list items and table rows are sentences of their own. An FAQ is one
// row: its question. Each row keeps its terms (termsOf) and folded text, so ranking reads them from an index.
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../shared/context.js';
import { accentedSmallWords, configurationOf } from './language.js';

const PREFIX_LENGTH = 5;
const MAX_SENTENCE_CHARS = 2000;

type Passage = { heading: string; text: string };

/** Paragraphs of a document; a heading line is kept with the paragraphs below it (for matching), not in their text. */
export function splitPassages(content: string): Passage[] {
  const passages: Passage[] = [];
  let heading = '';
  for (const block of content.split(/\n\s*\n/)) {
    const lines = block.trim().split('\n');
    const isHeading = (line: string) => /^#{1,6}\s/.test(line);
    const body = lines
      .filter((line) => !isHeading(line))
      .join('\n')
      .trim();
    const headings = lines.filter(isHeading);
    if (headings.length > 0) heading = headings.map((line) => line.replace(/^#{1,6}\s+/, '')).join(' ');
    if (body) passages.push({ heading, text: body });
  }
  return passages;
}

const LIST_ITEM = /^\s*(?:[-*+•]|\d+[.)]|\|)\s*/;

/** The sentences of a passage: soft-wrapped lines joined, list items and table rows apart, then ICU's sentence breaks. */
export function splitSentences(text: string, language: string): string[] {
  const items: string[] = [];
  for (const line of text.split('\n')) {
    if (LIST_ITEM.test(line) || items.length === 0) items.push(line.replace(LIST_ITEM, '').replace(/\|/g, ' '));
    else items[items.length - 1] += ` ${line.trim()}`;
  }
  const segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
  return items.flatMap((item) =>
    [...segmenter.segment(item.replace(/\s+/g, ' ').trim())]
      .map((part) => part.segment.trim().slice(0, MAX_SENTENCE_CHARS))
      .filter(Boolean),
  );
}

let configurations: Promise<Set<string>> | undefined;

/** The text search configurations the database has (the same for the life of the process). */
export function availableConfigurations(db: Db): Promise<Set<string>> {
  configurations ??= db.$queryRaw<{ name: string }[]>`SELECT cfgname::text AS name FROM pg_ts_config`
    .then((rows) => new Set(rows.map((row) => row.name)))
    .catch((error: unknown) => {
      configurations = undefined;
      throw error;
    });
  return configurations;
}

let foldedStopWords: Promise<Set<string>> | undefined;

/** Stop words of the configurations that are written with accents, without them ("sao" for "são"): the configuration
 * drops "são" but not "sao", as customers often type it. */
function stopWordsWithoutAccents(db: Db, available: ReadonlySet<string>): Promise<Set<string>> {
  const words = accentedSmallWords();
  foldedStopWords ??= db.$queryRaw<{ folded: string }[]>`
      SELECT w.folded FROM unnest(${words.map((word) => word.word)}::text[], ${words.map((word) => configurationOf(word.language, available))}::text[],
        ${words.map((word) => word.folded)}::text[]) AS w(word, config, folded)
      WHERE to_tsvector(w.config::regconfig, w.word) = ''::tsvector`
    .then((rows) => new Set(rows.map((row) => row.folded)))
    .catch((error: unknown) => {
      foldedStopWords = undefined;
      throw error;
    });
  return foldedStopWords;
}

/** A text's words, each as the set of its accent-folded stems (stemmed then folded, and folded then stemmed). */
export type Words = string[][];

/**
 * The words of each text in its language: PostgreSQL's configuration drops the stop words and stems the rest,
 * once on the text as written and once on it without accents, and unaccent folds both results, so "devolução",
 * "devoluções" and "devolucao" share a stem whichever way the customer typed them. Stop words typed without their
 * accents ("sao", "nao"), which the configuration no longer knows, are dropped too.
 */
export async function wordsOf(db: Db, texts: { text: string; language: string }[]): Promise<Words[]> {
  if (texts.length === 0) return [];
  const available = await availableConfigurations(db);
  const stopWords = await stopWordsWithoutAccents(db, available);
  const rows = await db.$queryRaw<{ n: number; pos: number; lexeme: string; written: boolean }[]>`
    WITH x AS (
      SELECT t.text, t.config::regconfig AS config, t.n::int AS n
      FROM unnest(${texts.map((item) => item.text)}::text[], ${texts.map((item) => configurationOf(item.language, available))}::text[])
        WITH ORDINALITY AS t(text, config, n)
    )
    SELECT * FROM (
      SELECT x.n, p.pos::int AS pos, unaccent(v.lexeme) AS lexeme, true AS written
      FROM x CROSS JOIN LATERAL unnest(to_tsvector(x.config, x.text)) AS v CROSS JOIN LATERAL unnest(v.positions) AS p(pos)
      UNION ALL
      SELECT x.n, p.pos::int, v.lexeme, false
      FROM x CROSS JOIN LATERAL unnest(to_tsvector(x.config, unaccent(x.text))) AS v CROSS JOIN LATERAL unnest(v.positions) AS p(pos)
    ) AS words ORDER BY written DESC`;
  const byText = texts.map(() => new Map<number, Set<string>>());
  // The first rows are the text as written: a word it drops is a stop word ("são"), even when its folded form is not.
  for (const row of rows) {
    const words = byText[row.n - 1]!;
    const variants = words.get(row.pos);
    if (variants) variants.add(row.lexeme);
    else if (row.written) words.set(row.pos, new Set([row.lexeme]));
  }
  return byText.map((words) =>
    [...words]
      .sort((a, b) => a[0] - b[0])
      .map(([, variants]) => [...variants])
      .filter((variants) => !variants.every((variant) => stopWords.has(variant))),
  );
}

/** A stem's prefix term (`deliv*`), which "delivery" and "delivered" share; null for stems too short to have one. */
export function prefixTerm(stem: string): string | null {
  const letters = Array.from(stem);
  return letters.length >= PREFIX_LENGTH ? `${letters.slice(0, PREFIX_LENGTH).join('')}*` : null;
}

/** The terms stored for a text: every word's stems, then their prefixes, in the order the words come. */
export function termsOf(words: Words): string[] {
  const terms = new Set<string>();
  for (const variants of words) {
    for (const stem of variants) terms.add(stem);
    for (const stem of variants) {
      const prefix = prefixTerm(stem);
      if (prefix) terms.add(prefix);
    }
  }
  return [...terms];
}

type Owner = { workspaceId: string; documentId?: string; faqId?: string; language: string };
type Piece = { passage: number; text: string; context: string };

async function store(db: Db, owner: Owner, pieces: Piece[]): Promise<void> {
  const where = owner.documentId ? { document_id: owner.documentId } : { faq_id: owner.faqId! };
  await db.knowledgeSentence.deleteMany({ where });
  if (pieces.length === 0) return;
  const words = await wordsOf(db, [
    ...pieces.map((piece) => ({ text: piece.text, language: owner.language })),
    ...pieces.map((piece) => ({ text: piece.context, language: owner.language })),
  ]);
  const rows = pieces.map((piece, position) => ({
    id: uuidv7(),
    passage: piece.passage,
    position,
    text: piece.text,
    terms: termsOf(words[position]!),
    context_terms: termsOf(words[pieces.length + position]!),
  }));
  await db.$executeRaw`
    INSERT INTO knowledge_sentences (id, company_id, document_id, faq_id, passage, ordinal, text, language, terms, context_terms, folded)
    SELECT x.id, ${owner.workspaceId}::uuid, ${owner.documentId ?? null}::uuid, ${owner.faqId ?? null}::uuid, x.passage, x.position,
      x.text, ${owner.language}, x.terms, x.context_terms, lower(unaccent(x.text))
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x(id uuid, passage int, position int, text text, terms text[], context_terms text[])`;
}

/** Splits the document into its sentences, replacing those it had. Runs in the transaction that writes the document. */
export function indexDocument(db: Db, document: { id: string; company_id: string; title: string; content: string; language: string }) {
  const pieces = splitPassages(document.content).flatMap((passage, index) =>
    splitSentences(passage.text, document.language).map((text) => ({
      passage: index,
      text,
      context: `${document.title}\n${passage.heading}`,
    })),
  );
  return store(db, { workspaceId: document.company_id, documentId: document.id, language: document.language }, pieces);
}

/** Stores the FAQ's question as its one searchable row, replacing the one it had. */
export function indexFaq(db: Db, faq: { id: string; company_id: string; question: string; language: string }) {
  return store(db, { workspaceId: faq.company_id, faqId: faq.id, language: faq.language }, [
    { passage: 0, text: faq.question, context: '' },
  ]);
}

/** Splits the workspace's documents written before documents were split when written (at most a few, once). */
export async function indexUnsplitDocuments(db: Db, workspaceId: string): Promise<void> {
  const documents = await db.knowledgeDocument.findMany({
    where: { company_id: workspaceId, sentences: { none: {} } },
    select: { id: true, company_id: true, title: true, content: true, language: true },
    take: 20,
  });
  for (const document of documents) await indexDocument(db, document);
}

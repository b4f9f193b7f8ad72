// Knowledge passages for the AI agent: the workspace's documents that share a word with the question
// (full text, English stemming, any word: an OR of the question's lexemes), the best of them split into passages
// (paragraphs; a Markdown heading goes with the paragraph under it), each ranked by the share of the question's
// lexemes (stop words dropped) that the passage and its document title hold. That rank is in [0, 1] and reads
// the same in every workspace, which a threshold needs; ts_rank is not bounded and depends on document length.
import type { Db } from '../shared/context.js';

export type Passage = { document_id: string; title: string; text: string; rank: number };

const CANDIDATE_DOCUMENTS = 10;
const MAX_PASSAGE_CHARS = 1500;

type Candidate = { id: string; title: string; content: string };

/** Paragraphs of a document; a heading line is kept with the paragraph below it (for matching), not in its text. */
export function splitPassages(content: string): { heading: string; text: string }[] {
  const passages: { heading: string; text: string }[] = [];
  let heading = '';
  for (const block of content.split(/\n\s*\n/)) {
    const lines = block.trim().split('\n');
    const headingLines = lines.filter((line) => /^#{1,6}\s/.test(line));
    const body = lines
      .filter((line) => !/^#{1,6}\s/.test(line))
      .join('\n')
      .trim();
    if (headingLines.length > 0) heading = headingLines.map((line) => line.replace(/^#{1,6}\s+/, '')).join(' ');
    if (body) passages.push({ heading, text: body.slice(0, MAX_PASSAGE_CHARS) });
  }
  return passages;
}

async function lexemes(db: Db, texts: string[]): Promise<Set<string>[]> {
  if (texts.length === 0) return [];
  const rows = await db.$queryRaw<{ position: bigint; lexemes: string[] }[]>`
    SELECT x.position, tsvector_to_array(to_tsvector('english', x.text)) AS lexemes
    FROM unnest(${texts}::text[]) WITH ORDINALITY AS x(text, position)`;
  const sets: Set<string>[] = texts.map(() => new Set());
  for (const row of rows) sets[Number(row.position) - 1] = new Set(row.lexemes);
  return sets;
}

/** Lexemes already normalized, joined with OR, as tsquery text (cast without a configuration, so not stemmed twice). */
function orQuery(lexemeSet: Set<string>): string {
  return [...lexemeSet].map((lexeme) => `'${lexeme.replace(/'/g, "''")}'`).join(' | ');
}

/** The best `limit` passages of the workspace's documents for the question, best first; [] when none shares a word. */
export async function retrievePassages(db: Db, workspaceId: string, question: string, limit = 3): Promise<Passage[]> {
  const [asked] = await lexemes(db, [question]);
  if (!asked || asked.size === 0) return [];
  const candidates = await db.$queryRaw<Candidate[]>`
    WITH q AS (SELECT ${orQuery(asked)}::tsquery AS query)
    SELECT d.id::text AS id, d.title, d.content
    FROM knowledge_documents d, q
    WHERE d.company_id = ${workspaceId}::uuid AND d.search @@ q.query
    ORDER BY ts_rank(d.search, q.query) DESC, d.id DESC
    LIMIT ${CANDIDATE_DOCUMENTS}`;
  const passages = candidates.flatMap((document) =>
    splitPassages(document.content).map((passage) => ({
      document,
      matchText: `${document.title}\n${passage.heading}\n${passage.text}`,
      text: passage.text,
    })),
  );
  const held = await lexemes(
    db,
    passages.map((passage) => passage.matchText),
  );
  return passages
    .map((passage, index) => {
      const words = held[index] ?? new Set<string>();
      const shared = [...asked].filter((lexeme) => words.has(lexeme)).length;
      return { document_id: passage.document.id, title: passage.document.title, text: passage.text, rank: shared / asked.size };
    })
    .filter((passage) => passage.rank > 0)
    .sort((a, b) => b.rank - a.rank)
    .slice(0, limit);
}

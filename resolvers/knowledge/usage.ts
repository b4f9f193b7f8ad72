// Which documents and FAQs the AI agent answered from, most used first, over a date range: counted from the
// runs that replied (agent_runs.answer_source, indexed by workspace and time): a sentence answer counts for its
// document, an FAQ answer for its FAQ, a model reply for each document it cited. Deleted knowledge keeps its row,
// named as the run recorded it, with a null document or FAQ.
import { z } from 'zod';
import { type Context, requireActor } from '../shared/context.js';
import { dateRange, limit, parseInput } from '../shared/validation.js';

export const MAX_USAGE_DAYS = 366;

const usageInput = z.intersection(dateRange(MAX_USAGE_DAYS), z.object({ limit: limit(20) }));

type Row = { kind: 'document' | 'faq'; id: string; name: string; replies: number; last_used_at: Date };

export async function knowledgeUsage(ctx: Context, input: z.input<typeof usageInput>) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(usageInput, input);
  const rows = await ctx.prisma.$queryRaw<Row[]>`
    WITH used AS (
      SELECT r.created_at, r.answer_source AS source FROM agent_runs r
      WHERE r.company_id = ${workspaceId}::uuid AND r.status = 'replied' AND r.created_at >= ${args.from} AND r.created_at < ${args.to}
    ),
    uses AS (
      SELECT 'document' AS kind, source->>'document_id' AS id, source->>'title' AS name, created_at FROM used WHERE source->>'kind' = 'sentence'
      UNION ALL
      SELECT 'faq', source->>'faq_id', source->>'question', created_at FROM used WHERE source->>'kind' = 'faq'
      UNION ALL
      SELECT 'document', c->>'document_id', c->>'title', created_at
      FROM used CROSS JOIN LATERAL jsonb_array_elements(source->'cited') AS c
      WHERE source->>'kind' = 'model' AND jsonb_typeof(source->'cited') = 'array' AND c->>'document_id' IS NOT NULL
    )
    SELECT kind, id, (array_agg(name ORDER BY created_at DESC))[1] AS name, count(*)::int AS replies, max(created_at) AS last_used_at
    FROM uses GROUP BY kind, id
    ORDER BY replies DESC, last_used_at DESC, id
    LIMIT ${args.limit}`;
  const ids = (kind: Row['kind']) => rows.filter((row) => row.kind === kind).map((row) => row.id);
  const [documents, faqs] = await Promise.all([
    ctx.prisma.knowledgeDocument.findMany({ where: { id: { in: ids('document') }, company_id: workspaceId } }),
    ctx.prisma.knowledgeFaq.findMany({ where: { id: { in: ids('faq') }, company_id: workspaceId } }),
  ]);
  const data = rows.map((row) => ({
    kind: row.kind,
    name: row.name,
    replies: row.replies,
    last_used_at: row.last_used_at,
    document: row.kind === 'document' ? (documents.find((document) => document.id === row.id) ?? null) : null,
    faq: row.kind === 'faq' ? (faqs.find((faq) => faq.id === row.id) ?? null) : null,
  }));
  return { data };
}

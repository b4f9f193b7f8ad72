// Which documents and FAQs the AI agent answered from most, over a date range (from its runs' answer_source).
import { builder } from '../builder.js';
import { limitArg } from '../shared/pageLimit.js';
import { knowledgeUsage, MAX_USAGE_DAYS } from '../../resolvers/knowledge/usage.js';
import { KnowledgeDocument } from './documents.js';
import { KnowledgeFaq } from './faqs.js';

type Usage = Awaited<ReturnType<typeof knowledgeUsage>>['data'][number];

const KnowledgeUsage = builder.objectRef<Usage>('KnowledgeUsage').implement({
  description: 'A document or FAQ the AI agent answered from, with how often.',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'document or faq.' }),
    name: t.exposeString('name', { description: "The document's title or the FAQ's question, as the latest run recorded it." }),
    replies: t.exposeInt('replies', {
      description: 'Replies drawn from it: sentence or FAQ answers, and model replies citing the document.',
    }),
    last_used_at: t.expose('last_used_at', { type: 'DateTime' }),
    document: t.field({
      type: KnowledgeDocument,
      nullable: true,
      description: 'Null for an FAQ or a deleted document.',
      resolve: (usage) => usage.document,
    }),
    faq: t.field({
      type: KnowledgeFaq,
      nullable: true,
      description: 'Null for a document or a deleted FAQ.',
      resolve: (usage) => usage.faq,
    }),
  }),
});

const KnowledgeUsageList = builder.objectRef<{ data: Usage[] }>('KnowledgeUsageList').implement({
  fields: (t) => ({ data: t.field({ type: [KnowledgeUsage], resolve: (list) => list.data }) }),
});

builder.queryFields((t) => ({
  knowledgeUsage: t.field({
    type: KnowledgeUsageList,
    description: `The documents and FAQs the agent's replies in [from, to) (at most ${MAX_USAGE_DAYS} days) were drawn from, most used first.`,
    authScopes: { permission: 'knowledge' },
    args: {
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true }),
      limit: limitArg(t.arg, 20),
    },
    resolve: (_root, args, ctx) => knowledgeUsage(ctx, args),
  }),
}));

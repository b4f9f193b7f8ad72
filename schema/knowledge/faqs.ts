// FAQs for the AI agent: question/answer pairs it matches before the documents and answers with as written.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { pageType } from '../shared/page.js';
import { limitArg } from '../shared/pageLimit.js';
import {
  createKnowledgeFaq,
  deleteKnowledgeFaq,
  getKnowledgeFaq,
  listKnowledgeFaqs,
  MAX_ANSWER_CHARS,
  MAX_QUESTION_CHARS,
  updateKnowledgeFaq,
} from '../../resolvers/knowledge/faqs.js';

const LANGUAGE = 'ISO 639-1 code (en, pt, es, hi…); detected from the question and answer when not given.';

export const KnowledgeFaq = builder.prismaObject('KnowledgeFaq', {
  description: 'A question the business answers in its own words; the AI agent matches FAQs before documents.',
  fields: (t) => ({
    id: t.exposeID('id'),
    question: t.exposeString('question'),
    answer: t.exposeString('answer', { description: 'Sent as written when the question matches.' }),
    language: t.exposeString('language', { description: LANGUAGE }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

const KnowledgeFaqList = pageType('KnowledgeFaqList', KnowledgeFaq);

builder.queryFields((t) => ({
  knowledgeFaqs: t.field({
    type: KnowledgeFaqList,
    description: 'FAQs, newest first. `cursor` is the id of the last FAQ seen.',
    authScopes: { permission: 'knowledge' },
    args: { limit: limitArg(t.arg, 20), cursor: t.arg.id({ required: false }) },
    resolve: (_root, args, ctx, info) =>
      listKnowledgeFaqs(ctx, { ...args, cursor: args.cursor?.toString() }, queryFromInfo({ context: ctx, info, path: ['data'] })),
  }),
  knowledgeFaq: t.prismaField({
    type: KnowledgeFaq,
    authScopes: { permission: 'knowledge' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getKnowledgeFaq(ctx, { id: String(args.id) }, query),
  }),
}));

builder.mutationFields((t) => ({
  knowledgeFaqCreate: t.prismaField({
    type: KnowledgeFaq,
    description: `Adds an FAQ: a question (at most ${MAX_QUESTION_CHARS} characters) and its answer (at most ${MAX_ANSWER_CHARS}).`,
    authScopes: { permission: 'knowledge' },
    args: {
      question: t.arg.string({ required: true }),
      answer: t.arg.string({ required: true }),
      language: t.arg.string({ required: false, description: LANGUAGE }),
    },
    resolve: (query, _root, args, ctx) => createKnowledgeFaq(ctx, args, query),
  }),
  knowledgeFaqUpdate: t.prismaField({
    type: KnowledgeFaq,
    description: 'Changes the question, the answer and/or the language; the agent matches the new question at once.',
    authScopes: { permission: 'knowledge' },
    args: {
      id: t.arg.id({ required: true }),
      question: t.arg.string({ required: false }),
      answer: t.arg.string({ required: false }),
      language: t.arg.string({ required: false, description: LANGUAGE }),
    },
    resolve: (query, _root, args, ctx) => updateKnowledgeFaq(ctx, { ...args, id: String(args.id) }, query),
  }),
  knowledgeFaqDelete: t.prismaField({
    type: KnowledgeFaq,
    description: 'Deletes an FAQ and returns it.',
    authScopes: { permission: 'knowledge' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => deleteKnowledgeFaq(ctx, { id: String(args.id) }, query),
  }),
}));

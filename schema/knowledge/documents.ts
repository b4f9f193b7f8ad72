// Knowledge documents for the AI agent: create from text or from a base64 upload, list, get, update,
// delete, and full-text search with ranks and highlighted snippets.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { pageType } from '../shared/page.js';
import { SUPPORTED_CONTENT_TYPES, MAX_UPLOAD_BYTES } from '../../resolvers/knowledge/documentText.js';
import {
  createKnowledgeDocument,
  deleteKnowledgeDocument,
  getKnowledgeDocument,
  listKnowledgeDocuments,
  MAX_CONTENT_BYTES,
  updateKnowledgeDocument,
  uploadKnowledgeDocument,
} from '../../resolvers/knowledge/knowledge.js';
import { limitArg } from '../shared/pageLimit.js';
import { searchKnowledge } from '../../resolvers/agent/knowledgeSearch.js';
import { KnowledgeFaq } from './faqs.js';

export const KnowledgeDocument = builder.prismaObject('KnowledgeDocument', {
  description: 'A document the AI agent can draw on.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    content: t.exposeString('content', { description: 'Plain text (Markdown kept as written; HTML uploads converted to text).' }),
    source_filename: t.exposeString('source_filename', { nullable: true, description: 'The uploaded file name; null for text.' }),
    source_content_type: t.exposeString('source_content_type', { nullable: true, description: 'The uploaded media type; null for text.' }),
    language: t.exposeString('language', {
      description: "ISO 639-1 code of the document's language: as given, else detected, else the workspace's default_language.",
    }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

const KnowledgeDocumentList = pageType('KnowledgeDocumentList', KnowledgeDocument);

type Search = Awaited<ReturnType<typeof searchKnowledge>>;
const SCORE = 'The agent\'s answer score in [0, 1] (docs/api-decisions.md "Answer score"); it answers at or above `threshold`.';

const KnowledgeSearchResult = builder.objectRef<Search['results'][number]>('KnowledgeSearchResult').implement({
  fields: (t) => ({
    document: t.field({ type: KnowledgeDocument, resolve: (result) => result.document }),
    rank: t.exposeFloat('rank', { description: `The score of the document's best sentence. ${SCORE}` }),
    snippet: t.exposeString('snippet', {
      description: "The document's best one or two sentences, plain text; the question's words are wrapped in ** (never HTML).",
    }),
  }),
});

const KnowledgeSearchSentence = builder.objectRef<Search['sentences'][number]>('KnowledgeSearchSentence').implement({
  description: 'A sentence of a document as the agent ranks it for the question.',
  fields: (t) => ({
    document: t.field({ type: KnowledgeDocument, resolve: (sentence) => sentence.document }),
    text: t.exposeString('text'),
    score: t.exposeFloat('score', { description: SCORE }),
  }),
});

const KnowledgeSearchFaq = builder.objectRef<NonNullable<Search['faq']>>('KnowledgeSearchFaq').implement({
  description: 'The FAQ whose question best matches; the agent answers with it before any document when it scores at the threshold.',
  fields: (t) => ({
    faq: t.field({ type: KnowledgeFaq, resolve: (match) => match.faq }),
    score: t.exposeFloat('score', { description: SCORE }),
  }),
});

const KnowledgeSearch = builder.objectRef<Search>('KnowledgeSearch').implement({
  fields: (t) => ({
    language: t.exposeString('language', {
      description:
        "The question's language (ISO 639-1): detected, else the workspace's default_language; only knowledge in it is searched.",
    }),
    languages: t.exposeStringList('languages', { description: 'The languages the knowledge is written in.' }),
    threshold: t.exposeFloat('threshold', { description: "The workspace's knowledge_threshold: the lowest score the agent answers with." }),
    faq: t.field({ type: KnowledgeSearchFaq, nullable: true, resolve: (search) => search.faq }),
    sentences: t.field({
      type: [KnowledgeSearchSentence],
      description: 'The best sentences, best first (at most `limit`): the first is what the agent answers from when no FAQ wins.',
      resolve: (search) => search.sentences,
    }),
    results: t.field({
      type: [KnowledgeSearchResult],
      description: 'Documents by their best sentence, best first; ties newest first.',
      resolve: (search) => search.results,
    }),
  }),
});

builder.queryFields((t) => ({
  knowledgeDocuments: t.field({
    type: KnowledgeDocumentList,
    description: 'Knowledge documents, newest first. `cursor` is the id of the last document seen.',
    authScopes: { permission: 'knowledge' },
    args: {
      limit: limitArg(t.arg, 20),
      cursor: t.arg.id({ required: false }),
    },
    resolve: (_root, args, ctx, info) =>
      listKnowledgeDocuments(ctx, { ...args, cursor: args.cursor?.toString() }, queryFromInfo({ context: ctx, info, path: ['data'] })),
  }),
  knowledgeDocument: t.prismaField({
    type: KnowledgeDocument,
    authScopes: { permission: 'knowledge' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getKnowledgeDocument(ctx, { id: String(args.id) }, query),
  }),
  knowledgeSearch: t.field({
    type: KnowledgeSearch,
    description:
      "The AI agent's ranking of the knowledge for a question, as a customer would ask it: each sentence and FAQ scored " +
      "as the agent scores them, in the question's language, each document stemmed in its own.",
    authScopes: { permission: 'knowledge' },
    args: {
      q: t.arg.string({ required: true }),
      limit: limitArg(t.arg, 10, 50),
    },
    resolve: (_root, args, ctx) => searchKnowledge(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  knowledgeDocumentCreate: t.prismaField({
    type: KnowledgeDocument,
    description: `Creates a document from text (at most ${MAX_CONTENT_BYTES} bytes of UTF-8).`,
    authScopes: { permission: 'knowledge' },
    args: {
      title: t.arg.string({ required: true }),
      content: t.arg.string({ required: true }),
      language: t.arg.string({ required: false, description: 'ISO 639-1 code (en, pt, es, hi…); detected when not given.' }),
    },
    resolve: (query, _root, args, ctx) => createKnowledgeDocument(ctx, args, query),
  }),
  knowledgeDocumentUpload: t.prismaField({
    type: KnowledgeDocument,
    description:
      `Creates a document from a file given as base64 (at most ${MAX_UPLOAD_BYTES} bytes decoded; its text at most ` +
      `${MAX_CONTENT_BYTES} bytes). content_type: ${SUPPORTED_CONTENT_TYPES.join(', ')}, optionally with a charset.`,
    authScopes: { permission: 'knowledge' },
    args: {
      content_base64: t.arg.string({ required: true }),
      filename: t.arg.string({ required: true }),
      content_type: t.arg.string({ required: true }),
      title: t.arg.string({ required: false, description: 'Defaults to the file name without its extension.' }),
      language: t.arg.string({ required: false, description: 'ISO 639-1 code (en, pt, es, hi…); detected when not given.' }),
    },
    resolve: (query, _root, args, ctx) => uploadKnowledgeDocument(ctx, args, query),
  }),
  knowledgeDocumentUpdate: t.prismaField({
    type: KnowledgeDocument,
    description: 'Changes the title and/or the content; the search index follows at once.',
    authScopes: { permission: 'knowledge' },
    args: {
      id: t.arg.id({ required: true }),
      title: t.arg.string({ required: false }),
      content: t.arg.string({ required: false }),
      language: t.arg.string({
        required: false,
        description: 'ISO 639-1 code (en, pt, es, hi…); detected again when only the content changes.',
      }),
    },
    resolve: (query, _root, args, ctx) => updateKnowledgeDocument(ctx, { ...args, id: String(args.id) }, query),
  }),
  knowledgeDocumentDelete: t.prismaField({
    type: KnowledgeDocument,
    description: 'Deletes a document and returns it.',
    authScopes: { permission: 'knowledge' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => deleteKnowledgeDocument(ctx, { id: String(args.id) }, query),
  }),
}));

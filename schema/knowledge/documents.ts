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
  searchKnowledge,
  updateKnowledgeDocument,
  uploadKnowledgeDocument,
} from '../../resolvers/knowledge/knowledge.js';
import { limitArg } from '../shared/pageLimit.js';

const KnowledgeDocument = builder.prismaObject('KnowledgeDocument', {
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

type Result = Awaited<ReturnType<typeof searchKnowledge>>['results'][number];

const KnowledgeSearchResult = builder.objectRef<Result>('KnowledgeSearchResult').implement({
  fields: (t) => ({
    document: t.field({ type: KnowledgeDocument, resolve: (result) => result.document }),
    rank: t.exposeFloat('rank', { description: 'ts_rank of the match; title matches weigh more than content matches.' }),
    snippet: t.exposeString('snippet', { description: 'Plain-text excerpt; matched words are wrapped in ** (never HTML).' }),
  }),
});

const KnowledgeSearch = builder.objectRef<{ results: Result[] }>('KnowledgeSearch').implement({
  fields: (t) => ({ results: t.field({ type: [KnowledgeSearchResult], resolve: (search) => search.results }) }),
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
      'Full-text search (English stemming) over titles and contents, best match first. q takes web-search syntax: ' +
      '"quoted phrases", OR, -excluded.',
    authScopes: { permission: 'knowledge' },
    args: {
      q: t.arg.string({ required: true }),
      limit: limitArg(t.arg, 10, 50),
    },
    resolve: (_root, args, ctx, info) => searchKnowledge(ctx, args, queryFromInfo({ context: ctx, info, path: ['results', 'document'] })),
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

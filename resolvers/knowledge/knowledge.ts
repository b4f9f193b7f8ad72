// Knowledge documents for the AI agent, within the caller's workspace: create from text or from an upload,
// list, get, update, delete (the search is the agent's ranking: resolvers/agent/knowledgeSearch.ts). Every write splits the
// document into its sentences for the AI agent (sentences.ts) in the same transaction; a document's language is
// the one given, else the one detected in it, else the workspace's default (agentSettings.default_language).
import { z } from 'zod';
import { basename } from 'node:path';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { extractText } from './documentText.js';
import { DEFAULT_LANGUAGE, detectLanguage, languageCode } from './language.js';
import { indexDocument } from './sentences.js';
import { columnPage } from '../shared/pagination.js';
import { idInput, limit, parseInput, uuid } from '../shared/validation.js';

type Query = { select?: Prisma.KnowledgeDocumentSelect; include?: Prisma.KnowledgeDocumentInclude };

export const MAX_CONTENT_BYTES = 256 * 1024;

// PostgreSQL text cannot hold NUL characters.
const noNul = (text: string) => !text.includes('\u0000');
const title = z
  .string()
  .trim()
  .min(1, { message: 'is required' })
  .max(300, { message: 'must be at most 300 characters' })
  .refine(noNul, { message: 'must not contain NUL characters' });
const content = z.string().trim().min(1, { message: 'must not be empty' }).refine(noNul, { message: 'must not contain NUL characters' });

const language = languageCode.nullish();
const createInput = z.object({ title, content, language });
const updateInput = z.object({ id: uuid, title: title.nullish(), content: content.nullish(), language });
const uploadInput = z.object({
  title: title.nullish(),
  language,
  content_base64: z.string({ message: 'is required' }),
  filename: z
    .string({ message: 'is required' })
    .transform((name) => basename(name.replace(/\\/g, '/')).trim())
    .pipe(
      z
        .string()
        .min(1, { message: 'is required' })
        .max(255, { message: 'must be at most 255 characters' })
        .refine(noNul, { message: 'must not contain NUL characters' }),
    ),
  content_type: z.string({ message: 'is required' }).min(1, { message: 'is required' }).max(200),
});
const listInput = z.object({ limit: limit(20), cursor: uuid.nullish() });
function assertContentSize(text: string, field: string) {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_CONTENT_BYTES) {
    throw new DomainError('PAYLOAD_TOO_LARGE', `The document text exceeds ${MAX_CONTENT_BYTES} bytes`, {
      [field]: `must be at most ${MAX_CONTENT_BYTES} bytes of UTF-8 text (is ${bytes})`,
    });
  }
}

async function findDocument(ctx: Context, id: string, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const document = await ctx.prisma.knowledgeDocument.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!document) throw notFound('Knowledge document');
  return document;
}

/** The language given, else the one the text is written in, else the workspace's default. */
export async function languageOf(ctx: Context, given: string | null | undefined, text: string): Promise<string> {
  if (given) return given;
  const detected = detectLanguage(text);
  if (detected) return detected;
  const settings = await ctx.prisma.agentSettings.findUnique({
    where: { company_id: requireActor(ctx).workspaceId },
    select: { default_language: true },
  });
  return settings?.default_language ?? DEFAULT_LANGUAGE;
}

type DocumentData = Omit<Prisma.KnowledgeDocumentUncheckedCreateInput, 'company_id'>;

/** Writes the document and its sentences in one transaction, then reads it back as the query asks. */
async function writeDocument(ctx: Context, query: Query, write: (tx: Db, workspaceId: string) => Promise<{ id: string }>) {
  const { workspaceId } = requireActor(ctx);
  const { id } = await ctx.prisma.$transaction(async (tx) => {
    const written = await write(tx, workspaceId);
    const document = await tx.knowledgeDocument.findUniqueOrThrow({
      where: { id: written.id },
      select: { id: true, company_id: true, title: true, content: true, language: true },
    });
    await indexDocument(tx, document);
    return document;
  });
  return ctx.prisma.knowledgeDocument.findUniqueOrThrow({ ...query, where: { id } });
}

function createDocument(ctx: Context, data: DocumentData, query: Query) {
  return writeDocument(ctx, query, (tx, workspaceId) =>
    tx.knowledgeDocument.create({ data: { ...data, company_id: workspaceId }, select: { id: true } }),
  );
}

export async function createKnowledgeDocument(ctx: Context, input: z.input<typeof createInput>, query: Query = {}) {
  const args = parseInput(createInput, input);
  assertContentSize(args.content, 'content');
  return createDocument(ctx, { ...args, language: await languageOf(ctx, args.language, `${args.title}\n${args.content}`) }, query);
}

/** A document from a base64 upload; the title defaults to the file name without its extension. */
export async function uploadKnowledgeDocument(ctx: Context, input: z.input<typeof uploadInput>, query: Query = {}) {
  requireActor(ctx);
  const args = parseInput(uploadInput, input);
  const { text, mediaType } = extractText(args);
  if (!text) throw new DomainError('VALIDATION_ERROR', 'The file has no text', { content_base64: 'contains no text' });
  if (!noNul(text)) throw new DomainError('VALIDATION_ERROR', 'The file is not text', { content_base64: 'contains NUL characters' });
  assertContentSize(text, 'content_base64');
  return createDocument(
    ctx,
    {
      title: args.title ?? (args.filename.replace(/\.[^.]+$/, '') || args.filename),
      content: text,
      language: await languageOf(ctx, args.language, text),
      source_filename: args.filename,
      source_content_type: mediaType,
    },
    query,
  );
}

export async function listKnowledgeDocuments(ctx: Context, input: z.input<typeof listInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  return columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    ctx.prisma.knowledgeDocument.findMany({ ...query, where: { company_id: workspaceId, ...after }, orderBy, take }),
  );
}

export function getKnowledgeDocument(ctx: Context, input: { id: string }, query: Query = {}) {
  const { id } = parseInput(idInput, input);
  return findDocument(ctx, id, query);
}

export async function updateKnowledgeDocument(ctx: Context, input: z.input<typeof updateInput>, query: Query = {}) {
  const { id, ...changes } = parseInput(updateInput, input);
  if (changes.content) assertContentSize(changes.content, 'content');
  const current = await findDocument(ctx, id, { select: { id: true, title: true, content: true } });
  // New text without a language given is detected again; the language alone may be changed too.
  const language =
    changes.language ?? (changes.content ? await languageOf(ctx, null, `${changes.title ?? current.title}\n${changes.content}`) : null);
  return writeDocument(ctx, query, (tx) =>
    tx.knowledgeDocument.update({
      where: { id },
      data: {
        ...(changes.title ? { title: changes.title } : {}),
        ...(changes.content ? { content: changes.content } : {}),
        ...(language ? { language } : {}),
      },
      select: { id: true },
    }),
  );
}

export async function deleteKnowledgeDocument(ctx: Context, input: { id: string }, query: Query = {}) {
  const { id } = parseInput(idInput, input);
  const document = await findDocument(ctx, id, query);
  await ctx.prisma.knowledgeDocument.delete({ where: { id } });
  return document;
}

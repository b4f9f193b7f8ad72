// FAQs: questions the business answers in its own words, within the caller's workspace: create, list, get, update,
// delete. The AI agent matches the customer's question against the FAQs' questions before the documents and
// replies with the answer as written. Each write stores the question's search terms (sentences.ts) in the same
// transaction; the language is the one given, else the one detected, else the workspace's default.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { columnPage } from '../shared/pagination.js';
import { idInput, limit, parseInput, uuid } from '../shared/validation.js';
import { languageCode } from './language.js';
import { languageOf } from './knowledge.js';
import { indexFaq } from './sentences.js';

type Query = { select?: Prisma.KnowledgeFaqSelect; include?: Prisma.KnowledgeFaqInclude };

export const MAX_QUESTION_CHARS = 500;
export const MAX_ANSWER_CHARS = 2000;

const noNul = (text: string) => !text.includes('\u0000');
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: 'is required' })
    .max(max, { message: `must be at most ${max} characters` })
    .refine(noNul, { message: 'must not contain NUL characters' });

const createInput = z.object({ question: text(MAX_QUESTION_CHARS), answer: text(MAX_ANSWER_CHARS), language: languageCode.nullish() });
const updateInput = z.object({
  id: uuid,
  question: text(MAX_QUESTION_CHARS).nullish(),
  answer: text(MAX_ANSWER_CHARS).nullish(),
  language: languageCode.nullish(),
});
const listInput = z.object({ limit: limit(20), cursor: uuid.nullish() });

async function findFaq(ctx: Context, id: string, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const faq = await ctx.prisma.knowledgeFaq.findFirst({ ...query, where: { id, company_id: workspaceId } });
  if (!faq) throw notFound('FAQ');
  return faq;
}

export async function createKnowledgeFaq(ctx: Context, input: z.input<typeof createInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(createInput, input);
  const language = await languageOf(ctx, args.language, `${args.question}\n${args.answer}`);
  const { id } = await ctx.prisma.$transaction(async (tx) => {
    const faq = await tx.knowledgeFaq.create({ data: { ...args, language, company_id: workspaceId } });
    await indexFaq(tx, faq);
    return faq;
  });
  return ctx.prisma.knowledgeFaq.findUniqueOrThrow({ ...query, where: { id } });
}

export async function listKnowledgeFaqs(ctx: Context, input: z.input<typeof listInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  return columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    ctx.prisma.knowledgeFaq.findMany({ ...query, where: { company_id: workspaceId, ...after }, orderBy, take }),
  );
}

export function getKnowledgeFaq(ctx: Context, input: { id: string }, query: Query = {}) {
  const { id } = parseInput(idInput, input);
  return findFaq(ctx, id, query);
}

export async function updateKnowledgeFaq(ctx: Context, input: z.input<typeof updateInput>, query: Query = {}) {
  const { id, ...changes } = parseInput(updateInput, input);
  const current = await findFaq(ctx, id);
  const question = changes.question ?? current.question;
  const answer = changes.answer ?? current.answer;
  // New words without a language given are detected again.
  const language =
    changes.language ?? (changes.question || changes.answer ? await languageOf(ctx, null, `${question}\n${answer}`) : current.language);
  await ctx.prisma.$transaction(async (tx) => {
    const faq = await tx.knowledgeFaq.update({ where: { id }, data: { question, answer, language } });
    await indexFaq(tx, faq);
  });
  return ctx.prisma.knowledgeFaq.findUniqueOrThrow({ ...query, where: { id } });
}

export async function deleteKnowledgeFaq(ctx: Context, input: { id: string }, query: Query = {}) {
  const { id } = parseInput(idInput, input);
  const faq = await findFaq(ctx, id, query);
  await ctx.prisma.knowledgeFaq.delete({ where: { id } });
  return faq;
}

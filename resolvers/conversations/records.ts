// Notes and summaries of a conversation: free texts kept with it, listed newest first, written and
// removed by anyone of the workspace with the conversations scope. The two kinds behave alike, so one set
// of functions serves both; a note also records the user behind the API key that wrote it.
import { z } from 'zod';
import type { Context, Db } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { columnPage, type ColumnWindow } from '../shared/pagination.js';
import { idInput, limit, parseInput, uuid } from '../shared/validation.js';

export type RecordKind = 'note' | 'summary';

export type RecordRow = {
  id: string;
  conversation_id: string;
  body: string;
  created_at: Date;
  updated_at: Date;
  author_user_id?: string | null;
};
type Where = { id?: string | ColumnWindow<'id'>['after']['id']; company_id: string; conversation_id?: string };

/** What the functions below need of Prisma's Note and Summary models, which both provide it. */
type RecordStore = {
  findMany(args: { where: Where; orderBy: ColumnWindow<'id'>['orderBy']; take: number }): Promise<RecordRow[]>;
  findFirst(args: { where: Where; select: { id: true } }): Promise<{ id: string } | null>;
  create(args: { data: { company_id: string; conversation_id: string; body: string; author_user_id?: string | null } }): Promise<RecordRow>;
  update(args: { where: { id: string }; data: { body: string } }): Promise<RecordRow>;
  delete(args: { where: { id: string } }): Promise<unknown>;
};

const KINDS: Record<RecordKind, { label: string; store: (db: Db) => RecordStore; authored: boolean }> = {
  note: { label: 'Note', store: (db) => db.note, authored: true },
  summary: { label: 'Summary', store: (db) => db.summary, authored: false },
};

export const MAX_RECORD_LENGTH = 20_000;

const body = z
  .string({ message: 'is required' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(MAX_RECORD_LENGTH, { message: `must be at most ${MAX_RECORD_LENGTH} characters` });

const listInput = z.object({ conversation_id: uuid, limit: limit(50), cursor: uuid.nullish() });
const createInput = z.object({ conversation_id: uuid, body });
const updateInput = z.object({ id: uuid, body });

async function requireConversation(ctx: Context, workspaceId: string, conversationId: string) {
  const found = await ctx.prisma.conversation.findFirst({ where: { id: conversationId, company_id: workspaceId }, select: { id: true } });
  if (!found) throw notFound('Conversation');
}

async function requireRecord(ctx: Context, kind: RecordKind, workspaceId: string, id: string) {
  const found = await KINDS[kind].store(ctx.prisma).findFirst({ where: { id, company_id: workspaceId }, select: { id: true } });
  if (!found) throw notFound(KINDS[kind].label);
}

export async function listRecords(ctx: Context, kind: RecordKind, input: z.input<typeof listInput>) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  await requireConversation(ctx, workspaceId, args.conversation_id);
  return columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    KINDS[kind]
      .store(ctx.prisma)
      .findMany({ where: { company_id: workspaceId, conversation_id: args.conversation_id, ...after }, orderBy, take }),
  );
}

export async function createRecord(ctx: Context, kind: RecordKind, input: z.input<typeof createInput>) {
  const actor = requireActor(ctx);
  const args = parseInput(createInput, input);
  await requireConversation(ctx, actor.workspaceId, args.conversation_id);
  return KINDS[kind].store(ctx.prisma).create({
    data: {
      company_id: actor.workspaceId,
      conversation_id: args.conversation_id,
      body: args.body,
      ...(KINDS[kind].authored ? { author_user_id: actor.userId } : {}),
    },
  });
}

export async function updateRecord(ctx: Context, kind: RecordKind, input: z.input<typeof updateInput>) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(updateInput, input);
  await requireRecord(ctx, kind, workspaceId, args.id);
  return KINDS[kind].store(ctx.prisma).update({ where: { id: args.id }, data: { body: args.body } });
}

export async function deleteRecord(ctx: Context, kind: RecordKind, input: { id: string }) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  await requireRecord(ctx, kind, workspaceId, id);
  await KINDS[kind].store(ctx.prisma).delete({ where: { id } });
  return { id, deleted: true };
}

// Notes and summaries of a conversation: one type, list query and create/update/delete mutations per kind,
// made by the same function so that the two stay alike.
import { builder } from '../builder.js';
import { DeleteResult } from '../shared/deleteResult.js';
import { pageType } from '../shared/page.js';
import {
  createRecord,
  deleteRecord,
  listRecords,
  type RecordKind,
  type RecordRow,
  updateRecord,
} from '../../resolvers/conversations/records.js';
import { limitArg } from '../shared/pageLimit.js';

type Names = { type: string; list: string; create: string; update: string; delete: string };

function conversationRecord(kind: RecordKind, names: Names, description: string) {
  const RecordType = builder.objectRef<RecordRow>(names.type).implement({
    description,
    fields: (t) => ({
      id: t.exposeID('id'),
      conversation_id: t.exposeID('conversation_id'),
      ...(kind === 'note'
        ? {
            author_user_id: t.exposeID('author_user_id', {
              nullable: true,
              description: 'The user behind the API key that wrote the note.',
            }),
          }
        : {}),
      body: t.exposeString('body'),
      created_at: t.expose('created_at', { type: 'DateTime' }),
      updated_at: t.expose('updated_at', { type: 'DateTime' }),
    }),
  });
  const List = pageType(`${names.type}List`, RecordType);

  builder.queryField(names.list, (t) =>
    t.field({
      type: List,
      description: `The ${kind === 'note' ? 'notes' : 'summaries'} of a conversation, newest first. \`cursor\` is the id of the last one seen.`,
      authScopes: { permission: 'conversations' },
      args: {
        conversation_id: t.arg.id({ required: true }),
        limit: limitArg(t.arg, 50),
        cursor: t.arg.id({ required: false }),
      },
      resolve: (_root, args, ctx) => listRecords(ctx, kind, args),
    }),
  );

  builder.mutationFields((t) => ({
    [names.create]: t.field({
      type: RecordType,
      description: `Adds a ${kind} to a conversation.`,
      authScopes: { permission: 'conversations' },
      args: { conversation_id: t.arg.id({ required: true }), body: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => createRecord(ctx, kind, args),
    }),
    [names.update]: t.field({
      type: RecordType,
      description: `Replaces the body of a ${kind}.`,
      authScopes: { permission: 'conversations' },
      args: { id: t.arg.id({ required: true }), body: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => updateRecord(ctx, kind, args),
    }),
    [names.delete]: t.field({
      type: DeleteResult,
      description: `Deletes a ${kind}.`,
      authScopes: { permission: 'conversations' },
      args: { id: t.arg.id({ required: true }) },
      resolve: (_root, args, ctx) => deleteRecord(ctx, kind, { id: String(args.id) }),
    }),
  }));
}

conversationRecord(
  'note',
  {
    type: 'Note',
    list: 'conversationNotes',
    create: 'conversationNoteCreate',
    update: 'conversationNoteUpdate',
    delete: 'conversationNoteDelete',
  },
  'An internal note on a conversation, for the team; never sent to the contact.',
);
conversationRecord(
  'summary',
  {
    type: 'Summary',
    list: 'conversationSummaries',
    create: 'conversationSummaryCreate',
    update: 'conversationSummaryUpdate',
    delete: 'conversationSummaryDelete',
  },
  'A summary of a conversation, for example written by the AI agent or a team member.',
);

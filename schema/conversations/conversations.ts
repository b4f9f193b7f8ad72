import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { Conversation as ConversationModel } from '../../prisma/generated/prisma/client.js';
import type { ConversationRow } from '../../resolvers/conversations/rows.js';
import { builder } from '../builder.js';
import { readState, UNREAD_COUNT_CAP } from '../../resolvers/conversations/reads.js';
import {
  CONVERSATION_STATUSES,
  getConversation,
  listConversations,
  searchConversations,
} from '../../resolvers/conversations/conversations.js';
import { pageType } from '../shared/page.js';
import { Customer } from '../contacts/contacts.js';
import { limitArg } from '../shared/pageLimit.js';
import { oneOf } from '../shared/jsonSchemaHints.js';

// The fields read through Prisma's selections; the columns are added below for both sources. The contact is loaded
// with every conversation (the type's include, and the list's statement), so it is read from the row: as a relation
// field it looked up its loader mapping for each row of a page.
export const Conversation = builder.prismaObject('Conversation', {
  description: 'A conversation between the workspace and one contact over the messaging provider.',
  include: { customer: true },
  fields: (t) => ({
    customer: t.field({ type: Customer, resolve: (conversation) => conversation.customer }),
    unread_count: t.int({
      description: `Inbound messages after the asking person's last_read_at (a key's creator's), counted up to ${UNREAD_COUNT_CAP}.`,
      select: { id: true },
      resolve: async (conversation, _args, ctx) => (await readState(ctx, conversation.id)).unread_count,
    }),
    last_read_at: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the asking person last marked this conversation read (conversationMarkRead); null if never.',
      select: { id: true },
      resolve: async (conversation, _args, ctx) => (await readState(ctx, conversation.id)).last_read_at,
    }),
  }),
});

/** A conversation from either source: the list's written statement (ConversationRow, timestamps as ISO text) or Prisma. */
type AnyConversation = { [Column in keyof ConversationModel]: ConversationModel[Column] | ConversationRow[Column] };
const anyConversation: ObjectRef<typeof builder.$inferSchemaTypes, AnyConversation> = Conversation;

builder.objectFields(anyConversation, (t) => ({
  id: t.exposeID('id'),
  company_id: t.exposeID('company_id'),
  customer_id: t.exposeID('customer_id'),
  agent_id: t.exposeID('agent_id', { nullable: true }),
  integration_id: t.exposeID('integration_id', { nullable: true }),
  session_id: t.exposeString('session_id', { nullable: true }),
  provider: t.exposeString('provider', { description: 'Name of the messaging provider.' }),
  status: t.exposeString('status', oneOf(CONVERSATION_STATUSES)),
  service_enabled: t.exposeBoolean('service_enabled', { description: 'Whether the AI agent is active on this conversation.' }),
  assigned_user_id: t.exposeID('assigned_user_id', { nullable: true }),
  details: t.expose('details', { type: 'JSON', nullable: true }),
  last_message_at: t.expose('last_message_at', {
    type: 'DateTime',
    nullable: true,
    description: "Time of the contact's last inbound message; free-form replies are allowed for 24 hours after it.",
  }),
  external_conversation_id: t.exposeString('external_conversation_id', { nullable: true }),
  created_at: t.expose('created_at', { type: 'DateTime' }),
  updated_at: t.expose('updated_at', { type: 'DateTime' }),
}));

const ConversationList = pageType('ConversationList', anyConversation);

builder.queryFields((t) => ({
  conversations: t.field({
    type: ConversationList,
    description: 'Conversations by latest inbound message, newest first; those without messages come last.',
    authScopes: { permission: 'conversations' },
    args: {
      status: t.arg.string({
        required: false,
        ...oneOf(['active', 'closed', 'pending'], { note: '(open is accepted for active)', alsoAccepted: ['open'] }),
      }),
      limit: limitArg(t.arg, 20),
      before: t.arg.string({ required: false, description: 'An ISO 8601 date-time, or the next_cursor of the previous page.' }),
      assigned_user_id: t.arg.id({ required: false }),
      customer_id: t.arg.id({ required: false, description: "Only this contact's conversations." }),
    },
    resolve: (_root, args, ctx, info) =>
      listConversations(
        ctx,
        { ...args, assigned_user_id: args.assigned_user_id?.toString(), customer_id: args.customer_id?.toString() },
        queryFromInfo({ context: ctx, info, path: ['data'] }),
      ),
  }),
  conversationSearch: t.field({
    type: ConversationList,
    description:
      "Conversations whose contact's name, phone number or email, or any of whose messages, contains q; ordered and paged as the list.",
    authScopes: { permission: 'conversations' },
    args: {
      q: t.arg.string({ required: true }),
      limit: limitArg(t.arg, 20),
      before: t.arg.string({ required: false, description: 'An ISO 8601 date-time, or the next_cursor of the previous page.' }),
    },
    resolve: (_root, args, ctx, info) => searchConversations(ctx, args, queryFromInfo({ context: ctx, info, path: ['data'] })),
  }),
  conversation: t.prismaField({
    type: Conversation,
    description: 'One conversation of the workspace.',
    authScopes: { permission: 'conversations' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getConversation(ctx, { id: String(args.id) }, query),
  }),
}));

// Changing a conversation: assignee, AI agent switch and details; closing and reopening it.
import { builder } from '../builder.js';
import { markConversationRead } from '../../resolvers/conversations/reads.js';
import { Conversation } from './conversations.js';
import { transitionConversation, updateConversation } from '../../resolvers/conversations/changes.js';
import { CONVERSATION_TRANSITIONS } from '../../resolvers/conversations/status.js';

const { close, reopen } = CONVERSATION_TRANSITIONS;

builder.mutationFields((t) => ({
  conversationUpdate: t.prismaField({
    type: Conversation,
    description: 'Changes the given fields of a conversation; an omitted field stays.',
    authScopes: { permission: 'conversations' },
    args: {
      id: t.arg.id({ required: true }),
      assigned_user_id: t.arg.id({ required: false, description: 'A user of the workspace; null unassigns.' }),
      service_enabled: t.arg.boolean({ required: false, description: 'Whether the AI agent is active on this conversation.' }),
      details: t.arg({ type: 'JSON', required: false, description: 'A free-form object; replaces the stored one; null clears it.' }),
    },
    resolve: (query, _root, args, ctx) => updateConversation(ctx, args, query),
  }),
  conversationClose: t.prismaField({
    type: Conversation,
    description: `Closes a conversation (allowed from ${close.from.join(' or ')}).`,
    authScopes: { permission: 'conversations' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => transitionConversation(ctx, 'close', { id: String(args.id) }, query),
  }),
  conversationReopen: t.prismaField({
    type: Conversation,
    description: `Reopens a closed conversation; its status becomes ${reopen.to}.`,
    authScopes: { permission: 'conversations' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => transitionConversation(ctx, 'reopen', { id: String(args.id) }, query),
  }),
  conversationMarkRead: t.prismaField({
    type: Conversation,
    description: "Marks the conversation read up to now for the asking person (a key's creator): its unread_count becomes 0.",
    authScopes: { permission: 'conversations' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => markConversationRead(ctx, String(args.id), query),
  }),
}));

// What a conversation says and whether it can be answered freely: Conversation.messages (paged both ways),
// Conversation.last_message (joined into the conversation's own query, so a page of conversations with their
// last messages costs no query per conversation) and Conversation.messaging_window (the 24-hour rule as data).
import { builder } from '../builder.js';
import { MessageDetail, MessageDetailList } from './messageDetail.js';
import { listConversationMessages } from '../../resolvers/messaging/transcripts.js';
import { messagingWindow, type MessagingWindow } from '../../resolvers/messaging/window.js';
import { messageDetailSelect } from '../../resolvers/shared/views.js';
import { limitArg } from '../shared/pageLimit.js';

const MessagingWindowType = builder.objectRef<MessagingWindow>('MessagingWindow').implement({
  description: "Whether a free-form message may be sent now: only within 24 hours of the contact's last inbound message.",
  fields: (t) => ({
    open: t.exposeBoolean('open', { description: 'True while free text is allowed; outside it only an approved template may be sent.' }),
    closes_at: t.expose('closes_at', {
      type: 'DateTime',
      nullable: true,
      description: 'When the window closes (or closed); null when the contact never wrote.',
    }),
  }),
});

builder.prismaObjectFields('Conversation', (t) => ({
  messages: t.field({
    type: MessageDetailList,
    description: 'The messages, newest first. `before` (a message id) pages to older messages, `after` to newer ones.',
    args: {
      limit: limitArg(t.arg, 50),
      before: t.arg.id({ required: false }),
      after: t.arg.id({ required: false }),
    },
    select: { id: true },
    resolve: (conversation, args, ctx) =>
      listConversationMessages(ctx, {
        conversation_id: conversation.id,
        limit: args.limit,
        before: args.before?.toString(),
        after: args.after?.toString(),
      }),
  }),
  last_message: t.field({
    type: MessageDetail,
    nullable: true,
    description: 'The most recently recorded message, inbound or outbound; null when there is none.',
    select: { messages: { select: messageDetailSelect, orderBy: { id: 'desc' }, take: 1 } },
    resolve: (conversation) => conversation.messages[0] ?? null,
  }),
  messaging_window: t.field({
    type: MessagingWindowType,
    select: { last_message_at: true, window_closed_at: true },
    resolve: (conversation) => messagingWindow(conversation, Date.now()),
  }),
}));

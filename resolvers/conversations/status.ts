// The one rule set for conversation status transitions, shared by every facade and by anything else that
// changes a conversation's status: an action is allowed only from the statuses listed for it.
import type { CONVERSATION_STATUSES } from './conversations.js';

export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const CONVERSATION_TRANSITIONS = {
  close: { from: ['active', 'pending'], to: 'closed' },
  reopen: { from: ['closed'], to: 'active' },
} as const satisfies Record<string, { from: readonly ConversationStatus[]; to: ConversationStatus }>;

export type ConversationAction = keyof typeof CONVERSATION_TRANSITIONS;

// The status moves of outbound messages, which the context applies (resolvers/messaging/statusMoves.ts builds the
// applier; resolvers/messaging/messageStatus.ts says what a move does).
import type { MessageView } from './views.js';
import type { MessagePricing } from '../../adapters/providers/types.js';

export const OUTBOUND_STATUSES = ['pending', 'sent', 'failed', 'delivered', 'read'] as const;
export type OutboundStatus = (typeof OUTBOUND_STATUSES)[number];

/** Why a message failed: the provider's code, its short title and, when it gave them, its details. */
export type Failure = { error_code: string; error_title: string; error_details?: string | null };
/** What a move records on the way: a failure, the provider's id for the message, and what the message costs. */
export type MoveRecord = Partial<Failure> & { provider_message_id?: string; pricing?: MessagePricing | null };

/**
 * The message a status move is for: by our id, or as a provider's report names it (its id for the message, or,
 * while our own send has not yet recorded that id, the reference we gave it: our message id).
 */
export type MessageTarget = { id: string } | { providerMessageId: string; reference: string | null };

/** One status move: the message, the statuses it may move from, where it moves, and what it records on the way. */
export type StatusMove = { target: MessageTarget; from: OutboundStatus[]; status: OutboundStatus; extra: MoveRecord };

export type StatusMoves = {
  /** Applies the move with the others that arrive with it; answers the message as moved, or null (moveMessages). */
  move(workspaceId: string, move: StatusMove): Promise<MessageView | null>;
};

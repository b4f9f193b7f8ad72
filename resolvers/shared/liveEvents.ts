// The shapes of the event feed and of live updates, which the context carries (resolvers/events builds them).
import type { MessageDetailRow } from './views.js';

/** Where an event sits in the feed: its recording transaction's id, then its id (resolvers/events/feed.ts). */
export type FeedPosition = { txId: bigint; id: string };

/** An event as the feed and live updates carry it: the webhook envelope as stored, and its position. */
export type FeedEvent = {
  envelope: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  position: FeedPosition;
};

export type LiveSubscription = { types: readonly string[]; conversationId: string | null; after: string | null };

export type EventHub = {
  /** The workspace's events of these types (of one conversation when given) from now, or after the event `after`. */
  subscribe(workspaceId: string, subscription: LiveSubscription): Promise<AsyncIterable<FeedEvent>>;
  /** The message an event is about, as it is now; read once per event however many subscribers ask. */
  messageOf(workspaceId: string, event: FeedEvent): Promise<MessageDetailRow | null>;
  subscriberCount(): number;
  close(): Promise<void>;
};

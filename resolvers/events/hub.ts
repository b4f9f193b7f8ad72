// The event hub: the one place that turns committed outbox events into live updates. Each process listens on
// the database's `crm_events` channel (NOTIFY at commit, from the trigger of migration 0011, whichever
// instance committed); on a notice for a workspace someone here follows, it reads that workspace's new
// events once through the feed (feed.ts) and hands each to the workspace's subscribers. A subscriber only
// ever joins its own workspace's room, so it never sees another workspace's events.
// A subscriber that gives the id of the last event it saw first gets what followed it from the feed, then the
// live events after it: none missed, none twice. A subscriber that falls more than MAX_QUEUED events behind
// is ended rather than let its queue grow; it reconnects with its last event id.
// LIVE_SOURCES names, per subscription, the event types that feed it: a new event type joins by name there.
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { EVENT_TYPES, type EventType } from '../shared/outbox.js';
import { messageDetailSelect, type MessageDetailRow } from '../shared/views.js';
import { feedHead, isAfter, positionOf, readEvents } from './feed.js';
import type { EventHub, FeedEvent, FeedPosition, LiveSubscription } from '../shared/liveEvents.js';

export const LIVE_SOURCES = {
  messageCreated: ['message.received', 'message.created'],
  messageStatusChanged: ['message.status'],
  conversationChanged: ['message.received', 'message.created', 'message.status', 'conversation.updated', 'conversation.handoff'],
  templateStatusChanged: ['template.status'],
} as const satisfies Record<string, readonly EventType[]>;
export type LiveField = keyof typeof LIVE_SOURCES;

export const EVENTS_CHANNEL = 'crm_events';
const BATCH = 500;
const MAX_QUEUED = 1000;

/** LISTEN on a channel (infra/db/notifications.ts); `null` means notices may have been missed. */
export type Listen = (channel: string, listener: (payload: string | null) => void) => Promise<() => Promise<void>>;

/** The conversation an event is about, when its data names one. */
export function conversationIdOf(event: FeedEvent): string | null {
  const data = event.envelope.data as {
    conversation?: { id?: unknown };
    message?: { conversation_id?: unknown };
    conversation_id?: unknown;
  };
  const id = data.conversation?.id ?? data.message?.conversation_id ?? data.conversation_id;
  return typeof id === 'string' ? id : null;
}

/** Events pushed by the room, pulled by one subscriber's iterator. */
class Inbox {
  private readonly queued: FeedEvent[] = [];
  private waiting: (() => void) | null = null;
  ended = false;

  push(event: FeedEvent): void {
    if (this.queued.length >= MAX_QUEUED) return this.end();
    this.queued.push(event);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }

  async *events(): AsyncGenerator<FeedEvent> {
    for (;;) {
      const next = this.queued.shift();
      if (next) yield next;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

type Room = { ready: Promise<void>; cursor: FeedPosition | null; inboxes: Set<Inbox>; pumping: Promise<void> | null; again: boolean };

export function createEventHub(options: { prisma: PrismaClient; listen: Listen; onError: (error: unknown) => void }): EventHub {
  const { prisma } = options;
  const rooms = new Map<string, Room>();
  const messages = new LRUCache<string, Promise<MessageDetailRow | null>>({ max: 2000 });
  let listening: Promise<() => Promise<void>> | null = null;
  let closed = false;

  function hear(payload: string | null): void {
    if (payload === null) for (const workspaceId of rooms.keys()) wake(workspaceId);
    else wake(payload);
  }

  async function pump(workspaceId: string, room: Room): Promise<void> {
    await room.ready;
    while (room.again && !closed) {
      room.again = false;
      for (;;) {
        const events = await readEvents(prisma, workspaceId, room.cursor, BATCH, EVENT_TYPES);
        for (const event of events) {
          room.cursor = event.position;
          for (const inbox of room.inboxes) inbox.push(event);
        }
        if (events.length < BATCH) break;
      }
    }
  }

  function wake(workspaceId: string): void {
    const room = rooms.get(workspaceId);
    if (!room) return;
    room.again = true;
    if (room.pumping) return;
    room.pumping = pump(workspaceId, room)
      .catch(options.onError)
      .finally(() => {
        room.pumping = null;
        if (room.again && rooms.get(workspaceId) === room) wake(workspaceId);
      });
  }

  function join(workspaceId: string, inbox: Inbox): Room {
    let room = rooms.get(workspaceId);
    if (!room) {
      listening ??= options.listen(EVENTS_CHANNEL, hear).catch((error: unknown) => {
        listening = null;
        throw error;
      });
      const created: Room = { ready: Promise.resolve(), cursor: null, inboxes: new Set(), pumping: null, again: false };
      created.ready = (async () => {
        await listening;
        created.cursor = await feedHead(prisma, workspaceId);
      })();
      rooms.set(workspaceId, created);
      room = created;
    }
    room.inboxes.add(inbox);
    return room;
  }

  function leave(workspaceId: string, inbox: Inbox): void {
    const room = rooms.get(workspaceId);
    if (!room) return;
    room.inboxes.delete(inbox);
    if (room.inboxes.size === 0) rooms.delete(workspaceId);
  }

  async function* deliver(workspaceId: string, inbox: Inbox, subscription: LiveSubscription, replayFrom: FeedPosition | null) {
    const wanted = (event: FeedEvent) =>
      subscription.types.includes(event.envelope.type) &&
      (subscription.conversationId === null || conversationIdOf(event) === subscription.conversationId);
    try {
      let seen = replayFrom;
      if (seen) {
        for (;;) {
          const events = await readEvents(prisma, workspaceId, seen, BATCH, subscription.types);
          for (const event of events) {
            seen = event.position;
            if (wanted(event)) yield event;
          }
          if (events.length < BATCH) break;
        }
      }
      for await (const event of inbox.events()) {
        if (isAfter(event.position, seen) && wanted(event)) yield event;
      }
    } finally {
      leave(workspaceId, inbox);
    }
  }

  return {
    async subscribe(workspaceId, subscription) {
      const replayFrom = subscription.after ? await positionOf(prisma, workspaceId, subscription.after, 'after') : null;
      const inbox = new Inbox();
      const room = join(workspaceId, inbox);
      try {
        await room.ready;
      } catch (error) {
        leave(workspaceId, inbox);
        throw error;
      }
      const events = deliver(workspaceId, inbox, subscription, replayFrom);
      // A generator waiting for its next event cannot run its `finally` until one comes, so a client that goes away
      // would stay subscribed until its workspace's next event: ending the inbox lets it finish at once.
      const iterator: AsyncIterableIterator<FeedEvent> = {
        [Symbol.asyncIterator]: () => iterator,
        next: () => events.next(),
        return: () => {
          inbox.end();
          leave(workspaceId, inbox);
          return events.return(undefined);
        },
      };
      return iterator;
    },
    messageOf(workspaceId, event) {
      const data = event.envelope.data as { message?: { id?: unknown } };
      const messageId = typeof data.message?.id === 'string' ? data.message.id : null;
      if (!messageId) return Promise.resolve(null);
      let message = messages.get(event.envelope.id);
      if (!message) {
        message = prisma.message.findFirst({ where: { id: messageId, company_id: workspaceId }, select: messageDetailSelect });
        messages.set(event.envelope.id, message);
      }
      return message;
    },
    subscriberCount: () => [...rooms.values()].reduce((sum, room) => sum + room.inboxes.size, 0),
    async close() {
      closed = true;
      for (const room of rooms.values()) for (const inbox of room.inboxes) inbox.end();
      rooms.clear();
      const stop = await listening?.catch(() => null);
      await stop?.();
    },
  };
}

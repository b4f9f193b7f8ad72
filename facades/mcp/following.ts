// Resource subscriptions' one piece that follows conversations: each followed conversation is the GraphQL
// subscription ConversationMessageCreated run through the gateway as the caller (the event hub every GraphQL client
// follows), and each of its events becomes notifications/resources/updated. An HTTP+SSE session's server follows
// what it is asked; a Streamable HTTP session's GET stream follows what its stored session lists (sessions.ts).
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ExecutionResult } from 'graphql';
import type { Gateway } from '../core/gateway.js';
import { asMcpError, checkSubscribable, parseUri } from './resources.js';

export class ConversationFollowing {
  private readonly following = new Map<string, AsyncGenerator<ExecutionResult>>();

  constructor(
    private readonly gateway: Gateway,
    /** Tells the client that the resource changed. */
    private readonly updated: (uri: string) => Promise<void>,
  ) {}

  /** Follows the conversation of `uri` (checked subscribable) as the request's caller. */
  async follow(request: Request, uri: string): Promise<void> {
    if (this.following.has(uri)) return;
    const conversationId = parseUri(uri)?.id;
    const events = await this.gateway.subscribe(request, 'ConversationMessageCreated', { conversation_id: conversationId });
    if (!(Symbol.asyncIterator in events))
      throw asMcpError(events, request) ?? new McpError(ErrorCode.InternalError, 'Subscription failed');
    if (this.following.has(uri)) {
      // Another call followed it meanwhile.
      void events.return(undefined);
      return;
    }
    this.following.set(uri, events);
    void this.pass(uri, events);
  }

  /** Follows exactly `uris`, each checked again as the caller: one the caller may no longer read is left out. */
  async followOnly(request: Request, uris: readonly string[]): Promise<void> {
    const wanted = new Set(uris);
    for (const uri of [...this.following.keys()]) if (!wanted.has(uri)) this.stop(uri);
    const fresh = uris.filter((uri) => !this.following.has(uri));
    await Promise.all(
      fresh.map((uri) =>
        checkSubscribable(this.gateway, request, uri)
          .then(() => this.follow(request, uri))
          .catch(() => undefined),
      ),
    );
  }

  stop(uri: string): void {
    void this.following.get(uri)?.return(undefined);
    this.following.delete(uri);
  }

  stopAll(): void {
    for (const uri of [...this.following.keys()]) this.stop(uri);
  }

  private async pass(uri: string, events: AsyncGenerator<ExecutionResult>): Promise<void> {
    for await (const event of events) {
      if (event.errors?.length) break;
      await this.updated(uri).catch(() => undefined);
    }
    if (this.following.get(uri) === events) this.following.delete(uri);
  }
}

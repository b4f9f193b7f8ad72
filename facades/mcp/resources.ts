// MCP resources: what a person attaches to a chat. crm://conversations/{id} is the transcript as text (newest
// last, with the messaging window's state), crm://contacts/{id} and crm://knowledge/{id} the record's JSON.
// Every read runs a named operation through the gateway as the HTTP request that carried it, so the workspace,
// the scopes and the errors are those of every other surface; a failure is a JSON-RPC error whose data is the
// spec's error object (NOT_FOUND as MCP's -32002, "Resource not found"). A subscription on a conversation
// follows the GraphQL subscription messageCreated (the event hub) and sends notifications/resources/updated;
// only a server that outlives the request (HTTP+SSE) takes subscriptions (facades/mcp/server.ts).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { ExecutionResult } from 'graphql';
import { errorBody } from '../../infra/http/errorResponse.js';
import { requestState } from '../../infra/http/requestState.js';
import type { Gateway } from '../core/gateway.js';
import { executionFailure } from '../core/executionFailure.js';
import { transcriptText, type Transcript } from './transcript.js';
import { requestOf } from './toolServer.js';

const KINDS = {
  conversations: { operation: 'ConversationTranscript', name: 'Conversation transcript', mimeType: 'text/plain' },
  contacts: { operation: 'Contact', name: 'Contact', mimeType: 'application/json' },
  knowledge: { operation: 'KnowledgeDocumentGet', name: 'Knowledge document', mimeType: 'application/json' },
} as const;
type Kind = keyof typeof KINDS;

/** How many of a conversation's latest messages its transcript holds. */
export const TRANSCRIPT_MESSAGES = 100;
const LISTED_CONVERSATIONS = 50;

export const conversationUri = (id: string) => `crm://conversations/${id}`;

export function parseUri(uri: string): { kind: Kind; id: string } | null {
  const match = /^crm:\/\/(conversations|contacts|knowledge)\/([^/?#]+)$/.exec(uri);
  return match ? { kind: match[1] as Kind, id: decodeURIComponent(match[2]!) } : null;
}

/** A failed operation as the JSON-RPC error of a resource request, carrying the spec's error object. */
function failed(result: ExecutionResult, request: Request): McpError | null {
  const failure = executionFailure(result);
  if (!failure) return null;
  const code =
    failure.code === 'NOT_FOUND' ? -32002 : failure.code === 'VALIDATION_ERROR' ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
  return new McpError(
    code,
    failure.message,
    errorBody(failure.code, failure.message, { details: failure.details, requestId: requestState(request).requestId }),
  );
}

export async function readData(gateway: Gateway, request: Request, operationName: string, variables: Record<string, unknown>) {
  const result = await gateway.run(request, operationName, variables);
  const error = failed(result, request);
  if (error) throw error;
  return result.data as Record<string, unknown>;
}

/** One resource's contents, read as the request's caller. */
export async function readResource(gateway: Gateway, request: Request, uri: string): Promise<ReadResourceResult> {
  const parsed = parseUri(uri);
  if (!parsed) throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
  const { operation, mimeType } = KINDS[parsed.kind];
  if (parsed.kind === 'conversations') {
    const answer = await readData(gateway, request, operation, { id: parsed.id, limit: TRANSCRIPT_MESSAGES });
    return { contents: [{ uri, mimeType, text: transcriptText(answer['conversation'] as Transcript) }] };
  }
  const answer = await readData(gateway, request, operation, { id: parsed.id });
  return { contents: [{ uri, mimeType, text: JSON.stringify(Object.values(answer)[0]) }] };
}

/** The latest conversations the caller may read, as resources; none when its key may not read conversations. */
async function listResources(gateway: Gateway, request: Request): Promise<Resource[]> {
  const result = await gateway.run(request, 'Conversations', { limit: LISTED_CONVERSATIONS });
  if (executionFailure(result)) return [];
  const conversations = (result.data as { conversations: { data: { id: string; customer: { name: string } | null }[] } }).conversations
    .data;
  return conversations.map((conversation) => ({
    uri: conversationUri(conversation.id),
    name: `Conversation with ${conversation.customer?.name ?? 'a contact'}`,
    mimeType: KINDS.conversations.mimeType,
  }));
}

export function serveResources(server: Server, gateway: Gateway, subscriptions: boolean): void {
  const following = new Map<string, AsyncGenerator<ExecutionResult>>();
  const stopAll = () => {
    for (const events of following.values()) void events.return(undefined);
    following.clear();
  };
  const previousOnClose = server.onclose;
  server.onclose = () => {
    stopAll();
    previousOnClose?.();
  };

  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => ({
    resources: await listResources(gateway, requestOf(extra.authInfo)),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: (Object.keys(KINDS) as Kind[]).map((kind) => ({
      uriTemplate: `crm://${kind}/{id}`,
      name: KINDS[kind].name,
      mimeType: KINDS[kind].mimeType,
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (read, extra) => readResource(gateway, requestOf(extra.authInfo), read.params.uri));

  if (!subscriptions) return;
  server.setRequestHandler(SubscribeRequestSchema, async (subscribe, extra) => {
    const { uri } = subscribe.params;
    const parsed = parseUri(uri);
    if (parsed?.kind !== 'conversations')
      throw new McpError(ErrorCode.InvalidParams, 'Only a conversation (crm://conversations/{id}) can be subscribed to');
    if (following.has(uri)) return {};
    const request = requestOf(extra.authInfo);
    // The conversation must be the caller's to read: the same read as resources/read, refused the same way.
    await readData(gateway, request, 'Conversation', { id: parsed.id });
    const events = await gateway.subscribe(request, 'ConversationMessageCreated', { conversation_id: parsed.id });
    if (!(Symbol.asyncIterator in events)) throw failed(events, request) ?? new McpError(ErrorCode.InternalError, 'Subscription failed');
    following.set(uri, events);
    void (async () => {
      for await (const event of events) {
        if (event.errors?.length) break;
        await server.sendResourceUpdated({ uri }).catch(() => undefined);
      }
      following.delete(uri);
    })();
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (unsubscribe) => {
    void following.get(unsubscribe.params.uri)?.return(undefined);
    following.delete(unsubscribe.params.uri);
    return {};
  });
}

// MCP resources: what a person attaches to a chat. crm://conversations/{id} is the transcript as text (newest
// last, with the messaging window's state), crm://contacts/{id} and crm://knowledge/{id} the record's JSON.
// Every read runs a named operation through the gateway as the HTTP request that carried it, so the workspace,
// the scopes and the errors are those of every other surface; a failure is a JSON-RPC error whose data is the
// spec's error object (NOT_FOUND as MCP's -32002, "Resource not found"). A subscription is to a conversation the
// caller may read; where it is kept and who follows it depends on the transport (ResourceSubscriptions, server.ts).
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

/** Where a session's resource subscriptions are kept: with its server (HTTP+SSE), or with its stored session, whose
 * GET stream follows them (Streamable HTTP). */
export type ResourceSubscriptions = {
  add(request: Request, uri: string): Promise<void>;
  remove(uri: string): Promise<void>;
};

/** A failed operation as the JSON-RPC error of a resource request, carrying the spec's error object. */
export function asMcpError(result: ExecutionResult, request: Request): McpError | null {
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
  const error = asMcpError(result, request);
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

/** Refuses a subscription to anything but a conversation the caller may read (the same read as resources/read,
 * refused the same way). */
export async function checkSubscribable(gateway: Gateway, request: Request, uri: string): Promise<void> {
  const parsed = parseUri(uri);
  if (parsed?.kind !== 'conversations')
    throw new McpError(ErrorCode.InvalidParams, 'Only a conversation (crm://conversations/{id}) can be subscribed to');
  await readData(gateway, request, 'Conversation', { id: parsed.id });
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

export function serveResources(server: Server, gateway: Gateway, subscriptions: ResourceSubscriptions): void {
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
  server.setRequestHandler(SubscribeRequestSchema, async (subscribe, extra) => {
    const request = requestOf(extra.authInfo);
    await checkSubscribable(gateway, request, subscribe.params.uri);
    await subscriptions.add(request, subscribe.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (unsubscribe) => {
    await subscriptions.remove(unsubscribe.params.uri);
    return {};
  });
}

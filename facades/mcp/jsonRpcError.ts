// A JSON-RPC error as an HTTP response, the form MCP transports answer protocol failures in (unknown
// session, malformed message, invalid params), as the SDK's own transports do: with the message's JSON-RPC id
// when it had one, and the service's request id in `data` for support.
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export type JsonRpcId = string | number | null;

export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  options: { id?: JsonRpcId; requestId?: string } = {},
): Response {
  const error = { code, message, ...(options.requestId ? { data: { request_id: options.requestId } } : {}) };
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id: options.id ?? null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The JSON-RPC id of a posted message, when it is one request with an id. */
export function jsonRpcIdOf(message: unknown): JsonRpcId {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The requests whose params the server checks, by method. */
const PARAM_SCHEMAS = new Map<string, typeof CallToolRequestSchema | typeof ListToolsRequestSchema>([
  ['tools/call', CallToolRequestSchema],
  ['tools/list', ListToolsRequestSchema],
]);

/** Why a request's params are not what its method takes (JSON-RPC's -32602), or null. The SDK would answer such a
 * request -32603, as if the server had failed. */
export function invalidParams(message: unknown): string | null {
  const method = (message as { method?: unknown } | null)?.method;
  const schema = typeof method === 'string' ? PARAM_SCHEMAS.get(method) : undefined;
  if (!schema) return null;
  const parsed = schema.safeParse(message);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return `Invalid params for ${String(method)}: ${issue ? `${issue.path.slice(1).join('.') || 'params'} ${issue.message}` : 'invalid'}`;
}

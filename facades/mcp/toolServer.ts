// The MCP server of one session. tools/list answers the tool table (facades/mcp/tools.ts) with input
// schemas derived from the operations; tools/call validates the arguments, runs the tool's operation
// through the gateway as the HTTP request that carried the call (that request's API key, scopes and
// masking apply), and answers the root field's JSON, or an error result holding the spec's error object.
// It is the SDK's low-level Server, not McpServer: McpServer validates arguments itself and words the
// failures its own way, while a refused argument here must be the VALIDATION_ERROR every facade gives.
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { Kind } from 'graphql';
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { errorBody } from '../../app/errorResponse.js';
import { requestState } from '../../app/requestState.js';
import type { Actor } from '../../resolvers/context.js';
import { DomainError } from '../../resolvers/errors.js';
import { parseInput } from '../../resolvers/validation.js';
import { SERVICE_NAME } from '../../resolvers/health.js';
import type { Gateway } from '../gateway.js';
import { operation, operationDefinition } from '../operations.js';
import { executionFailure, type ExecutionFailure } from '../executionFailure.js';
import { operationInputSchema } from './inputSchema.js';
import { ANNOTATIONS, type ToolEntry } from './tools.js';

export type PreparedTool = {
  definition: Tool;
  input: z.ZodObject;
  document: DocumentNode;
  operationName: string;
  /** The response key of the operation's one root field, whose value is the tool's result. */
  field: string;
};

export function prepareTools(entries: readonly ToolEntry[], schema: GraphQLSchema): Map<string, PreparedTool> {
  const tools = new Map<string, PreparedTool>();
  for (const entry of entries) {
    const definition = operationDefinition(entry.operation);
    const [root, ...others] = definition.selectionSet.selections;
    if (root?.kind !== Kind.FIELD || others.length > 0) throw new Error(`Operation ${entry.operation} must select exactly one root field.`);
    const input = operationInputSchema(schema, definition);
    tools.set(entry.name, {
      definition: {
        name: entry.name,
        description: entry.description,
        inputSchema: z.toJSONSchema(input, { io: 'input' }) as Tool['inputSchema'],
        annotations: ANNOTATIONS[entry.kind],
      },
      input,
      document: operation(entry.operation),
      operationName: entry.operation,
      field: root.alias?.value ?? root.name.value,
    });
  }
  return tools;
}

/** What a transport hands the server with each message: the HTTP request that carried it. */
export function authInfoFor(request: Request, actor: Actor): AuthInfo {
  return { token: actor.keyPrefix, clientId: actor.keyId, scopes: [...actor.scopes], extra: { request } };
}

function requestOf(authInfo: AuthInfo | undefined): Request {
  const request = authInfo?.extra?.['request'];
  if (!request) throw new Error('An MCP message arrived without the HTTP request that carried it.');
  return request as Request;
}

function result(value: unknown): CallToolResult {
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value);
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
  };
}

function errorResult(failure: Omit<ExecutionFailure, 'status'>, requestId: string): CallToolResult {
  const body = errorBody(failure.code, failure.message, { details: failure.details, requestId });
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

export function createToolServer(tools: Map<string, PreparedTool>, gateway: Gateway, version: string): Server {
  const server = new Server({ name: SERVICE_NAME, version }, { capabilities: { tools: {} } });
  const definitions = [...tools.values()].map((tool) => tool.definition);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions }));
  server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
    const tool = tools.get(call.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
    const request = requestOf(extra.authInfo);
    const requestId = requestState(request).requestId;
    let variables: Record<string, unknown>;
    try {
      variables = parseInput(tool.input, call.params.arguments ?? {});
    } catch (error) {
      if (error instanceof DomainError) return errorResult({ code: error.code, message: error.message, details: error.details }, requestId);
      throw error;
    }
    const execution = await gateway.execute({ request, document: tool.document, operationName: tool.operationName, variables });
    const failure = executionFailure(execution);
    if (failure) return errorResult(failure, requestId);
    return result((execution.data as Record<string, unknown>)[tool.field]);
  });
  return server;
}

// The tools of an MCP session's server (facades/mcp/server.ts). tools/list answers the MCP parts of the facade
// table (facades/operations), each with its operation's variables as input schema (schema/shared/variables.ts) and annotations from its kind;
// an output schema derived from the operation's selection as REST's response schema is (facades/rest/outputSchema.ts);
// tools/call runs the tool's operation through the gateway as the HTTP request that carried the call (that
// request's API key, scopes and masking apply), with the arguments as variables, checked by the rule every
// surface shares, and answers the root field's JSON as text and as structuredContent, or an error result
// holding the spec's error object as text (no structuredContent: clients check it against the output schema).
// It is the SDK's low-level Server, not McpServer: McpServer validates arguments itself and words the
// failures its own way, while a refused argument here must be the VALIDATION_ERROR every facade gives.
import { portableSchema } from './portableSchema.js';
import type { GraphQLSchema } from 'graphql';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { errorBody } from '../../infra/http/errorResponse.js';
import { requestState } from '../../infra/http/requestState.js';
import type { Actor } from '../../infra/auth/actor.js';
import { invalid } from '../../resolvers/shared/errors.js';
import { inPlace, variableProperties } from '../../schema/shared/variables.js';
import type { Gateway } from '../core/gateway.js';
import { specForm } from '../core/optionalFields.js';
import { prepareOperation, type PreparedOperation } from '../core/operations.js';
import { domainFailure, executionFailure, type Failure } from '../core/executionFailure.js';
import type { FacadeEntry, ToolKind } from '../core/table.js';
import { Components, OutputSchemas } from '../rest/outputSchema.js';

export const ANNOTATIONS: Record<ToolKind, ToolAnnotations> = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  write: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  destructive: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

export type PreparedTool = {
  definition: Tool;
  operationName: string;
  /** The names a call may give: the operation's variables. */
  variables: ReadonlySet<string>;
  /** The tool's result from the operation's data: its one root field's value, in the spec's JSON form. */
  answer: (data: Record<string, unknown>) => unknown;
};

/** What a tool answers on success, standalone: the root object with the types it uses under its own $defs. */
function outputSchemaOf(operation: PreparedOperation): Tool['outputSchema'] {
  const components = new Components('#/$defs/');
  const root = new OutputSchemas(operation, components).success(operation);
  const name = String(root['$ref']).slice('#/$defs/'.length);
  return portableSchema({ ...components.schemas[name], type: 'object', $defs: components.schemas }) as Tool['outputSchema'];
}

export function prepareTools(table: readonly FacadeEntry[], schema: GraphQLSchema): Map<string, PreparedTool> {
  const tools = new Map<string, PreparedTool>();
  for (const { operation: name, mcp } of table) {
    if (!mcp) continue;
    const operation = prepareOperation(schema, name);
    const { properties, required } = variableProperties(operation.variables, inPlace);
    tools.set(mcp.name, {
      definition: {
        name: mcp.name,
        description: mcp.description,
        inputSchema: portableSchema({ type: 'object', properties, required, additionalProperties: false }) as Tool['inputSchema'],
        outputSchema: outputSchemaOf(operation),
        annotations: ANNOTATIONS[mcp.kind],
      },
      operationName: name,
      variables: new Set(operation.variables.map((variable) => variable.name)),
      answer: (data) => specForm(operation, data[operation.responseKey]),
    });
  }
  return tools;
}

/** What a transport hands the server with each message: the HTTP request that carried it. */
export function authInfoFor(request: Request, actor: Actor): AuthInfo {
  return { token: actor.keyPrefix, clientId: actor.keyId, scopes: [...actor.scopes], extra: { request } };
}

export function requestOf(authInfo: AuthInfo | undefined): Request {
  const request = authInfo?.extra?.['request'];
  if (!request) throw new Error('An MCP message arrived without the HTTP request that carried it.');
  return request as Request;
}

/** A success: every operation's answer is an object (its output schema says so). */
function result(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

function errorResult(failure: Failure, requestId: string): CallToolResult {
  const body = errorBody(failure.code, failure.message, { details: failure.details, requestId });
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

export function serveTools(server: Server, tools: Map<string, PreparedTool>, gateway: Gateway): void {
  const definitions = [...tools.values()].map((tool) => tool.definition);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions }));
  server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
    const tool = tools.get(call.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
    const request = requestOf(extra.authInfo);
    const requestId = requestState(request).requestId;
    const variables = call.params.arguments ?? {};
    // A typo such as `phone` for `phone_number` must not be silently ignored, as GraphQL and REST would.
    const unknown = Object.keys(variables).filter((key) => !tool.variables.has(key));
    if (unknown.length > 0) {
      return errorResult(domainFailure(invalid(Object.fromEntries(unknown.map((key) => [key, 'is not a known field'])))), requestId);
    }
    const execution = await gateway.run(request, tool.operationName, variables);
    const failure = executionFailure(execution);
    if (failure) return errorResult(failure, requestId);
    return result(tool.answer(execution.data as Record<string, unknown>));
  });
}

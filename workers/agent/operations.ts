// Runs the facades' named GraphQL operations (facades/operations/*.graphql) for the agent, under an actor of
// the workspace with the scopes given: the agent acts through the same contract, scopes and resolvers as any
// API client, so its sends get idempotency, statuses and webhooks, and its tools can do no more than a key with
// those scopes. It executes against the schema directly (no HTTP: the agent is inside the service).
import { execute, GraphQLError } from 'graphql';
import { schema } from '../../schema/index.js';
import { operation } from '../../facades/core/operations.js';
import type { Actor, Context, Services } from '../../resolvers/shared/context.js';
import { DomainError, type ErrorCode } from '../../resolvers/shared/errors.js';

export type OperationOutcome = { ok: true; data: unknown } | { ok: false; code: ErrorCode; message: string; details?: unknown };

/** The actor an agent run acts as: no key and no user; `agent:<run id>` names it in logs; its messages' sender is the agent. */
export function agentActor(workspaceId: string, runId: string, scopes: readonly string[]): Actor {
  return { workspaceId, userId: null, keyId: runId, keyPrefix: `agent:${runId}`, scopes: new Set(scopes), agentRunId: runId };
}

function failure(error: GraphQLError): OperationOutcome {
  const original = error.originalError;
  if (original instanceof DomainError) return { ok: false, code: original.code, message: original.message, details: original.details };
  const code = error.extensions['code'];
  if (code === 'VALIDATION_ERROR' || code === 'GRAPHQL_VALIDATION_FAILED' || code === 'BAD_USER_INPUT') {
    return { ok: false, code: 'VALIDATION_ERROR', message: error.message };
  }
  if (original) throw original;
  return { ok: false, code: 'VALIDATION_ERROR', message: error.message };
}

export async function runOperation(
  services: Services,
  request: { actor: Actor; name: string; variables: Record<string, unknown>; idempotencyKey?: string },
): Promise<OperationOutcome> {
  const contextValue: Context = {
    ...services,
    actor: request.actor,
    requestId: `req_${request.actor.keyPrefix}`,
    idempotencyKey: request.idempotencyKey ?? null,
  };
  const result = await execute({ schema, document: operation(request.name), contextValue, variableValues: request.variables });
  const [error] = result.errors ?? [];
  if (error) return failure(error);
  const data = Object.values(result.data ?? {})[0];
  return { ok: true, data };
}

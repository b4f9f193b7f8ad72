// How the agent runs the facades' named GraphQL operations (facades/operations/*.graphql), under an actor of
// the workspace with the scopes given: the agent acts through the same contract, scopes and resolvers as any
// API client, so its sends get idempotency, statuses and webhooks, and its tools can do no more than a key with
// those scopes. The worker imports neither the schema nor the facades: app/ hands it the gateway's in-process
// runner (facades/core/gateway.ts runInProcess) as a RunOperation; here its result becomes an outcome.
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Actor } from '../../resolvers/shared/context.js';
import { DomainError, type ErrorCode } from '../../resolvers/shared/errors.js';

export type OperationCall = { actor: Actor; name: string; variables: Record<string, unknown>; idempotencyKey?: string };

/** Runs one named operation under the call's actor (wired by app/). */
export type RunOperation = (call: OperationCall) => Promise<ExecutionResult>;

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

/** The call's answer (its root field's value) or its refusal; an unexpected error is raised, for the run's retry. */
export async function operationOutcome(run: RunOperation, call: OperationCall): Promise<OperationOutcome> {
  const result = await run(call);
  const [error] = result.errors ?? [];
  if (error) return failure(error);
  const data = Object.values(result.data ?? {})[0];
  return { ok: true, data };
}

// Idempotency-Key handling for mutations that act on the outside world (messageSend), whatever transport
// carried the header (ctx.idempotencyKey). A key is scoped to the workspace and kept 24 hours:
// - a retry with the same key and the same input gets the first outcome again, without acting twice
//   (success, or the error of a request that got as far as acting: PROVIDER_ERROR, INTERNAL);
// - the same key with a different input is refused (422 IDEMPOTENCY_KEY_REUSED);
// - the same key while its first request still runs is refused (409 IDEMPOTENCY_KEY_IN_USE).
// Requests refused by their checks (validation, not found, window closed...) act on nothing and leave the
// key unused, so the client can fix the request and retry with the same key.
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { sha256Hex } from '../../infra/crypto/tokens.js';
import type { Context } from './context.js';
import { DomainError, ERROR_CODES, type ErrorCode } from './errors.js';

const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const INTERNAL_MESSAGE = 'Unexpected server error';

type StoredError = { code: ErrorCode; message: string; details?: Record<string, unknown> };
type Outcome = { data: unknown } | { error: StoredError };

export type IdempotentSteps<Prepared, Result> = {
  /** Checks and reads; must not act. Its errors leave the key unused. */
  prepare: () => Promise<Prepared>;
  /** The action, run at most once per key. */
  execute: (prepared: Prepared) => Promise<Result>;
  /** Rebuilds a stored result from its JSON form (dates come back as strings). */
  revive: (stored: unknown) => Result;
};

function replay<Result>(
  record: { fingerprint: string; state: string; outcome: unknown },
  fingerprint: string,
  revive: (stored: unknown) => Result,
): Result {
  if (record.fingerprint !== fingerprint) {
    throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request', {
      'Idempotency-Key': 'was used with a different request; use a new key',
    });
  }
  const outcome = record.outcome as Outcome | null;
  if (record.state !== 'completed' || !outcome) {
    throw new DomainError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry later');
  }
  if ('error' in outcome) {
    const code = (ERROR_CODES as readonly string[]).includes(outcome.error.code) ? outcome.error.code : 'INTERNAL';
    throw new DomainError(code, outcome.error.message, outcome.error.details);
  }
  return revive(outcome.data);
}

function storedError(error: unknown): StoredError {
  if (error instanceof DomainError)
    return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  return { code: 'INTERNAL', message: INTERNAL_MESSAGE };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}

export async function withIdempotency<Prepared, Result>(
  ctx: Context,
  request: { workspaceId: string; operation: string; input: unknown },
  steps: IdempotentSteps<Prepared, Result>,
): Promise<Result> {
  const key = ctx.idempotencyKey;
  if (key === null) return steps.execute(await steps.prepare());
  if (!KEY_PATTERN.test(key)) {
    throw new DomainError('VALIDATION_ERROR', 'Invalid Idempotency-Key', {
      'Idempotency-Key': 'must be 1 to 255 visible ASCII characters',
    });
  }
  const { workspaceId } = request;
  const fingerprint = sha256Hex(JSON.stringify([request.operation, request.input]));
  const where = { company_id_key: { company_id: workspaceId, key } };
  const now = new Date();

  const existing = await ctx.prisma.idempotencyKey.findUnique({ where });
  if (existing && existing.expires_at > now) return replay(existing, fingerprint, steps.revive);

  const prepared = await steps.prepare();
  let record: { id: string };
  try {
    await ctx.prisma.idempotencyKey.deleteMany({ where: { company_id: workspaceId, expires_at: { lte: now } } });
    record = await ctx.prisma.idempotencyKey.create({
      data: { company_id: workspaceId, key, fingerprint, expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) },
      select: { id: true },
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another request with this key reserved it between our look-up and our reservation.
    return replay(await ctx.prisma.idempotencyKey.findUniqueOrThrow({ where }), fingerprint, steps.revive);
  }

  const finish = (outcome: Outcome) =>
    ctx.prisma.idempotencyKey.update({
      where: { id: record.id },
      data: { state: 'completed', outcome: outcome as Prisma.InputJsonValue },
    });
  let result: Result;
  try {
    result = await steps.execute(prepared);
  } catch (error) {
    await finish({ error: storedError(error) });
    throw error;
  }
  await finish({ data: JSON.parse(JSON.stringify(result)) });
  return result;
}

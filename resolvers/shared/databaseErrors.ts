// Recognising the database constraint that refused a write, as Prisma's driver adapters report it (pg and
// PGlite alike), so that resolvers can turn a lost race into a clear domain error instead of a 500.
import { getDatamodel } from '../../prisma/generated/pothos-prisma-types.js';

type AdapterCause = { originalMessage?: string; constraint?: { index?: string } };

export function violatesConstraint(error: unknown, constraint: string): boolean {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause;
  if (!cause) return false;
  return cause.constraint?.index === constraint || (cause.originalMessage ?? '').includes(`"${constraint}"`);
}

/** A unique index refused the write (Prisma's P2002): the fields it covers. The drivers report only the index
 * name (`tags_company_id_name_key`, Prisma's naming: table, columns, `_key`; PGlite only inside its message), read
 * back into the model's fields. */
export function uniqueViolation(error: unknown): { fields: string[] } | null {
  const candidate = error as { code?: unknown; meta?: { modelName?: string; driverAdapterError?: { cause?: AdapterCause } } };
  if (candidate?.code !== 'P2002') return null;
  const cause = candidate.meta?.driverAdapterError?.cause;
  const index = cause?.constraint?.index ?? /unique constraint "([^"]+)"/.exec(cause?.originalMessage ?? '')?.[1];
  const model = candidate.meta?.modelName;
  return { fields: model && index ? indexFields(model, index) : [] };
}

const MODELS = getDatamodel().datamodel.models;

/** The model's fields an index name lists after its table name, whichever underscore ends the table name. */
function indexFields(model: string, index: string): string[] {
  if (!index.endsWith('_key')) return [];
  const names = (MODELS[model]?.fields ?? []).filter((field) => field.kind === 'scalar').map((field) => field.name);
  const columns = index.slice(0, -'_key'.length);
  for (let end = columns.indexOf('_'); end !== -1; end = columns.indexOf('_', end + 1)) {
    const fields = splitIntoFields(columns.slice(end + 1), names);
    if (fields) return fields;
  }
  return [];
}

function splitIntoFields(text: string, names: readonly string[]): string[] | null {
  if (text === '') return [];
  for (const name of names) {
    if (text !== name && !text.startsWith(`${name}_`)) continue;
    const rest = splitIntoFields(text.slice(name.length + 1), names);
    if (rest) return [name, ...rest];
  }
  return null;
}

/** One wrapping of a database failure: Prisma's error, the driver adapter's, the driver's or the socket's. */
type FailureLevel = { code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: string } } }; cause?: unknown };

/** Whether the failure or one of its causes (Prisma wraps the adapter's, which wraps the driver's; five levels at
 * most) meets `test`. */
function anyLevel(error: unknown, test: (level: FailureLevel) => boolean): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const level = current as FailureLevel;
    if (test(level)) return true;
    current = level.cause;
  }
  return false;
}

/**
 * PostgreSQL aborted the statement because a concurrent transaction got in its way: a deadlock (40P01, which
 * two inserts into an exclusion constraint can reach when each waits for the other's row) or a serialization
 * failure (40001). The driver adapter reports both as `TransactionWriteConflict`, Prisma as P2034. Nothing was
 * written, and the same write tried again sees the other transaction's outcome.
 */
export function writeConflict(error: unknown): boolean {
  return anyLevel(error, (level) => level.code === 'P2034' || level.meta?.driverAdapterError?.cause?.kind === 'TransactionWriteConflict');
}

/** Driver-adapter failure kinds, Prisma codes and node-postgres/socket codes that mean "the database is away". */
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const UNREACHABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const UNREACHABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  // statement_timeout: the statement outlived the response deadline (infra/db/database.ts).
  '57014',
]);
// The last two are Prisma's P2028 when an interactive transaction did not begin, or did not end, within its time
// (infra/db/database.ts): it was rolled back, and the request may be tried again. P2028's other cases (a transaction
// used after its end) are this service's bugs, answered 500.
const UNREACHABLE_MESSAGES =
  /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Query read timeout|canceling statement due to statement timeout|Unable to start a transaction in the given time|cannot be executed on an expired transaction/;

/**
 * The database could not be reached or dropped the connection: the request may succeed when it is back, so it
 * is answered 503 rather than 500 (schema/shared/errors.ts). A transaction cut this way was rolled back by PostgreSQL.
 */
export function databaseUnavailable(error: unknown): boolean {
  return anyLevel(
    error,
    ({ code, message, meta }) =>
      UNREACHABLE_KINDS.has(meta?.driverAdapterError?.cause?.kind ?? '') ||
      (typeof code === 'string' && (UNREACHABLE_PRISMA_CODES.has(code) || UNREACHABLE_SOCKET_CODES.has(code))) ||
      (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)),
  );
}

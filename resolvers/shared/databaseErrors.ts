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
 * name (`tags_company_id_name_key`, Prisma's naming: table, columns, `_key`), read back into the model's fields. */
export function uniqueViolation(error: unknown): { fields: string[] } | null {
  const candidate = error as {
    code?: unknown;
    meta?: { modelName?: string; driverAdapterError?: { cause?: AdapterCause & { table?: string } } };
  };
  if (candidate?.code !== 'P2002') return null;
  const cause = candidate.meta?.driverAdapterError?.cause;
  const model = candidate.meta?.modelName;
  const index = cause?.constraint?.index;
  return { fields: model && cause?.table && index ? indexFields(model, cause.table, index) : [] };
}

const MODELS = getDatamodel().datamodel.models;

function indexFields(model: string, table: string, index: string): string[] {
  if (!index.startsWith(`${table}_`) || !index.endsWith('_key')) return [];
  const names = (MODELS[model]?.fields ?? [])
    .filter((field) => field.kind === 'scalar')
    .map((field) => field.name)
    .sort((a, b) => b.length - a.length);
  const fields: string[] = [];
  let rest = index.slice(table.length + 1, -'_key'.length);
  while (rest) {
    const name = names.find((candidate) => rest === candidate || rest.startsWith(`${candidate}_`));
    if (!name) return [];
    fields.push(name);
    rest = rest.slice(name.length + 1);
  }
  return fields;
}

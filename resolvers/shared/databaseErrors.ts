// Recognising the database constraint that refused a write, as Prisma's driver adapters report it (pg and
// PGlite alike), so that resolvers can turn a lost race into a clear domain error instead of a 500.
type AdapterCause = { originalMessage?: string; constraint?: { index?: string } };

export function violatesConstraint(error: unknown, constraint: string): boolean {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause;
  if (!cause) return false;
  return cause.constraint?.index === constraint || (cause.originalMessage ?? '').includes(`"${constraint}"`);
}

// What a field or argument says about its values beyond its GraphQL type, for JSON clients: a string's format
// (email, uri) or list of values, and a number's bounds and default. Declared once on the field or argument as an extension; the
// OpenAPI document and MCP tool schemas carry them, and the variable check (schema/shared/variables.ts) enforces the
// bounds, so every surface refuses an out-of-range value with the same reason.
export type SchemaHints = { format?: 'email' | 'uri'; enum?: string[]; minimum?: number; maximum?: number; default?: number };

function hinted(hints: SchemaHints) {
  return { extensions: { jsonSchema: hints } } as const;
}

/** Field or argument options: an e-mail address. */
export const EMAIL = hinted({ format: 'email' });
/** Field or argument options: an absolute URL. */
export const URI = hinted({ format: 'uri' });

/** Field or argument options: an integer from `minimum` to `maximum` that is `default` when left out. */
export function bounded(minimum: number, maximum: number, defaultValue: number) {
  return hinted({ minimum, maximum, default: defaultValue });
}

/**
 * Field or argument options: a string that is one of `values`, which also write its description ("a, b or c.");
 * `alsoAccepted` are values a filter takes besides them (an alias, the upper-case forms), named in `note`.
 */
export function oneOf(values: readonly string[], options: { note?: string; alsoAccepted?: readonly string[] } = {}) {
  const listed = values.length === 1 ? values[0]! : `${values.slice(0, -1).join(', ')} or ${values.at(-1)!}`;
  return {
    description: options.note ? `${listed} ${options.note}.` : `${listed}.`,
    ...hinted({ enum: [...values, ...(options.alsoAccepted ?? [])] }),
  };
}

/** A JSON Schema with the hints of its field or argument; a nullable one keeps null among its values. */
export function withHints(schema: Record<string, unknown>, hints: SchemaHints): Record<string, unknown> {
  const nullable = Array.isArray(schema['type']) && (schema['type'] as unknown[]).includes('null');
  return { ...schema, ...hints, ...(hints.enum && nullable ? { enum: [...hints.enum, null] } : {}) };
}

export function hintsOf(extensions: Readonly<Record<string, unknown>> | null | undefined): SchemaHints {
  return (extensions?.['jsonSchema'] as SchemaHints | undefined) ?? {};
}

/** Why a number is outside the bounds hinted for it, if it is. */
export function boundsReason(hints: SchemaHints, value: number): string | null {
  const { minimum, maximum } = hints;
  if (minimum === undefined || maximum === undefined || (value >= minimum && value <= maximum)) return null;
  return `must be between ${minimum} and ${maximum}`;
}

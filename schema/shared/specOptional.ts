// Fields the spec lists as optional ("optional; present if available"): GraphQL answers them as null when they
// have no value, while REST and MCP, which answer in the spec's JSON form, leave them out
// (facades/core/optionalFields.ts), and the OpenAPI document does not require them (docs/api-decisions.md).
import type { GraphQLField } from 'graphql';

/** Field options that mark a nullable field as one the spec's JSON form leaves out when empty. */
export const SPEC_OPTIONAL = { extensions: { specOptional: true } } as const;

export function isSpecOptional(field: GraphQLField<unknown, unknown>): boolean {
  return field.extensions['specOptional'] === true;
}

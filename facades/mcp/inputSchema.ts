// A tool's input schema, derived from the variable definitions of its GraphQL operation, never written
// by hand: GraphQL types become zod types (non-null means required; lists, enums and input objects nest),
// and descriptions come from the arguments and input fields the variables feed. The same zod schema
// validates a call's arguments and, as JSON Schema, is what tools/list shows.
import { z } from 'zod';
import {
  Kind,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

const SCALARS: Record<string, () => z.ZodType> = {
  ID: () => z.string(),
  String: () => z.string(),
  Int: () => z.int(),
  Float: () => z.number(),
  Boolean: () => z.boolean(),
  DateTime: () => z.iso.datetime({ offset: true }),
  JSON: () => z.unknown(),
};

/** Non-null GraphQL types are required; the others may be omitted or null, as GraphQL allows. */
function zodOf(type: GraphQLInputType, description?: string | null): z.ZodType {
  const schema = isNonNullType(type) ? zodOfNullable(type.ofType) : zodOfNullable(type).nullish();
  return description ? schema.describe(description) : schema;
}

function zodOfNullable(type: GraphQLInputType): z.ZodType {
  if (isListType(type)) return z.array(zodOf(type.ofType));
  if (isEnumType(type)) return z.enum(type.getValues().map((value) => value.name) as [string, ...string[]]);
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).map((field) => [field.name, zodOf(field.type, field.description)]);
    return z.strictObject(Object.fromEntries(fields));
  }
  const scalar = isScalarType(type) ? SCALARS[type.name] : undefined;
  if (!scalar) throw new Error(`No input schema for the GraphQL type ${String(type)}; add it to SCALARS.`);
  return scalar();
}

/** The description of the root-field argument that a variable is passed to, if any. */
function argumentDescriptions(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, string> {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const descriptions = new Map<string, string>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const field = root?.getFields()[selection.name.value];
    for (const argument of selection.arguments ?? []) {
      if (argument.value.kind !== Kind.VARIABLE) continue;
      const description = field?.args.find((arg) => arg.name === argument.name.value)?.description;
      if (description) descriptions.set(argument.value.name.value, description);
    }
  }
  return descriptions;
}

export function operationInputSchema(schema: GraphQLSchema, operation: OperationDefinitionNode) {
  const descriptions = argumentDescriptions(schema, operation);
  const shape: Record<string, z.ZodType> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`Variable $${name} of ${operation.name?.value} has a type the schema does not know.`);
    shape[name] = zodOf(type, descriptions.get(name));
  }
  return z.strictObject(shape);
}

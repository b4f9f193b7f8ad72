// The contract's one rule for variable values, whatever carries them. From an operation's variable definitions
// it gives: the check of JSON values with one reason per field (GraphQL clients' variables, REST bodies and
// query strings, MCP tool arguments: schema/shared/variableCheck.ts runs it before every execution), the reading of
// query-string text as the JSON value a client would have sent, and the JSON Schema of each variable that the
// OpenAPI document and MCP tools/list show. Variables come in name order, as the sorted schema lists arguments.
// Two rules are stricter than GraphQL's own input coercion, so that a JSON client is told instead of guessed
// for: a list must be an array (GraphQL would wrap a single value), and an ID must be a string (GraphQL would
// take an integer).
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  OperationTypeNode,
  typeFromAST,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLLeafType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { boundsReason, hintsOf, withHints, type SchemaHints } from './jsonSchemaHints.js';

export type Variable = {
  name: string;
  type: GraphQLInputType;
  /** The definition gives a default value: the variable may then be left out even when non-null. */
  defaulted: boolean;
  /** The description of the root-field argument the variable is passed to. */
  description: string | null;
  /** What that argument says about its values beyond its type (schema/shared/jsonSchemaHints.ts). */
  hints: SchemaHints;
};

export type Reasons = Record<string, string>;

export function operationVariables(schema: GraphQLSchema, definition: OperationDefinitionNode): Variable[] {
  const passedTo = argumentsOf(schema, definition);
  return (definition.variableDefinitions ?? [])
    .map((node) => {
      const name = node.variable.name.value;
      const type = typeFromAST(schema, node.type) as GraphQLInputType | undefined;
      if (!type) throw new Error(`Variable $${name} of ${definition.name?.value ?? 'an operation'} has a type the schema does not know.`);
      const argument = passedTo.get(name);
      return {
        name,
        type,
        defaulted: node.defaultValue !== undefined,
        description: argument?.description ?? null,
        hints: hintsOf(argument?.extensions),
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The root-field argument each variable is passed to. */
function argumentsOf(schema: GraphQLSchema, definition: OperationDefinitionNode): Map<string, GraphQLArgument> {
  const root = definition.operation === OperationTypeNode.MUTATION ? schema.getMutationType() : schema.getQueryType();
  const passedTo = new Map<string, GraphQLArgument>();
  for (const selection of definition.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const field = root?.getFields()[selection.name.value];
    for (const argument of selection.arguments ?? []) {
      const declared = field?.args.find((arg) => arg.name === argument.name.value);
      if (argument.value.kind === Kind.VARIABLE && declared) passedTo.set(argument.value.name.value, declared);
    }
  }
  return passedTo;
}

/** Whether the variable must be present and not null. */
export function isRequired(variable: Variable): boolean {
  return isNonNullType(variable.type) && !variable.defaulted;
}

export function isList(variable: Variable): boolean {
  return isListType(getNullableType(variable.type));
}

/** Why each value (by its path, `contacts.0.name`) cannot be the variable's type; empty when all can. */
export function checkVariables(variables: readonly Variable[], values: Readonly<Record<string, unknown>>): Reasons {
  const reasons: Reasons = {};
  for (const variable of variables) {
    if (values[variable.name] === undefined && variable.defaulted) continue;
    collectReasons(values[variable.name], variable.type, variable.name, reasons);
    const value = values[variable.name];
    const outside = typeof value === 'number' && !reasons[variable.name] ? boundsReason(variable.hints, value) : null;
    if (outside) reasons[variable.name] = outside;
  }
  return reasons;
}

function collectReasons(value: unknown, type: GraphQLInputType, path: string, reasons: Reasons): void {
  if (isNonNullType(type)) {
    if (value === undefined || value === null) reasons[path] = 'is required';
    else collectReasons(value, type.ofType, path, reasons);
    return;
  }
  if (value === undefined || value === null) return;
  if (isListType(type)) {
    if (!Array.isArray(value)) reasons[path] = 'must be an array';
    else value.forEach((item, index) => collectReasons(item, type.ofType, `${path}.${index}`, reasons));
    return;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      reasons[path] = 'must be an object';
      return;
    }
    const fields = type.getFields();
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!fields[key]) reasons[`${path}.${key}`] = 'is not a known field';
    for (const field of Object.values(fields)) {
      if (record[field.name] === undefined && field.defaultValue !== undefined) continue;
      collectReasons(record[field.name], field.type, `${path}.${field.name}`, reasons);
    }
    return;
  }
  const reason = contentReason(type, value) ?? (acceptsLeaf(type, value) ? null : leafReason(type));
  if (reason) reasons[path] = reason;
}

/** Bounds of a JSON value (metadata, details): deeper or larger values are refused before anything recurses
 * over them (Prisma's serializer overflows the stack at a few thousand levels). */
export const JSON_MAX_DEPTH = 20;
export const JSON_MAX_BYTES = 16 * 1024;

/** What no value may hold, whatever its type: PostgreSQL refuses NUL in text and jsonb, so it is refused here with
 * the field's name instead of failing in the database; a JSON value also keeps within its bounds. */
function contentReason(type: GraphQLLeafType, value: unknown): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? NUL_REASON : null;
  if (type.name !== 'JSON' && type.name !== 'JSONList') return null;
  const reason = jsonStructureReason(value);
  if (reason) return reason;
  return Buffer.byteLength(JSON.stringify(value) ?? '') > JSON_MAX_BYTES ? `must be at most ${JSON_MAX_BYTES} bytes as JSON` : null;
}

const NUL_REASON = 'must not contain NUL characters';

/** Nesting deeper than JSON_MAX_DEPTH, or NUL in a key or a string; iterative, so no depth overflows the stack. */
function jsonStructureReason(value: unknown): string | null {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (typeof current === 'string' && current.includes('\u0000')) return NUL_REASON;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= JSON_MAX_DEPTH) return `must be nested at most ${JSON_MAX_DEPTH} levels deep`;
    for (const [key, child] of Object.entries(current)) {
      if (key.includes('\u0000')) return NUL_REASON;
      pending.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}

function acceptsLeaf(type: GraphQLLeafType, value: unknown): boolean {
  if (type.name === 'ID' && typeof value !== 'string') return false;
  try {
    return type.parseValue(value) !== undefined;
  } catch {
    return false;
  }
}

function leafReason(type: GraphQLLeafType): string {
  if (isEnumType(type))
    return `must be one of ${type
      .getValues()
      .map((value) => value.name)
      .join(', ')}`;
  switch (type.name) {
    case 'Int':
      return 'must be an integer';
    case 'Float':
      return 'must be a number';
    case 'Boolean':
      return 'must be true or false';
    case 'String':
    case 'ID':
      return 'must be a string';
    case 'DateTime':
      return 'must be an ISO 8601 date-time between the years 1 and 9999';
    default:
      return `must be a valid ${type.name}`;
  }
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Query-string text as the JSON value a client would have sent: a number or a boolean where the type wants
 * one (other text stays text, for the check to name), every occurrence for a list. */
export function fromQueryText(variable: Variable, texts: readonly string[]): unknown {
  const leaf = getNamedType(variable.type).name;
  const values = texts.map((text) => {
    if (leaf === 'Int') return INTEGER.test(text) ? Number(text) : text;
    if (leaf === 'Float') return NUMBER.test(text) ? Number(text) : text;
    if (leaf === 'Boolean') return text === 'true' ? true : text === 'false' ? false : text;
    return text;
  });
  return isList(variable) ? values : values[0];
}

export type JsonSchema = { [keyword: string]: unknown };

/** Where the schema of a named input type goes: the OpenAPI document keeps it among its components and refers
 * to it; an MCP tool's input schema holds it in place. */
export type Register = (name: string, schema: JsonSchema) => JsonSchema;

export const inPlace: Register = (_name, schema) => schema;

/** The one table of scalars as JSON Schema, for inputs and outputs alike. */
const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time', description: 'ISO 8601 date-time in UTC.' },
  JSON: { type: 'object', description: 'A free-form JSON object.' },
  JSONList: { type: 'array', items: { type: 'object' }, description: 'A JSON array of objects.' },
};

export function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema['type'] !== 'string') return { anyOf: [schema, { type: 'null' }] };
  const withNull: JsonSchema = { ...schema, type: [schema['type'], 'null'] };
  if (Array.isArray(schema['enum'])) withNull['enum'] = [...(schema['enum'] as unknown[]), null];
  return withNull;
}

export function leafSchema(type: GraphQLLeafType, direction: 'input' | 'output'): JsonSchema {
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((value) => value.name) };
  // Every id this API accepts is a UUID (the resolvers check it); ids it returns may be a provider's.
  if (type.name === 'ID' && direction === 'input') return { type: 'string', format: 'uuid' };
  return SCALARS[type.name] ?? described({}, type.description);
}

/** A variable's value as JSON Schema: null allowed where the type is nullable. */
export function inputSchema(type: GraphQLInputType, register: Register): JsonSchema {
  if (isNonNullType(type)) return inputInnerSchema(type.ofType, register);
  return nullable(inputInnerSchema(type, register));
}

/** The same without null: what a present value must be. */
export function inputInnerSchema(type: GraphQLInputType, register: Register): JsonSchema {
  if (isListType(type)) return { type: 'array', items: inputSchema(type.ofType, register) };
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    return register(type.name, {
      type: 'object',
      ...(type.description ? { description: type.description } : {}),
      properties: Object.fromEntries(
        fields.map((field) => [
          field.name,
          described(withHints(inputSchema(field.type, register), hintsOf(field.extensions)), field.description),
        ]),
      ),
      required: fields.filter((field) => isNonNullType(field.type) && field.defaultValue === undefined).map((field) => field.name),
      additionalProperties: false,
    });
  }
  return leafSchema(type, 'input');
}

/** A variable's value as JSON Schema with its hints, and its description; `present` is the form of a REST
 * query or path parameter, which is either there or not: no null, and the description on the parameter. */
export function variableSchema(variable: Variable, register: Register, present = false): JsonSchema {
  const schema = present
    ? inputInnerSchema(getNullableType<GraphQLInputType>(variable.type), register)
    : inputSchema(variable.type, register);
  const bounded = withHints(schema, variable.hints);
  // A parameter carries its description itself.
  return present ? bounded : described(bounded, variable.description);
}

/** The properties and required names of a JSON object holding these variables (a REST body, MCP arguments). */
export function variableProperties(variables: readonly Variable[], register: Register): { properties: JsonSchema; required: string[] } {
  return {
    properties: Object.fromEntries(variables.map((variable) => [variable.name, variableSchema(variable, register)])),
    required: variables.filter(isRequired).map((variable) => variable.name),
  };
}

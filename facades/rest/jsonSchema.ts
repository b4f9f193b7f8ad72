// JSON Schema (2020-12, as OpenAPI 3.1 uses it) for GraphQL types: output types as a selection set picks
// them (every selected field required, null allowed where GraphQL allows it, nothing else allowed), and
// input types as the REST facade checks them (facades/rest/arguments.ts).
import { isDeepStrictEqual } from 'node:util';
import {
  Kind,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type FieldNode,
  type GraphQLInputType,
  type GraphQLLeafType,
  type GraphQLOutputType,
} from 'graphql';

export type JsonSchema = { [keyword: string]: unknown };

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time', description: 'ISO 8601 date-time in UTC.' },
  JSON: { type: 'object', description: 'A free-form JSON object.' },
};

/** Component schemas by GraphQL type name; a type selected differently elsewhere gets a numbered name. */
export class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  register(name: string, schema: JsonSchema): JsonSchema {
    let candidate = name;
    for (let suffix = 2; this.schemas[candidate] && !isDeepStrictEqual(this.schemas[candidate], schema); suffix++) {
      candidate = `${name}${suffix}`;
    }
    this.schemas[candidate] = schema;
    return { $ref: `#/components/schemas/${candidate}` };
  }
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema['type'] !== 'string') return { anyOf: [schema, { type: 'null' }] };
  const withNull: JsonSchema = { ...schema, type: [schema['type'], 'null'] };
  if (Array.isArray(schema['enum'])) withNull['enum'] = [...schema['enum'], null];
  return withNull;
}

export function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

function leafSchema(type: GraphQLLeafType, direction: 'input' | 'output'): JsonSchema {
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((value) => value.name) };
  // Every id this API accepts is a UUID (the resolvers check it); ids it returns may be a provider's.
  if (type.name === 'ID' && direction === 'input') return { type: 'string', format: 'uuid' };
  return SCALARS[type.name] ?? described({}, type.description);
}

export function outputSchema(type: GraphQLOutputType, node: FieldNode, components: Components): JsonSchema {
  if (isNonNullType(type)) return outputInnerSchema(type.ofType, node, components);
  return nullable(outputInnerSchema(type, node, components));
}

function outputInnerSchema(type: GraphQLOutputType, node: FieldNode, components: Components): JsonSchema {
  if (isListType(type)) return { type: 'array', items: outputSchema(type.ofType, node, components) };
  if (isObjectType(type)) {
    const fields = type.getFields();
    const properties: Record<string, JsonSchema> = {};
    for (const selection of node.selectionSet?.selections ?? []) {
      if (selection.kind !== Kind.FIELD) throw new Error(`Fragments in REST selections are not supported (${type.name})`);
      const field = fields[selection.name.value]!;
      properties[selection.alias?.value ?? field.name] = described(outputSchema(field.type, selection, components), field.description);
    }
    return components.register(type.name, {
      type: 'object',
      ...(type.description ? { description: type.description } : {}),
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
  }
  if (isEnumType(type) || !('getFields' in type)) return leafSchema(type as GraphQLLeafType, 'output');
  throw new Error(`Abstract type ${type.name} in a REST response is not supported`);
}

export function inputSchema(type: GraphQLInputType, components: Components): JsonSchema {
  if (isNonNullType(type)) return inputInnerSchema(type.ofType, components);
  return nullable(inputInnerSchema(type, components));
}

export function inputInnerSchema(type: GraphQLInputType, components: Components): JsonSchema {
  if (isListType(type)) return { type: 'array', items: inputSchema(type.ofType, components) };
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    return components.register(type.name, {
      type: 'object',
      ...(type.description ? { description: type.description } : {}),
      properties: Object.fromEntries(
        fields.map((field) => [field.name, described(inputSchema(field.type, components), field.description)]),
      ),
      required: fields.filter((field) => isNonNullType(field.type) && field.defaultValue === undefined).map((field) => field.name),
      additionalProperties: false,
    });
  }
  return leafSchema(type as GraphQLLeafType, 'input');
}

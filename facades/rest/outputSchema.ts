// JSON Schema (2020-12, as OpenAPI 3.1 uses it) of what an operation answers: each GraphQL output type as the
// operation's selection picks it, fragments spread in place: every selected field required, null allowed where
// GraphQL allows it, nothing else allowed. Types become named components, numbered when one is selected
// differently in another place. The MCP tools declare the same schemas as their outputSchema, with the
// components under the schema's own $defs (facades/mcp/toolServer.ts).
import { isDeepStrictEqual } from 'node:util';
import {
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLLeafType,
  type GraphQLOutputType,
} from 'graphql';
import { described, leafSchema, nullable, type JsonSchema, type Register } from '../../schema/shared/variables.js';
import { isSpecOptional } from '../../schema/shared/specOptional.js';
import { hintsOf, withHints } from '../../schema/shared/jsonSchemaHints.js';
import type { PreparedOperation } from '../core/operations.js';
import { fragmentsOf, selectedFields } from '../core/selection.js';

/** Component schemas by GraphQL type name; a type selected differently elsewhere gets a numbered name. They are
 * referred to under `refPrefix`: an OpenAPI document's components, or a standalone schema's $defs. */
export class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  constructor(private readonly refPrefix = '#/components/schemas/') {}

  readonly register: Register = (name, schema) => {
    let candidate = name;
    for (let suffix = 2; this.schemas[candidate] && !isDeepStrictEqual(this.schemas[candidate], schema); suffix++) {
      candidate = `${name}${suffix}`;
    }
    this.schemas[candidate] = schema;
    return { $ref: `${this.refPrefix}${candidate}` };
  };
}

/** A GraphQL output type as a selection picks it: every selected field required, null where GraphQL allows
 * it, nothing else allowed. */
export class OutputSchemas {
  private readonly fragments: Map<string, FragmentDefinitionNode>;

  constructor(
    operation: PreparedOperation,
    private readonly components: Components,
  ) {
    this.fragments = fragmentsOf(operation.document);
  }

  of(type: GraphQLOutputType, node: FieldNode): JsonSchema {
    if (isNonNullType(type)) return this.inner(type.ofType, node);
    return nullable(this.inner(type, node));
  }

  private inner(type: GraphQLOutputType, node: FieldNode): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.of(type.ofType, node) };
    if (isObjectType(type)) {
      const fields = type.getFields();
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const selection of selectedFields(node.selectionSet, this.fragments)) {
        const field = fields[selection.name.value]!;
        const key = selection.alias?.value ?? field.name;
        // A field the spec lists as optional is absent, never null, in the spec's JSON form (facades/core/optionalFields.ts).
        const optional = isSpecOptional(field);
        const schema = optional
          ? this.inner(isNonNullType(field.type) ? field.type.ofType : field.type, selection)
          : this.of(field.type, selection);
        properties[key] = described(withHints(schema, hintsOf(field.extensions)), field.description);
        if (!optional) required.push(key);
      }
      return this.components.register(type.name, {
        type: 'object',
        ...(type.description ? { description: type.description } : {}),
        properties,
        required,
        additionalProperties: false,
      });
    }
    if (isEnumType(type) || !('getFields' in type)) return leafSchema(type as GraphQLLeafType, 'output');
    throw new Error(`Abstract type ${type.name} in a REST response is not supported`);
  }

  /** The operation's answer: its root field's value, never null (the adapter answers a null result 404), so a
   * generated client's success body is the record itself, not `X | null`. */
  answer(operation: PreparedOperation): JsonSchema {
    const type = operation.field.type;
    return this.inner(isNonNullType(type) ? type.ofType : type, rootNode(operation));
  }

  /** The operation's answer when it succeeds: a root field is null only beside an error. */
  success(operation: PreparedOperation): JsonSchema {
    const type = operation.field.type;
    return this.inner(isNonNullType(type) ? type.ofType : type, rootNode(operation));
  }
}

export function rootNode(operation: PreparedOperation): FieldNode {
  return operation.definition.selectionSet.selections[0] as FieldNode;
}

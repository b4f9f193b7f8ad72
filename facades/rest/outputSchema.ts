// JSON Schema (2020-12, as OpenAPI 3.1 uses it) of what an operation answers: each GraphQL output type as the
// operation's selection picks it, fragments spread in place: every selected field required, null allowed where
// GraphQL allows it, nothing else allowed. Types become named components, numbered when one is selected
// differently in another place.
import { isDeepStrictEqual } from 'node:util';
import {
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLLeafType,
  type GraphQLOutputType,
  type SelectionSetNode,
} from 'graphql';
import { described, leafSchema, nullable, type JsonSchema, type Register } from '../../schema/variables.js';
import type { PreparedOperation } from '../core/operations.js';

/** Component schemas by GraphQL type name; a type selected differently elsewhere gets a numbered name. */
export class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  readonly register: Register = (name, schema) => {
    let candidate = name;
    for (let suffix = 2; this.schemas[candidate] && !isDeepStrictEqual(this.schemas[candidate], schema); suffix++) {
      candidate = `${name}${suffix}`;
    }
    this.schemas[candidate] = schema;
    return { $ref: `#/components/schemas/${candidate}` };
  };
}

/** The fields a selection set selects, with the operation's fragments spread in place. */
export function selectedFields(set: SelectionSetNode | undefined, fragments: ReadonlyMap<string, FragmentDefinitionNode>): FieldNode[] {
  return (set?.selections ?? []).flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    const spread = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value)?.selectionSet : selection.selectionSet;
    return selectedFields(spread, fragments);
  });
}

/** A GraphQL output type as a selection picks it: every selected field required, null where GraphQL allows
 * it, nothing else allowed. */
export class OutputSchemas {
  private readonly fragments: Map<string, FragmentDefinitionNode>;

  constructor(
    operation: PreparedOperation,
    private readonly components: Components,
  ) {
    this.fragments = new Map(
      operation.document.definitions
        .filter((node): node is FragmentDefinitionNode => node.kind === Kind.FRAGMENT_DEFINITION)
        .map((fragment) => [fragment.name.value, fragment]),
    );
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
      for (const selection of selectedFields(node.selectionSet, this.fragments)) {
        const field = fields[selection.name.value]!;
        properties[selection.alias?.value ?? field.name] = described(this.of(field.type, selection), field.description);
      }
      return this.components.register(type.name, {
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

  /** The operation's answer: its root field's value. */
  answer(operation: PreparedOperation): JsonSchema {
    return this.of(operation.field.type, rootNode(operation));
  }
}

export function rootNode(operation: PreparedOperation): FieldNode {
  return operation.definition.selectionSet.selections[0] as FieldNode;
}

// REST and MCP answer in the spec's JSON form, where a field the spec lists as optional is absent when it has no
// value (schema/shared/specOptional.ts); GraphQL answers it as null. This turns an operation's GraphQL value into that
// form by walking the operation's selection with the schema's types. Operations that reach no such field answer
// their value as it is, at no cost.
import { isListType, isNonNullType, isObjectType, type FieldNode, type FragmentDefinitionNode, type GraphQLOutputType } from 'graphql';
import { isSpecOptional } from '../../schema/shared/specOptional.js';
import type { PreparedOperation } from './operations.js';
import { fragmentsOf, selectedFields } from './selection.js';

type Shape = (value: unknown) => unknown;

const shapes = new WeakMap<PreparedOperation, Shape>();

function objectTypeOf(type: GraphQLOutputType): GraphQLOutputType {
  let inner = type;
  while (isNonNullType(inner) || isListType(inner)) inner = inner.ofType;
  return inner;
}

function reachesOptional(type: GraphQLOutputType, node: FieldNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): boolean {
  const named = objectTypeOf(type);
  if (!isObjectType(named)) return false;
  const fields = named.getFields();
  return selectedFields(node.selectionSet, fragments).some((selection) => {
    const field = fields[selection.name.value];
    return field !== undefined && (isSpecOptional(field) || reachesOptional(field.type, selection, fragments));
  });
}

function shaped(type: GraphQLOutputType, node: FieldNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return (value as unknown[]).map((item) => shaped(inner.ofType as GraphQLOutputType, node, fragments, item));
  if (!isObjectType(inner)) return value;
  const fields = inner.getFields();
  const record = value as Record<string, unknown>;
  const answer: Record<string, unknown> = {};
  for (const selection of selectedFields(node.selectionSet, fragments)) {
    const key = selection.alias?.value ?? selection.name.value;
    const field = fields[selection.name.value];
    if (field && isSpecOptional(field) && record[key] === null) continue;
    answer[key] = field ? shaped(field.type, selection, fragments, record[key]) : record[key];
  }
  return answer;
}

/** The operation's answer in the spec's JSON form. */
export function specForm(operation: PreparedOperation, value: unknown): unknown {
  let shape = shapes.get(operation);
  if (!shape) {
    const fragments = fragmentsOf(operation.document);
    const root = operation.definition.selectionSet.selections[0] as FieldNode;
    shape = reachesOptional(operation.field.type, root, fragments)
      ? (answer) => shaped(operation.field.type, root, fragments, answer)
      : (answer) => answer;
    shapes.set(operation, shape);
  }
  return shape(value);
}

// The named GraphQL operations that the facades run, loaded from facades/operations/*.graphql, and each one
// joined with the schema once: its root field and its variables. They are the facades' contract with the
// schema: codegen types them and a test validates them.
import { projectPath } from '../../infra/paths.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  Kind,
  OperationTypeNode,
  parse,
  visit,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { operationVariables, type Variable } from '../../schema/shared/variables.js';

// Relative to this file's folder's parent, which is also the parent of dist/ when this code runs bundled.
export const OPERATIONS_DIR = projectPath('facades/operations');

export function operationFiles(): { location: string; document: DocumentNode }[] {
  return readdirSync(OPERATIONS_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => {
      const location = join(OPERATIONS_DIR, file);
      return { location, document: parse(readFileSync(location, 'utf8')) };
    });
}

/** Each named operation as a document of its own, with the fragments it uses (from any file). */
function loadOperations(): Map<string, DocumentNode> {
  const files = operationFiles();
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const { location, document } of files) {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
      if (fragments.has(definition.name.value)) throw new Error(`Fragment ${definition.name.value} in ${location} is defined twice.`);
      fragments.set(definition.name.value, definition);
    }
  }
  const operations = new Map<string, DocumentNode>();
  for (const { location, document } of files) {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const name = definition.name?.value;
      if (!name) throw new Error(`An operation in ${location} has no name.`);
      if (operations.has(name)) throw new Error(`Operation ${name} is defined twice.`);
      operations.set(name, { kind: Kind.DOCUMENT, definitions: [definition, ...usedFragments(definition, fragments)] });
    }
  }
  return operations;
}

function usedFragments(root: ASTNode, fragments: Map<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const used = new Map<string, FragmentDefinitionNode>();
  const collect = (node: ASTNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (!fragment) throw new Error(`Unknown fragment ${name}.`);
        if (used.has(name)) return;
        used.set(name, fragment);
        collect(fragment);
      },
    });
  collect(root);
  return [...used.values()];
}

const operations = loadOperations();

export function operation(name: string): DocumentNode {
  const document = operations.get(name);
  if (!document) throw new Error(`Unknown operation ${name}`);
  return document;
}

export function operationDefinition(name: string): OperationDefinitionNode {
  return operation(name).definitions[0] as OperationDefinitionNode;
}

export function operationNames(): string[] {
  return [...operations.keys()];
}

export type PreparedOperation = {
  name: string;
  document: DocumentNode;
  definition: OperationDefinitionNode;
  /** The one root field the operation selects; its value is what every surface answers. */
  field: GraphQLField<unknown, unknown>;
  responseKey: string;
  variables: Variable[];
};

export function prepareOperation(schema: GraphQLSchema, name: string): PreparedOperation {
  const document = operation(name);
  const definition = document.definitions[0] as OperationDefinitionNode;
  const [root, ...others] = definition.selectionSet.selections;
  if (root?.kind !== Kind.FIELD || others.length > 0) throw new Error(`Operation ${name} must select exactly one root field.`);
  const rootType = definition.operation === OperationTypeNode.MUTATION ? schema.getMutationType() : schema.getQueryType();
  const field = rootType?.getFields()[root.name.value];
  if (!field) throw new Error(`Operation ${name} selects ${root.name.value}, which the schema does not have.`);
  return {
    name,
    document,
    definition,
    field,
    responseKey: root.alias?.value ?? root.name.value,
    variables: operationVariables(schema, definition),
  };
}

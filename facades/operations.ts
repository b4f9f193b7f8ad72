// The named GraphQL operations that the facades run, loaded from facades/operations/*.graphql.
// They are the facades' contract with the schema: codegen types them and a test validates them.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, visit, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';

export const OPERATIONS_DIR = fileURLToPath(new URL('./operations', import.meta.url));

export function operationFiles(): { location: string; document: DocumentNode }[] {
  return readdirSync(OPERATIONS_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => {
      const location = join(OPERATIONS_DIR, file);
      return { location, document: parse(readFileSync(location, 'utf8')) };
    });
}

/** The fragments of its file that an operation spreads, directly or through other fragments. */
function fragmentsUsedBy(operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>) {
  const used = new Map<string, FragmentDefinitionNode>();
  const pending: (OperationDefinitionNode | FragmentDefinitionNode)[] = [operation];
  for (let node = pending.pop(); node; node = pending.pop()) {
    visit(node, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (fragment && !used.has(spread.name.value)) {
          used.set(spread.name.value, fragment);
          pending.push(fragment);
        }
      },
    });
  }
  return [...used.values()];
}

/** Each named operation as a document of its own, with the fragments it uses (a file may share several). */
function loadOperations(): Map<string, DocumentNode> {
  const operations = new Map<string, DocumentNode>();
  for (const { location, document } of operationFiles()) {
    const fragments = new Map(
      document.definitions
        .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
        .map((fragment) => [fragment.name.value, fragment]),
    );
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const name = definition.name?.value;
      if (!name) throw new Error(`An operation in ${location} has no name.`);
      if (operations.has(name)) throw new Error(`Operation ${name} is defined twice.`);
      operations.set(name, { kind: Kind.DOCUMENT, definitions: [definition, ...fragmentsUsedBy(definition, fragments)] });
    }
  }
  return operations;
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

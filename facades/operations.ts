// The named GraphQL operations that the facades run, loaded from facades/operations/*.graphql.
// They are the facades' contract with the schema: codegen types them and a test validates them.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';

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

/** Each named operation as a document of its own (with the fragments of its file). */
function loadOperations(): Map<string, DocumentNode> {
  const operations = new Map<string, DocumentNode>();
  for (const { location, document } of operationFiles()) {
    const fragments = document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const name = definition.name?.value;
      if (!name) throw new Error(`An operation in ${location} has no name.`);
      if (operations.has(name)) throw new Error(`Operation ${name} is defined twice.`);
      operations.set(name, { kind: Kind.DOCUMENT, definitions: [definition, ...fragments] });
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

// Reading an operation's selection: the fields a selection set picks, with the operation's fragments spread in
// place. The answer shapes (facades/core/optionalFields.ts) and the OpenAPI schemas (facades/rest/outputSchema.ts)
// both walk it.
import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(
    document.definitions
      .filter((node): node is FragmentDefinitionNode => node.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
}

/** The fields a selection set selects, with the operation's fragments spread in place. */
export function selectedFields(set: SelectionSetNode | undefined, fragments: ReadonlyMap<string, FragmentDefinitionNode>): FieldNode[] {
  return (set?.selections ?? []).flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    const spread = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value)?.selectionSet : selection.selectionSet;
    return selectedFields(spread, fragments);
  });
}

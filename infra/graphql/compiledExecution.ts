// Queries and mutations run compiled by graphql-jit once a document has run before, as Mercurius does (its `jit`
// option): graphql-js resolves an answer field by field, each with its own resolve info, argument map and path,
// which on a page of 50 contacts was about a third of the service's CPU; the compiled query reads the same
// resolvers' values without that work. A document's first run, and a document graphql-jit cannot compile, run on
// graphql-js's own `execute`. Both keep the selection's key order, as the GraphQL spec asks of serialized maps (Yoga's
// default executor, @graphql-tools/executor, does not: hayes/pothos#1511). Subscriptions run through sharedLiveResults.ts.
// The compiled query answers the values of the built-in scalars and of the enums as the resolvers give them
// (`disableLeafSerialization`): graphql-jit otherwise checks each such leaf through a call whose arguments, the
// field's locations and path, are arrays built for every field of every row (a quarter of what a page of 50 contacts
// allocated). The resolvers' types already give those values their GraphQL form, and every enum's values are
// their names (a test checks the schema's), so the answer is the same; the custom scalars (DateTime, JSON) are
// still serialized.
// graphql-jit (and the JSON serializer it brings) is loaded when the first document is compiled, not at start.
import {
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/** A document's state per operation name: run once (`'seen'`), compiled, or not compilable (`null`). */
type Compilation = 'seen' | CompiledQuery | null;

/** The fields of a selection set (through its fragments) answered under `key`. */
function fieldsAnswering(selections: SelectionSetNode, key: string, fragments: Map<string, FragmentDefinitionNode>): FieldNode[] {
  return selections.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return (selection.alias ?? selection.name).value === key ? [selection] : [];
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
    return fragment ? fieldsAnswering(fragment.selectionSet, key, fragments) : [];
  });
}

/** The fields of the operation that answer at `path`: what graphql-js locates a field's error by. */
function fieldsAt(args: ExecutionArgs, path: readonly (string | number)[]): FieldNode[] {
  const operation = getOperationAST(args.document, args.operationName);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of args.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  let fields: FieldNode[] = [];
  let selectionSets = operation ? [operation.selectionSet] : [];
  for (const key of path) {
    if (typeof key === 'number') continue;
    fields = selectionSets.flatMap((selections) => fieldsAnswering(selections, key, fragments));
    selectionSets = fields.flatMap((field) => (field.selectionSet ? [field.selectionSet] : []));
  }
  return fields;
}

/** The answer as graphql-js's `execute` gives it, so that a document answers the same on every run: its errors
 * located at their fields (graphql-jit leaves a failed resolver's error without them) and its keys in graphql-js's
 * order (errors first, as the GraphQL spec suggests). */
function inExecuteForm(result: ExecutionResult, args: ExecutionArgs): ExecutionResult {
  if (!result.errors) return result;
  const errors = result.errors.map((error) =>
    error.path && !error.nodes
      ? new GraphQLError(error.message, {
          nodes: fieldsAt(args, error.path),
          path: error.path,
          originalError: error.originalError,
          extensions: error.extensions,
        })
      : error,
  );
  const { errors: _unlocated, data, ...rest } = result;
  return { errors, data, ...rest };
}

export function useCompiledExecution(): Plugin {
  // Keyed by the parsed document, which Yoga's parser cache (and the facades' operation table) keeps while it is in
  // use: a document no longer in use takes its compiled form with it.
  const compilations = new WeakMap<DocumentNode, Map<string, Compilation>>();
  let jit: typeof import('graphql-jit') | undefined;

  async function compile(args: ExecutionArgs): Promise<CompiledQuery | null> {
    jit ??= await import('graphql-jit');
    const compiled = jit.compileQuery(args.schema, args.document, args.operationName ?? undefined, { disableLeafSerialization: true });
    return jit.isCompiledQuery(compiled) ? compiled : null;
  }

  async function run(args: ExecutionArgs): Promise<ExecutionResult> {
    let byName = compilations.get(args.document);
    if (!byName) compilations.set(args.document, (byName = new Map<string, Compilation>()));
    const name = args.operationName ?? '';
    let compilation = byName.get(name);
    if (compilation === undefined) {
      byName.set(name, 'seen');
      return execute(args);
    }
    if (compilation === 'seen') byName.set(name, (compilation = await compile(args)));
    if (compilation === null) return execute(args);
    return inExecuteForm(await compilation.query(args.rootValue, args.contextValue, args.variableValues), args);
  }

  return { onExecute: ({ setExecuteFn }) => setExecuteFn(run as typeof execute) };
}

// The route table joined with the GraphQL schema: for each route, the field it runs, the selection it runs
// (every argument-less field, nested objects in full, or the route's named operation with its fragments
// inlined) and where a guide-form list finds its items.
// The handlers (sofaRoutes.ts) and the OpenAPI document (openapi.ts) both start from here, so they agree.
import {
  getNamedType,
  Kind,
  getNullableType,
  isListType,
  isObjectType,
  OperationTypeNode,
  type GraphQLField,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { buildOperationNodeForField, filterSchema } from '@graphql-tools/utils';
import { operation as namedOperation } from '../operations.js';
import { parsePathTemplate, pathParameters, type PathTemplate } from './paths.js';
import type { GuideKey, RestRoute } from './routes.js';

/** sofa-api's `depthLimit`: how often an object type may recur along one path of the selection. */
export const SELECTION_DEPTH = 1;

/** Where a route's response keeps the list items and the has-more flag, for the guide form. */
export type GuideSource = { key: GuideKey; items: string | null; hasMore: string | null };

export type RestOperation = {
  route: RestRoute;
  path: PathTemplate;
  pathParameters: string[];
  kind: OperationTypeNode;
  /** The schema as the REST facade sees it: this route's root field only, and no field that takes arguments
   * below the root (those are parameterised relations, which REST serves as routes of their own). */
  view: GraphQLSchema;
  field: GraphQLField<unknown, unknown>;
  /** What execution runs and the OpenAPI document describes: fields only, no fragments. */
  selection: OperationDefinitionNode;
  guide: GuideSource | null;
};

export function restOperations(schema: GraphQLSchema, routes: readonly RestRoute[]): RestOperation[] {
  return routes.map((route) => restOperation(schema, route));
}

function restOperation(schema: GraphQLSchema, route: RestRoute): RestOperation {
  const [rootName, fieldName = ''] = route.field.split('.') as [string, string?];
  const kind = rootName === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION;
  const problem = (text: string) => new Error(`REST route ${route.operationId} (${route.method} ${route.path}): ${text}`);
  if ((kind === OperationTypeNode.QUERY) !== (route.method === 'GET')) {
    throw problem('GET routes run queries; POST, PUT, PATCH and DELETE routes run mutations');
  }

  const view = filterSchema({
    schema,
    rootFieldFilter: (operation, name) => operation === rootName && name === fieldName,
    objectFieldFilter: (_type, _name, config) => !('args' in config) || Object.keys(config.args ?? {}).length === 0,
  });
  const root = kind === OperationTypeNode.QUERY ? view.getQueryType() : view.getMutationType();
  const field = root?.getFields()[fieldName];
  if (!field) throw problem(`the schema has no field ${route.field}`);

  const path = parsePathTemplate(route.path);
  const parameters = pathParameters(path);
  for (const name of parameters) {
    if (!field.args.some((arg) => arg.name === name)) throw problem(`{${name}} is not an argument of ${route.field}`);
  }
  const selection = route.selection
    ? namedSelection(route.selection, field, problem)
    : buildOperationNodeForField({ schema: view, kind, field: fieldName, models: [], circularReferenceDepth: SELECTION_DEPTH });
  const guide = route.guideKey ? guideSource(field, route.guideKey, problem) : null;
  return { route, path, pathParameters: parameters, kind, view, field, selection, guide };
}

/** A named operation over the route's field, its fragments inlined. Its variables must be exactly the field's
 * arguments: sofa fills variables named as the arguments, and an argument without a variable would be dropped. */
function namedSelection(name: string, field: GraphQLField<unknown, unknown>, problem: (text: string) => Error): OperationDefinitionNode {
  const document = namedOperation(name);
  const definition = document.definitions[0] as OperationDefinitionNode;
  const root = definition.selectionSet.selections[0];
  if (root?.kind !== Kind.FIELD || root.name.value !== field.name) throw problem(`operation ${name} does not select ${field.name}`);
  const variables = (definition.variableDefinitions ?? []).map((variable) => variable.variable.name.value).sort();
  const args = field.args.map((arg) => arg.name).sort();
  if (variables.join() !== args.join()) {
    throw problem(`operation ${name} must take exactly the arguments of ${field.name} as variables (${args.join(', ')})`);
  }
  const fragments = new Map(
    document.definitions
      .filter((node): node is FragmentDefinitionNode => node.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  return { ...definition, selectionSet: inlineFragments(definition.selectionSet, fragments) };
}

function inlineFragments(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): SelectionSetNode {
  return {
    ...set,
    selections: set.selections.flatMap((selection) => {
      if (selection.kind === Kind.FRAGMENT_SPREAD)
        return inlineFragments(fragments.get(selection.name.value)!.selectionSet, fragments).selections;
      if (selection.kind === Kind.INLINE_FRAGMENT) return inlineFragments(selection.selectionSet, fragments).selections;
      return selection.selectionSet ? [{ ...selection, selectionSet: inlineFragments(selection.selectionSet, fragments) }] : [selection];
    }),
  };
}

function guideSource(field: GraphQLField<unknown, unknown>, key: GuideKey, problem: (text: string) => Error): GuideSource {
  const type = getNullableType(field.type);
  if (isListType(type)) return { key, items: null, hasMore: null };
  if (isObjectType(type)) {
    const fields = type.getFields();
    const isList = (name: string) => fields[name] !== undefined && isListType(getNullableType(fields[name].type));
    if (isList('data') && getNamedType(fields['has_more']?.type)?.name === 'Boolean') {
      return { key, items: 'data', hasMore: 'has_more' };
    }
    if (isList(key)) return { key, items: key, hasMore: null };
  }
  throw problem(`the guide form needs a list, a {data, has_more} page or a {${key}} object`);
}

/** The media type a client names in Accept to get list responses in the guides' form. */
export const GUIDE_MEDIA_TYPE = 'application/vnd.messaging-crm.guide+json';

export function acceptsGuideForm(request: Request): boolean {
  return (request.headers.get('accept') ?? '').split(',').some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    return type === GUIDE_MEDIA_TYPE && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
  });
}

/** The guide form of a list response: `{<key>: [...], hasMore}`. */
export function toGuideForm(guide: GuideSource, body: unknown): Record<string, unknown> {
  const record = (body ?? {}) as Record<string, unknown>;
  const items = guide.items === null ? body : record[guide.items];
  const hasMore = guide.hasMore === null ? false : record[guide.hasMore] === true;
  return { [guide.key]: items, hasMore };
}

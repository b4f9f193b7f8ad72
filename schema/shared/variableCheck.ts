// Checks the variables of every execution with the contract's one rule (schema/shared/variables.ts) before GraphQL's
// own coercion runs, so that a bad value is the same VALIDATION_ERROR, with the same message and details,
// whether a GraphQL client, a REST route or an MCP tool sent it: the facades run their operations through
// Yoga's pipeline, and this hook is part of it.
import {
  getOperationAST,
  GraphQLError,
  Kind,
  type ExecutionArgs,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { invalid } from '../../resolvers/shared/errors.js';
import { toGraphQLError } from './errors.js';
import { checkVariables, operationVariables, type Variable } from './variables.js';

export function useVariableCheck(schema: GraphQLSchema): Plugin {
  return { ...checkVariablesBeforeExecution(schema), onValidate: ({ addValidationRule }) => addValidationRule(noNulInLiterals) };
}

/** The NUL rule of schema/shared/variables.ts for values written into the document itself rather than sent as variables. */
const noNulInLiterals: ValidationRule = (context) => ({
  Argument(argument) {
    for (const path of nulPaths(argument.value, argument.name.value)) {
      const refusal = invalid({ [path]: 'must not contain NUL characters' });
      context.reportError(toGraphQLError(refusal, new GraphQLError(refusal.message, { nodes: argument })));
    }
  },
});

function nulPaths(value: ValueNode, path: string): string[] {
  switch (value.kind) {
    case Kind.STRING:
      return value.value.includes('\u0000') ? [path] : [];
    case Kind.LIST:
      return value.values.flatMap((item, index) => nulPaths(item, `${path}.${index}`));
    case Kind.OBJECT:
      return value.fields.flatMap((field) => nulPaths(field.value, `${path}.${field.name.value}`));
    default:
      return [];
  }
}

function checkVariablesBeforeExecution(schema: GraphQLSchema): Plugin {
  // Documents are parsed once and cached (Yoga's parse cache; the facades' operations are loaded once).
  const cache = new WeakMap<OperationDefinitionNode, Variable[]>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const { document, operationName, variableValues } = args as ExecutionArgs;
      const definition = getOperationAST(document, operationName);
      if (!definition?.variableDefinitions?.length) return;
      let variables = cache.get(definition);
      if (!variables) {
        variables = operationVariables(schema, definition);
        cache.set(definition, variables);
      }
      const reasons = checkVariables(variables, variableValues ?? {});
      if (Object.keys(reasons).length > 0) setResultAndStopExecution({ errors: [toGraphQLError(invalid(reasons))] });
    },
  };
}

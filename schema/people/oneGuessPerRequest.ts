// One guess per request: a document a client sends to /graphql may not name a sign-in field (they run only
// through the console's /auth routes, schema/people/people.ts) nor change a password more than once, so aliases
// cannot pack many password guesses into one request past the lock-out. Checked in validation, which the
// facades' own operations skip (facades/core/gateway.ts), so the /auth routes' operations are not refused. The
// refusal is the request's 4xx whatever the Accept header (`spec: false`: not GraphQL-over-HTTP's 200).
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { SIGN_IN_DOOR_ONLY } from '../../resolvers/people/signIn.js';

/** The mutations only the /auth routes run. */
export const SIGN_IN_FIELDS: ReadonlySet<string> = new Set(['signIn', 'signOut', 'setUp', 'invitationAccept']);
/** The mutations that check a password a caller may be guessing, at most once per request. */
const PASSWORD_FIELDS: ReadonlySet<string> = new Set(['passwordChange']);

function oneGuessRule(context: ValidationContext): ASTVisitor {
  let passwordChecks = 0;
  return {
    Field(node) {
      if (context.getParentType()?.name !== 'Mutation') return;
      const name = node.name.value;
      if (SIGN_IN_FIELDS.has(name)) {
        context.reportError(
          new GraphQLError(SIGN_IN_DOOR_ONLY, { nodes: node, extensions: { code: 'FORBIDDEN', http: { status: 403, spec: false } } }),
        );
      } else if (PASSWORD_FIELDS.has(name) && ++passwordChecks === 2) {
        context.reportError(
          new GraphQLError('A request may check one password: send one passwordChange per request', {
            nodes: node,
            extensions: { code: 'VALIDATION_ERROR', http: { status: 400, spec: false } },
          }),
        );
      }
    },
  };
}

export function useOneGuessPerRequest(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(oneGuessRule);
    },
  };
}

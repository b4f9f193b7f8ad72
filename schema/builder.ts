// The one Pothos builder: plugins (scope-auth first), scalars, and the Context and AuthScopes types.
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin, { type AuthFailure, AuthScopeFailureType } from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from '../prisma/generated/pothos-prisma-types.js';
import { getDatamodel } from '../prisma/generated/pothos-prisma-types.js';
import { grants, type Permission } from '../resolvers/workspace/scopes.js';
import type { Context } from '../resolvers/shared/context.js';
import { DomainError } from '../resolvers/shared/errors.js';
import { isStorableInstant } from '../resolvers/shared/validation.js';
import { SIGN_IN_DOOR_ONLY } from '../resolvers/people/signIn.js';
import type { IsoTimestamp } from '../resolvers/shared/isoTimestamps.js';

function requiredPermissions(failure: AuthFailure): string[] {
  switch (failure.kind) {
    case AuthScopeFailureType.AnyAuthScopes:
    case AuthScopeFailureType.AllAuthScopes:
      return failure.failures.flatMap(requiredPermissions);
    case AuthScopeFailureType.AuthScope:
      return failure.scope === 'permission' ? [String(failure.parameter)] : [];
    default:
      return [];
  }
}

/** Scopes that are doors rather than permissions: who may run the field, said in words when refused. */
const DOOR_REFUSALS: Record<string, string> = {
  signInDoor: SIGN_IN_DOOR_ONLY,
  oauthDoor: 'The OAuth endpoints run this field only through their /oauth routes',
  person: 'Only a person signed in to the console may do this',
};

function refusedDoor(failure: AuthFailure): string | undefined {
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    return failure.failures.map(refusedDoor).find(Boolean);
  }
  return failure.kind === AuthScopeFailureType.AuthScope ? DOOR_REFUSALS[failure.scope] : undefined;
}

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { public: boolean; permission: Permission; signInDoor: boolean; oauthDoor: boolean; person: boolean };
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | IsoTimestamp };
    JSON: { Input: unknown; Output: unknown };
    JSONList: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (context) => ({
      public: true,
      permission: (permission) => context.actor !== null && grants(context.actor.scopes, permission),
      // Only the console's /auth routes set the door (facades/auth/routes.ts): /graphql, REST and MCP never do.
      signInDoor: context.signInDoor !== undefined,
      // Only the /oauth routes set it (facades/oauth/routes.ts), for the token, registration and revocation fields.
      oauthDoor: context.oauthDoor === true,
      // A person signed in to the console (cookie session): consent and connected apps.
      person: context.actor?.session !== undefined,
    }),
    unauthorizedError: (_parent, context, _info, result) => {
      const door = refusedDoor(result.failure);
      if (door && context.actor) return new DomainError('FORBIDDEN', door);
      if (door === SIGN_IN_DOOR_ONLY) return new DomainError('FORBIDDEN', door);
      if (!context.actor) return new DomainError('UNAUTHORIZED', 'Unauthorized');
      const needed = [...new Set(requiredPermissions(result.failure))];
      const scope = needed.join(' or ') || 'a scope';
      const message = context.actor.session
        ? `Your role (${context.actor.session.role}) does not allow this: it needs the ${scope} permission`
        : `This API key lacks the ${scope} scope`;
      return new DomainError('INSUFFICIENT_SCOPE', message, { required_scope: needed });
    },
  },
  prisma: {
    client: (context) => context.prisma,
    dmmf: getDatamodel(),
    // Outside production a selection planned and then not used is reported, as a JSON line like every other log line.
    onUnusedQuery:
      process.env.NODE_ENV === 'production'
        ? null
        : (info) =>
            process.stdout.write(
              `${JSON.stringify({ level: 40, time: Date.now(), service: 'messaging-crm', msg: `Prisma query was unused in resolver for ${info.parentType.name}.${info.fieldName}` })}\n`,
            ),
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time in UTC, for example 2026-01-31T09:30:00.000Z.',
  serialize: (value) => (typeof value === 'string' ? value : value.toISOString()),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : null;
    if (!date || !isStorableInstant(date)) throw new DomainError('VALIDATION_ERROR', 'Invalid date-time');
    return date;
  },
});

builder.scalarType('JSON', {
  description: 'A free-form JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
});

/** A JSON array (an automation's actions, a run's outcomes), so that JSON Schema clients are told it is a list. */
builder.scalarType('JSONList', {
  description: 'A JSON array of objects.',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

// The one Pothos builder: plugins (scope-auth first), scalars, and the Context and AuthScopes types.
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin, { type AuthFailure, AuthScopeFailureType } from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from '../prisma/generated/pothos-prisma-types.js';
import { getDatamodel } from '../prisma/generated/pothos-prisma-types.js';
import { grants, type Permission } from '../resolvers/workspace/scopes.js';
import type { Context } from '../resolvers/shared/context.js';
import { DomainError } from '../resolvers/shared/errors.js';
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

function refusesDoor(failure: AuthFailure): boolean {
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    return failure.failures.some(refusesDoor);
  }
  return failure.kind === AuthScopeFailureType.AuthScope && failure.scope === 'signInDoor';
}

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { public: boolean; permission: Permission; signInDoor: boolean };
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
    }),
    unauthorizedError: (_parent, context, _info, result) => {
      if (refusesDoor(result.failure)) return new DomainError('FORBIDDEN', SIGN_IN_DOOR_ONLY);
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
    // Years 1 to 9999: what PostgreSQL's timestamptz and ISO 8601 without an expanded year both hold.
    const year = date?.getUTCFullYear() ?? Number.NaN;
    if (!date || Number.isNaN(year) || year < 1 || year > 9999) throw new DomainError('VALIDATION_ERROR', 'Invalid date-time');
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

import { builder } from '../builder.js';
import { listUsers } from '../../resolvers/people/users.js';
import { EMAIL } from '../shared/jsonSchemaHints.js';

builder.prismaObject('User', {
  description: 'A member of the workspace team.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true, description: 'Display name.' }),
    email: t.exposeString('email', EMAIL),
    role: t.exposeString('role', { nullable: true, description: 'Workspace role: owner, admin or member.' }),
    status: t.exposeString('status', { description: 'active, or removed (no longer signs in; kept on what they wrote).' }),
    availability: t.exposeString('availability', { description: 'online or away (round-robin assignment skips people who are away).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('users', (t) =>
  t.prismaField({
    type: ['User'],
    description: 'All users of the authenticated workspace.',
    authScopes: { permission: 'users' },
    resolve: (query, _root, _args, ctx) => listUsers(ctx, query),
  }),
);

import { builder } from '../builder.js';
import { checkHealth } from '../../resolvers/system/health.js';

const Health = builder.objectRef<Awaited<ReturnType<typeof checkHealth>>>('Health').implement({
  fields: (t) => ({
    status: t.exposeString('status', { description: 'ok, or unavailable when the database does not answer.' }),
    service: t.exposeString('service'),
    version: t.exposeString('version'),
  }),
});

builder.queryField('health', (t) =>
  t.field({
    type: Health,
    description: 'Whether the service and its database answer. Needs no API key.',
    authScopes: { public: true },
    resolve: (_root, _args, ctx) => checkHealth(ctx),
  }),
);

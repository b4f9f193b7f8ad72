// The layering, checked in CI (`npm run depcheck`). From the bottom up: infra/ (HTTP pipeline, transport,
// limits, observability, config, db, crypto), adapters/ (messaging providers), resolvers/ (the domain, plain
// functions over Prisma), schema/ (the GraphQL contract), facades/ (REST, MCP, public surfaces over GraphQL),
// workers/ (background jobs), app/ (start-up wiring). A layer imports only layers below it.
const layer = (name) => `^${name}/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Modules form no import cycle.', from: {}, to: { circular: true } },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      scope: 'folder',
      comment: 'Folders form no import cycle either: a folder never imports one that imports it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'infra-is-the-bottom',
      severity: 'error',
      comment: 'Infrastructure knows nothing of the domain, the contract, the facades, the workers or the start-up wiring.',
      from: { path: layer('infra') },
      to: { path: ['^adapters/', '^resolvers/', '^schema/', '^facades/', '^workers/', '^app/'] },
    },
    {
      name: 'adapters-below-the-domain',
      severity: 'error',
      comment: 'Provider adapters speak to the outside world only; the domain uses them, never the reverse.',
      from: { path: layer('adapters') },
      to: { path: ['^resolvers/', '^schema/', '^facades/', '^workers/', '^app/'] },
    },
    {
      name: 'resolvers-know-no-transport',
      severity: 'error',
      comment: 'Resolvers are plain functions: no GraphQL schema, facade, worker, start-up wiring or HTTP layer.',
      from: { path: layer('resolvers') },
      to: { path: ['^schema/', '^facades/', '^workers/', '^app/', '^infra/(http|transport|limits|observability)/'] },
    },
    {
      name: 'schema-below-facades',
      severity: 'error',
      comment: 'The contract does not know who serves it.',
      from: { path: layer('schema') },
      to: { path: ['^facades/', '^workers/', '^app/'] },
    },
    {
      name: 'facades-know-only-the-contract',
      severity: 'error',
      comment:
        'Facades run GraphQL operations and never call the domain: of resolvers/ they know only the error codes (DomainError) and the key scopes.',
      from: { path: layer('facades') },
      to: { path: '^resolvers/', pathNot: ['^resolvers/shared/errors\\.ts$', '^resolvers/workspace/scopes\\.ts$'] },
    },
    {
      name: 'facades-never-touch-prisma',
      severity: 'error',
      comment: "Facades run GraphQL operations; the database is the resolvers' business.",
      from: { path: layer('facades') },
      to: { path: ['^prisma/', '^workers/', '^app/'] },
    },
    {
      name: 'workers-below-the-wiring',
      severity: 'error',
      from: { path: layer('workers') },
      to: { path: ['^app/'] },
    },
    {
      name: 'workers-run-no-graphql-themselves',
      severity: 'error',
      comment:
        'Workers call resolvers, adapters and infra; an operation they need runs through the gateway, which app/ hands them (app/backgroundWork.ts).',
      from: { path: layer('workers') },
      to: { path: ['^schema/', '^facades/'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: ['^node_modules', '^dist/'] },
    includeOnly: { path: ['^(app|infra|adapters|resolvers|schema|facades|workers|prisma)/'] },
    doNotFollow: { path: ['node_modules', '^prisma/generated/'] },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};

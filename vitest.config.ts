import { defineConfig } from 'vitest/config';

// Tests run on a fresh in-memory embedded database per file by default, and against the PostgreSQL
// server named by TEST_DATABASE_URL when it is set (migrated once in test/support/globalSetup.ts).
export default defineConfig({
  // graphql ships CommonJS and ESM builds; packages that require() it would get a second copy ("another
  // module or realm"), so every import resolves to the CommonJS build, as under plain Node.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    setupFiles: ['test/support/eachFile.ts'],
    testTimeout: 30_000,
    // Hooks start whole server processes in some files; on a loaded machine that alone can take a minute.
    hookTimeout: 180_000,
    pool: 'forks',
    // Test files run one after another in one process that keeps its loaded modules: loading the service's modules
    // anew for every file cost about 5 s a file (a third of the run). Each file still opens its own harness and database.
    isolate: false,
    // Servers that tests start as child processes deliver webhooks, send campaigns and run the AI agent only when a test asks
    // for it: on a shared PostgreSQL their workers would otherwise claim other test files' work.
    env: { NODE_ENV: 'test', WEBHOOK_WORKERS: 'false', CAMPAIGN_WORKERS: 'false', AGENT_WORKERS: 'false' },
  },
});

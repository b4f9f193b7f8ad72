// Run before every test file (vitest.config.ts, setupFiles). Test files share one process and its modules
// (isolate: false), so what must happen after each file is registered here, not at a support module's top level,
// which runs for the first file that imports it only.
import { afterAll } from 'vitest';
import { killStartedServers } from './server.js';

afterAll(() => killStartedServers());

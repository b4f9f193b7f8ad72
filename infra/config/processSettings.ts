// What `npm start` and `npm run worker` give the node process, from package.json's config: node's flags
// (`config.node_flags`) and the C allocator's environment (`config.allocator_env`, `NAME=value` pairs). The tests'
// and the benchmark's servers start dist/main.js with them, so that it runs as production runs it.
import { readFileSync } from 'node:fs';
import { projectPath } from '../paths.js';

const { config } = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as {
  config: { node_flags: string; allocator_env: string };
};

export const NODE_FLAGS: string[] = config.node_flags.split(' ');

export const ALLOCATOR_ENV: Record<string, string> = Object.fromEntries(
  config.allocator_env.split(' ').map((pair) => pair.split('=') as [string, string]),
);

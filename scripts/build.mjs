// `npm run build`: the server and the worker process as ES modules, dist/main.js and dist/worker.js, for
// `npm start`, `npm run worker` and production. Dependencies
// stay in node_modules (not bundled); only this project's TypeScript is compiled, in about a second.
// Running compiled JavaScript rather than through tsx saves the TypeScript loader's thread and memory
// (about 75 MB resident) and its start-up time. Type checking is `npm run typecheck`.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'app/main.ts', worker: 'app/worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

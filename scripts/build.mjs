// `npm run build`: the server and the worker process as ES modules, dist/main.js and dist/worker.js, for
// `npm start`, `npm run worker` and production, and the console (console/, Preact) as one script and one
// stylesheet under dist/console/ for the browser. Server dependencies
// stay in node_modules (not bundled); only this project's TypeScript is compiled, in about a second.
// Running compiled JavaScript rather than through tsx saves the TypeScript loader's thread and memory
// (about 75 MB resident) and its start-up time. Type checking is `npm run typecheck`.
import { copyFile, mkdir } from 'node:fs/promises';
import { build } from 'esbuild';

const server = build({
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

// The console is served by facades/console/pages.ts under a CSP allowing only its own script and stylesheet.
const browserApp = build({
  entryPoints: { app: 'console/main.tsx', 'app-styles': 'console/styles.css' },
  outdir: 'dist/console',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: ['chrome111', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: true,
  tsconfig: 'console/tsconfig.json',
  logLevel: 'warning',
});

await Promise.all([server, browserApp]);
await mkdir('dist/console', { recursive: true });
await copyFile('console/index.html', 'dist/console/index.html');

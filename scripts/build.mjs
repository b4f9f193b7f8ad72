// `npm run build`: the server as one ES module, dist/main.js, for `npm start` and production. Dependencies
// stay in node_modules (not bundled); only this project's TypeScript is compiled, in about a second.
// Running compiled JavaScript rather than through tsx saves the TypeScript loader's thread and memory
// (about 75 MB resident) and its start-up time. Type checking is `npm run typecheck`.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'app/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

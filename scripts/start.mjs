// `npm start` and `npm run worker`: runs dist/main.js (or dist/worker.js with the argument `worker`) in this
// process, building first only when there is no build or a file it was made from changed since
// (scripts/buildFreshness.mjs). `npm install` builds once, so a start is a check of a few hundred file times, not a build.
import { fileURLToPath, URL } from 'node:url';
import { buildIsOutdated } from './buildFreshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = process.argv[2] === 'worker' ? 'worker' : 'main';

if (await buildIsOutdated(root)) {
  process.chdir(root);
  await import('./build.mjs');
}
await import(`../dist/${entry}.js`);

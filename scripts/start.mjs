// `npm start`, `npm run worker` and `npm run cli`: runs dist/main.js (or dist/worker.js with the argument `worker`,
// dist/cli.js with `cli` and the command after it) in this process, building first only when there is no build or a
// file it was made from changed since (scripts/buildFreshness.mjs). `npm install` builds once, so a start is a check
// of a few hundred file times, not a build; the CLI's bundle starts in half the time tsx took to load its sources.
import module from 'node:module';
import { fileURLToPath, URL } from 'node:url';
import { buildIsOutdated } from './buildFreshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Node 22.1 and later keep V8's compiled code of the bundle on disk between starts, beside it (entries are keyed by
// the file's content, so a new build compiles once); Node 20 has no such cache and compiles it at every start.
module.enableCompileCache?.(`${root}dist/.compile-cache`);
// The entry's own arguments follow its name, which is taken out so that the entry reads them where it would.
const entry = ['worker', 'cli'].includes(process.argv[2]) ? process.argv.splice(2, 1)[0] : 'main';

if (await buildIsOutdated(root)) {
  process.chdir(root);
  await import('./build.mjs');
}
await import(`../dist/${entry}.js`);
// Node writes the cache as it exits; a server runs until it is stopped, perhaps by SIGKILL, so it is written once
// the entry has started (Node 23 and later).
module.flushCompileCache?.();

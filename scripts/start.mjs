// `npm start` and `npm run worker`: runs dist/main.js (or dist/worker.js with the argument `worker`) in this
// process, building first only when there is no build or a file it was made from changed since
// (dist/inputs.json, written last by scripts/build.mjs, lists them). `npm install` builds once, so a start is
// a check of a few hundred file times, not a build.
import { stat, readFile } from 'node:fs/promises';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = process.argv[2] === 'worker' ? 'worker' : 'main';

async function builtAt() {
  const info = await stat(`${root}dist/inputs.json`).catch(() => null);
  return info?.mtimeMs ?? null;
}

async function outdated() {
  const at = await builtAt();
  if (at === null) return true;
  const inputs = JSON.parse(await readFile(`${root}dist/inputs.json`, 'utf8'));
  const times = await Promise.all(
    inputs.map((input) =>
      stat(`${root}${input}`).then(
        (info) => info.mtimeMs,
        () => Infinity,
      ),
    ),
  );
  return times.some((time) => time > at);
}

if (await outdated()) {
  process.chdir(root);
  await import('./build.mjs');
}
await import(`../dist/${entry}.js`);

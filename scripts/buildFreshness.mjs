// Whether dist/ must be built again: there is no build, or a file it was made from changed since (dist/inputs.json,
// written last by scripts/build.mjs, lists them). Used by `npm start` and by the tests' global set-up, so that both
// build only after a change, and two test runs side by side (CI) never rewrite dist/ under each other.
import { stat, readFile } from 'node:fs/promises';

/** `root` ends with a slash. */
export async function buildIsOutdated(root) {
  const built = await stat(`${root}dist/inputs.json`).catch(() => null);
  if (built === null) return true;
  const inputs = JSON.parse(await readFile(`${root}dist/inputs.json`, 'utf8'));
  const times = await Promise.all(
    inputs.map((input) =>
      stat(`${root}${input}`).then(
        (info) => info.mtimeMs,
        () => Infinity,
      ),
    ),
  );
  return times.some((time) => time > built.mtimeMs);
}

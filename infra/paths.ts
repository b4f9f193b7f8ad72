// Files the service reads at run time (migrations, operations, page assets, package.json) are found from the
// project root: the nearest folder above this module that holds package.json. The same code then works from
// its source file (tsx, tests) and bundled into dist/main.js, which sit at different depths.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`No package.json above ${start}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

export function projectPath(...segments: string[]): string {
  return join(PROJECT_ROOT, ...segments);
}

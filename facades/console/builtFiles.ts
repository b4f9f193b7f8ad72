// The files scripts/build.mjs writes under dist/console for the console and GraphiQL pages.
import { readFile } from 'node:fs/promises';
import { projectPath } from '../../infra/paths.js';

export const CONSOLE_NOT_BUILT = 'The console is not built: run `npm run build` (npm install and npm start do it).';

export function builtFilePath(name: string): string {
  return projectPath('dist', 'console', name);
}

const files = new Map<string, Promise<string | null>>();

/** Files are read once they exist; a later rebuild is served after a restart. */
export function builtFile(name: string): Promise<string | null> {
  let file = files.get(name);
  if (!file) {
    // A missing file is not remembered: a build made while the server runs (npm run dev) is served at once.
    file = readFile(builtFilePath(name), 'utf8').catch(() => {
      files.delete(name);
      return null;
    });
    files.set(name, file);
  }
  return file;
}

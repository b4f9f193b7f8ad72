// The files scripts/build.mjs writes under dist/console for the console and GraphiQL pages.
import { readFile } from 'node:fs/promises';
import { projectPath } from '../../infra/paths.js';

/** What a page answers while its files are not built yet. */
export function notBuiltResponse(): Response {
  return new Response('The console is not built: run `npm run build` (npm install and npm start do it).', {
    status: 503,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' },
  });
}

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

// Where the running server can be reached, for the CLI: the server records its own address in DATA_DIR once it
// listens (beside the embedded database's socket and lock) and removes it when it stops, so the callback URLs the
// CLI prints name the port the server really listens on, not a default one. A record whose process is gone is ignored.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RECORD = 'server-address.json';

type Record = { url: string; pid: number };

/** Records this process's address; returns the function that removes the record. */
export function recordServerAddress(dataDir: string, url: string): () => void {
  const path = join(dataDir, RECORD);
  writeFileSync(path, JSON.stringify({ url, pid: process.pid } satisfies Record));
  return () => {
    if (runningServerAddress(dataDir) === url) rmSync(path, { force: true });
  };
}

/** The address of the server running on `dataDir`, if one is. */
export function runningServerAddress(dataDir: string): string | undefined {
  try {
    const record = JSON.parse(readFileSync(join(dataDir, RECORD), 'utf8')) as Record;
    return isAlive(record.pid) ? record.url : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

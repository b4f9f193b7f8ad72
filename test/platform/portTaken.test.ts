// A port another process holds, as a newcomer meets it with a second `npm start`: the process says so in one JSON
// log line that names the setting (PORT or METRICS_PORT), the port and the process, and exits 1, with nothing
// but JSON lines on its output (no EADDRINUSE stack trace). It stops as a signal stops it: its database is closed
// first, so the DATA_DIR it created starts normally once the port is free.
import { describe, expect, it } from 'vitest';
import { startServer, tempDir } from '../support/server.js';

/** What a server that could not start printed, taken from startServer's refusal. */
async function failedStart(dataDir: string, env: Record<string, string>): Promise<string> {
  const failure = await startServer({ dataDir, env }).then(
    () => null,
    (error: Error) => error.message,
  );
  expect(failure).toMatch(/^server exited \(1\) before the expected log line:/);
  return failure!.split('\n').slice(1).join('\n');
}

describe('a port already taken', { timeout: 180_000 }, () => {
  it('is one JSON line naming PORT or METRICS_PORT and the process, then exit 1', async () => {
    const first = await startServer({ dataDir: tempDir('port-holder') });
    try {
      for (const [setting, port] of [
        ['PORT', first.port],
        ['METRICS_PORT', first.metricsPort],
      ] as const) {
        const dataDir = tempDir('port-taken');
        const output = await failedStart(dataDir, { [setting]: String(port) });
        const lines = output.split('\n').filter((line) => line.trim() !== '');
        for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
        const fatal = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['level'] === 60);
        expect(fatal).toEqual([expect.objectContaining({ setting, port, process: 'the server', code: 'EADDRINUSE' })]);
        expect(String(fatal[0]!['msg'])).toContain(`${setting} ${port}`);
        expect(output).not.toMatch(/\n\s+at /);
        expect(lines.map((line) => JSON.parse(line) as { msg: string }).map((line) => line.msg)).toContain('database stopped');

        const restarted = await startServer({ dataDir });
        await restarted.stop();
      }
    } finally {
      await first.stop();
    }
  });
});

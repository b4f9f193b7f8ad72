// Starts the service and the baseline as child processes (as in production: their own process and
// memory), waits until they listen (both serve HTTPS only), and samples their resident memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ALLOCATOR_ENV, NODE_FLAGS } from '../infra/config/processSettings.js';

export type Server = { url: string; pid: number; stop(): Promise<void>; rssMb(): number; maxRssMb(): number; resetRss(): void };

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** The service as `npm start` runs it: dist/main.js with the node flags and the allocator setting of package.json's
 * config, `nodeArgs` before them (a profiler's). */
export function startService(env: Record<string, string>, nodeArgs: string[] = []): Promise<Server> {
  return startProcess([...nodeArgs, ...NODE_FLAGS, 'dist/main.js'], { ...ALLOCATOR_ENV, ...env });
}

/** `args` are node's: the service's are startService's, the baseline runs through tsx. */
export function startProcess(args: string[], env: Record<string, string>): Promise<Server> {
  const script = args.join(' ');
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let maxRss = 0;
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, rssMb(child.pid!));
  }, 250);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on port (\d+)/.exec(output)?.[1];
      if (!port) return;
      child.stdout?.off('data', onData);
      child.stdout?.resume(); // keep draining, or the child blocks once the pipe is full
      resolve({
        url: `https://127.0.0.1:${port}`,
        pid: child.pid!,
        rssMb: () => rssMb(child.pid!),
        maxRssMb: () => maxRss,
        resetRss: () => {
          maxRss = rssMb(child.pid!);
        },
        stop: () =>
          new Promise((done) => {
            clearInterval(sampler);
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output.slice(-2000)}`)));
  });
}

// Where the service's CPU time goes under load: the service runs with --cpu-prof while autocannon drives one
// read, and the samples taken after the warm-up are grouped by what they belong to (the package of the
// sampled function; socket writes by who wrote). The table lands in docs/performance.md beside the targets.
// The service is one bundle (dist/main.js, dependencies included): a sampled position in it is traced back to
// its source file, in this project or a package, through the bundle's source map.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure } from './load.js';
import { startService } from './servers.js';

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: Frame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

export type ProfileShare = { part: string; percent: number };
export type ProfileResult = { read: string; requests: number; busy_percent: number; cpu_ms_per_request: number; shares: ProfileShare[] };

const PARTS: [string, RegExp][] = [
  ['Prisma client (query building, plan interpretation, result mapping)', /@prisma\//],
  ['pg driver (protocol, result parsing)', /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//],
  ['GraphQL execution (graphql-js, @graphql-tools executor)', /node_modules\/(graphql|@graphql-tools)\//],
  ['Pothos (selection mapping, scope checks)', /@pothos\//],
  ['Yoga and its HTTP layer (@whatwg-node, envelop)', /node_modules\/(graphql-yoga|@whatwg-node|@envelop|@graphql-yoga)\//],
  ['sofa-api and its router (fets, URLPattern)', /node_modules\/(sofa-api|fets|urlpattern-polyfill)\//],
  ['logs and metrics (pino, prom-client)', /node_modules\/(pino|sonic-boom|prom-client)\//],
  ["this service's own code", /^project:/],
];

let bundleMap: SourceMap | null = null;
const sources = new WeakMap<Frame, string>();

/** Where a sampled position comes from: `node_modules/<package>/…`, `project:<file>` or the runtime's own URL. */
function sourceOf(frame: Frame): string {
  if (!frame.url.endsWith('/dist/main.js')) return frame.url;
  let source = sources.get(frame);
  if (source === undefined) {
    bundleMap ??= new SourceMap(JSON.parse(readFileSync('dist/main.js.map', 'utf8')));
    const original = (bundleMap.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string }).originalSource ?? '';
    const inPackage = original.indexOf('node_modules/');
    source = inPackage >= 0 ? original.slice(inPackage) : `project:${original}`;
    sources.set(frame, source);
  }
  return source;
}

function partOf(frame: Frame, writer: string | null): string {
  if (frame.functionName === '(garbage collector)') return 'garbage collection';
  if (frame.functionName === '(idle)') return 'idle';
  if (frame.functionName === 'writev' || frame.functionName === 'writeBuffer' || frame.functionName === 'writeUtf8String') {
    return writer === 'pg' ? 'socket writes to PostgreSQL (system calls)' : 'socket writes to clients (TLS, system calls)';
  }
  const source = sourceOf(frame);
  for (const [part, pattern] of PARTS) if (pattern.test(source)) return part;
  return 'Node.js runtime (streams, TLS, timers, promises)';
}

export function summarize(profile: CpuProfile, skipMs: number): { shares: ProfileShare[]; busyMs: number; totalMs: number } {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const writerOf = (id: number): string | null => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (/node_modules\/pg\//.test(sourceOf(byId.get(at)!.callFrame))) return 'pg';
    }
    return null;
  };
  const time = new Map<string, number>();
  let elapsed = 0;
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    elapsed += delta;
    if (elapsed < skipMs * 1000) return;
    total += delta;
    const part = partOf(byId.get(id)!.callFrame, writerOf(id));
    time.set(part, (time.get(part) ?? 0) + delta);
  });
  const busy = total - (time.get('idle') ?? 0);
  const shares = [...time]
    .filter(([part]) => part !== 'idle')
    .map(([part, micros]) => ({ part, percent: Math.round((1000 * micros) / Math.max(1, busy)) / 10 }))
    .sort((a, b) => b.percent - a.percent);
  return { shares, busyMs: busy / 1000, totalMs: total / 1000 };
}

export async function profileRead(options: {
  env: Record<string, string>;
  read: { name: string; path: string };
  key: string;
  warmupSeconds: number;
  seconds: number;
  connections: number;
}): Promise<ProfileResult> {
  const dir = mkdtempSync(join(tmpdir(), 'crm-bench-profile-'));
  const launched = performance.now();
  const service = await startService(options.env, ['--cpu-prof', '--cpu-prof-dir', dir]);
  const headers = { authorization: `Bearer ${options.key}` };
  try {
    await measure({ url: `${service.url}${options.read.path}`, headers, seconds: options.warmupSeconds, connections: options.connections });
    const skipMs = performance.now() - launched;
    const load = await measure({
      url: `${service.url}${options.read.path}`,
      headers,
      seconds: options.seconds,
      connections: options.connections,
    });
    await service.stop();
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('the service wrote no CPU profile');
    // The profile's clock starts as the process boots, just after `launched`: skipping start-up and warm-up as
    // timed from `launched` drops at most the first few milliseconds of the measured load.
    const { shares, busyMs } = summarize(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, skipMs);
    return {
      read: options.read.name,
      requests: load.total,
      busy_percent: Math.round((100 * busyMs) / (options.seconds * 1000)),
      cpu_ms_per_request: Math.round((100 * busyMs) / Math.max(1, load.total)) / 100,
      shares,
    };
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

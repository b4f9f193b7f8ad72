// One measured load: autocannon against a URL for a fixed time, reduced to the numbers the report needs.
import autocannon from 'autocannon';

export type LoadResult = { requests_per_sec: number; p50_ms: number; p99_ms: number; errors: number; non2xx: number; total: number };

export type LoadSpec = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Distinct request bodies or paths cycled through (e.g. one message per conversation). */
  requests?: { path?: string; body?: string }[];
  seconds: number;
  connections: number;
};

export async function measure(spec: LoadSpec): Promise<LoadResult> {
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    requests: spec.requests?.map((request) => ({
      ...(request.path ? { path: request.path } : {}),
      ...(request.body ? { body: request.body } : {}),
    })),
    duration: spec.seconds,
    connections: spec.connections,
  });
  return {
    // Over the whole run rather than autocannon's average of whole seconds, which a run of a second or two barely has.
    requests_per_sec: Math.round(result.requests.total / result.duration),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

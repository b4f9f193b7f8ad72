// The process's Prometheus metrics, one registry for everything the process does. The HTTP pipeline feeds
// the request counter and latency histogram; webhook delivery workers (workers/webhooks/worker.ts) feed the
// two webhook metrics. Served by infra/observability/metricsServer.ts on METRICS_PORT, never on the public port.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request reaching the application to its response head, by method, route and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

export const webhookQueueDepth = new Gauge({
  name: 'webhook_queue_depth',
  help: 'Webhook deliveries due and waiting for a worker, counted every WEBHOOK_DEPTH_SAMPLE_MS by each delivery worker (at most 100000).',
  registers: [metricsRegistry],
});

export const webhookDeliveryFailures = new Counter({
  name: 'webhook_delivery_failures_total',
  help: 'Failed webhook delivery attempts, by reason: status (a non-2xx answer), timeout, network, tls, refused (internal or non-https target), secret (cannot be unsealed).',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

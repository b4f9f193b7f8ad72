// The process's Prometheus metrics, one registry for everything the process does. The HTTP pipeline feeds
// the request counter and latency histogram; webhook delivery workers feed the two webhook metrics:
//   import { webhookQueueDepth, webhookDeliveryFailures } from '../observability/metrics.js';
//   webhookQueueDepth.set(pending);  webhookDeliveryFailures.inc({ reason: 'timeout' });
// Served by observability/metricsServer.ts on METRICS_PORT, never on the public port.
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
  help: 'Webhook deliveries waiting to be attempted.',
  registers: [metricsRegistry],
});

export const webhookDeliveryFailures = new Counter({
  name: 'webhook_delivery_failures_total',
  help: 'Failed webhook delivery attempts, by reason (for example timeout, network, status).',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

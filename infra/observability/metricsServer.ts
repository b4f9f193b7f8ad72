// GET /metrics in Prometheus text format, on a listener of its own (METRICS_HOST:METRICS_PORT, loopback by
// default) so that metrics are never reachable through the public HTTPS port. Any process of the service
// (API server, worker) can start one; plain HTTP because it is scraped from the host or a private network.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody } from '../http/errorResponse.js';
import { metricsRegistry } from './metrics.js';

export type MetricsServer = { port: number; close(): Promise<void> };

export async function startMetricsServer(host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://metrics').pathname;
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(errorBody('NOT_FOUND', `No route ${request.method} ${path}`)));
      return;
    }
    metricsRegistry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': metricsRegistry.contentType });
        response.end(text);
      },
      () => {
        response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify(errorBody('INTERNAL', 'Metrics could not be collected')));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

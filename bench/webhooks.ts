// Webhook fan-out: how many deliveries per second the service's delivery workers get to a local HTTPS
// receiver. The bench subscribes `subscriptions` receiver URLs to message.status through the REST API,
// writes `events` events into the outbox in one statement (as if the service had recorded them), and times
// from that commit to the receiver holding every (event, subscription) delivery.
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadCertificate } from '../infra/transport/certificate.js';
import { DELIVERY_ID_HEADER } from '../workers/webhooks/sender.js';

export type FanOutResult = {
  events: number;
  subscriptions: number;
  deliveries: number;
  seconds: number;
  deliveries_per_sec: number;
  duplicates: number;
};

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: { id?: string } }>;

export async function startReceiver(): Promise<{ port: number; certFile: string; received: Map<string, number>; close(): void }> {
  const certificate = await loadCertificate({ dataDir: join(tmpdir(), 'crm-bench-receiver') });
  const received = new Map<string, number>();
  const server = createServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers[DELIVERY_ID_HEADER] ?? '');
      received.set(id, (received.get(id) ?? 0) + 1);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    certFile: certificate.certFile,
    received,
    close: () => server.close(),
  };
}

export async function measureFanOut(options: {
  databaseUrl: string;
  workspaceId: string;
  api: Api;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  events: number;
  subscriptions: number;
  timeoutMs: number;
}): Promise<FanOutResult> {
  const { api, receiver } = options;
  const created: string[] = [];
  for (let index = 0; index < options.subscriptions; index++) {
    const answer = await api('POST', '/api/v1/webhooks', {
      url: `https://127.0.0.1:${receiver.port}/hooks/${index}`,
      events: ['message.status'],
    });
    if (answer.status !== 201 || !answer.body.id) throw new Error(`webhook subscription refused: ${JSON.stringify(answer.body)}`);
    created.push(answer.body.id);
  }
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
  try {
    receiver.received.clear();
    const started = performance.now();
    await pool.query(
      `INSERT INTO events (id, company_id, type, body, created_at)
       SELECT id, $1, 'message.status',
              json_build_object('id', 'evt_' || id, 'type', 'message.status', 'created_at', now(),
                                'data', json_build_object('message_id', gen_random_uuid(), 'status', 'delivered'))::text,
              now()
       FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, $2::int)) AS generated`,
      [options.workspaceId, options.events],
    );
    const expected = options.events * options.subscriptions;
    let finished = started;
    while (receiver.received.size < expected && performance.now() - started < options.timeoutMs) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = performance.now();
    }
    const seconds = (finished - started) / 1000;
    const duplicates = [...receiver.received.values()].reduce((sum, count) => sum + count - 1, 0);
    return {
      events: options.events,
      subscriptions: options.subscriptions,
      deliveries: receiver.received.size,
      seconds: Math.round(seconds * 100) / 100,
      deliveries_per_sec: Math.round(receiver.received.size / seconds),
      duplicates,
    };
  } finally {
    await pool.end();
    for (const id of created) await api('DELETE', `/api/v1/webhooks/${id}`);
  }
}

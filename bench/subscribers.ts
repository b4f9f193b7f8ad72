// Live updates at scale: many GraphQL SSE subscribers of one workspace (the graphql-sse protocol's
// distinct-connections mode, as dashboards use it), then signed inbound webhooks; measures how long each
// message takes from the provider's POST to every subscriber, and the service's memory per idle subscriber.
// The SSE client is a raw HTTPS request per subscriber: a thousand graphql-sse clients would measure the
// client library's own overhead on the same two cores.
import { request as httpsRequest, Agent } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { hubSignature, inboundPayload } from '../test/support/whatsappPayloads.js';

export type SubscribersResult = {
  subscribers: number;
  messages: number;
  /** Deliveries received of subscribers × messages. */
  deliveries: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Growth of the service's resident memory per connected, idle subscriber. */
  memory_per_subscriber_kb: number;
};

export type LiveWorkspace = { key: string; phoneNumberId: string; appSecret: string };

type Subscriber = { response: IncomingMessage; arrivals: Map<string, number> };

const QUERY = JSON.stringify({ query: 'subscription { messageCreated { message { body } } }' });

function subscribe(url: string, key: string, agent: Agent): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${url}/graphql`,
      {
        method: 'POST',
        agent,
        rejectUnauthorized: false,
        headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`subscription answered ${response.statusCode}`));
        const arrivals = new Map<string, number>();
        let buffered = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const now = performance.now();
          buffered += chunk;
          const events = buffered.split('\n\n');
          buffered = events.pop() ?? '';
          for (const event of events) {
            const data = /^data: (.*)$/m.exec(event)?.[1];
            const body = data ? (JSON.parse(data) as { data?: { messageCreated?: { message?: { body?: string } } } }) : null;
            const text = body?.data?.messageCreated?.message?.body;
            if (text) arrivals.set(text, now);
          }
        });
        resolve({ response, arrivals });
      },
    );
    request.on('error', reject);
    request.end(QUERY);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureSubscribers(options: {
  url: string;
  workspace: LiveWorkspace;
  subscribers: number;
  messages: number;
  rssMb: () => number;
}): Promise<SubscribersResult> {
  const { url, workspace } = options;
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  await settle(2000);
  const rssBefore = options.rssMb();
  const subscribers: Subscriber[] = [];
  // Connected in batches: a thousand TLS handshakes at once would measure the handshake queue instead.
  for (let index = 0; index < options.subscribers; index += 50) {
    const batch = Math.min(50, options.subscribers - index);
    subscribers.push(...(await Promise.all(Array.from({ length: batch }, () => subscribe(url, workspace.key, agent)))));
  }
  await settle(3000);
  const rssAfter = options.rssMb();
  let posts = 0;
  /** Posts one inbound message (each from a contact of its own) and waits until every subscriber has it; its
   * latency per subscriber. */
  async function deliverOne(text: string): Promise<number[]> {
    const from = `1555${String(7_000_000 + posts++)}`;
    const raw = JSON.stringify(inboundPayload(workspace.phoneNumberId, { from, text }));
    const posted = performance.now();
    const answer = await fetchStatus(`${url}/webhooks/whatsapp`, raw, hubSignature(raw, workspace.appSecret), agent);
    if (answer !== 200) throw new Error(`the inbound webhook answered ${answer}`);
    const deadline = posted + 10_000;
    while (performance.now() < deadline && subscribers.some((subscriber) => !subscriber.arrivals.has(text))) await settle(20);
    await settle(200);
    return subscribers.flatMap((subscriber) => {
      const arrived = subscriber.arrivals.get(text);
      return arrived === undefined ? [] : [arrived - posted];
    });
  }
  const latencies: number[] = [];
  try {
    // Unmeasured, as every read is warmed up first: the service's first inbound message compiles its code paths.
    await deliverOne(`bench live warm-up ${Date.now()}`);
    for (let message = 0; message < options.messages; message++) {
      latencies.push(...(await deliverOne(`bench live ${message} ${Date.now()}`)));
    }
  } finally {
    for (const subscriber of subscribers) subscriber.response.destroy();
    agent.destroy();
  }
  const sorted = latencies.sort((a, b) => a - b);
  return {
    subscribers: options.subscribers,
    messages: options.messages,
    deliveries: latencies.length,
    p50_ms: Math.round(percentile(sorted, 50)),
    p99_ms: Math.round(percentile(sorted, 99)),
    max_ms: Math.round(sorted.at(-1) ?? 0),
    memory_per_subscriber_kb: Math.round(((rssAfter - rssBefore) * 1024) / options.subscribers),
  };
}

function fetchStatus(url: string, body: string, signature: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      url,
      {
        method: 'POST',
        agent,
        rejectUnauthorized: false,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

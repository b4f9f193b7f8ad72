// A real HTTPS webhook receiver for tests, written only from the spec: it verifies X-Service-Signature
// (hex HMAC-SHA256 of the raw body, keyed with the subscription secret, compared in constant time) BEFORE
// parsing the JSON, and records every request with its raw bytes. Its certificate is self-signed and
// generated once per test process; the delivery client trusts it as an extra CA.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export type TestCertificate = { key: string; cert: string };

/** The hosts a test receiver listens on, for the SSRF guard's allow-list (WEBHOOK_ALLOWED_HOSTS). */
export const LOCAL_RECEIVER_HOSTS = ['127.0.0.1', 'localhost'];

let certificate: Promise<TestCertificate> | undefined;

/** A self-signed certificate for 127.0.0.1, ::1 and localhost; its cert is also the CA to trust. */
export function testCertificate(): Promise<TestCertificate> {
  certificate ??= generate([{ name: 'commonName', value: 'localhost' }], {
    algorithm: 'sha256',
    keyType: 'ec',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  }).then((pems) => ({ key: pems.private, cert: pems.cert }));
  return certificate;
}

export type ReceivedRequest = {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  deliveryId: string;
  /** Whether X-Service-Signature matched one of the receiver's secrets. */
  signatureValid: boolean;
  /** The parsed body, only when the signature was valid. */
  event: { id: string; type: string; created_at: string; data: Record<string, unknown> } | null;
  /** How many requests with this delivery id came before this one. */
  previousAttempts: number;
};

/** What to answer: a status code, 'hang' (never answer), or 'reset' (drop the connection). */
export type Answer = number | 'hang' | 'reset';

export type Receiver = {
  url: string;
  requests: ReceivedRequest[];
  /** Secrets accepted for signatures (the subscription's; several while a rotation is under test). */
  secrets: string[];
  answer: (request: ReceivedRequest) => Answer;
  /** Requests with a valid signature that were answered 2xx. */
  accepted(): ReceivedRequest[];
  /** Distinct event ids of the accepted requests. */
  deliveredEventIds(): Set<string>;
  waitFor(what: string, condition: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

export function signatureMatches(secret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header || !/^[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(header, 'hex'));
}

export async function startReceiver(options: { secrets?: string[]; answer?: Receiver['answer'] } = {}): Promise<Receiver> {
  const { key, cert } = await testCertificate();
  const attemptsByDelivery = new Map<string, number>();
  const answered = new Set<ReceivedRequest>();

  const receiver: Receiver = {
    url: '',
    requests: [],
    secrets: options.secrets ?? [],
    answer: options.answer ?? (() => 200),
    accepted: () => receiver.requests.filter((request) => answered.has(request)),
    deliveredEventIds: () => new Set(receiver.accepted().map((request) => request.event!.id)),
    async waitFor(what, condition, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (${receiver.requests.length} requests received)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const deliveryId = String(request.headers['x-service-delivery-id'] ?? '');
      const signature = request.headers['x-service-signature'];
      const signatureValid = receiver.secrets.some((secret) =>
        signatureMatches(secret, raw, typeof signature === 'string' ? signature : undefined),
      );
      const previousAttempts = attemptsByDelivery.get(deliveryId) ?? 0;
      attemptsByDelivery.set(deliveryId, previousAttempts + 1);
      const received: ReceivedRequest = {
        headers: request.headers,
        raw,
        deliveryId,
        signatureValid,
        event: signatureValid ? JSON.parse(raw.toString('utf8')) : null,
        previousAttempts,
      };
      receiver.requests.push(received);
      const answer = receiver.answer(received);
      if (answer === 'hang') return;
      if (answer === 'reset') {
        request.socket.destroy();
        return;
      }
      if (answer >= 200 && answer < 300 && signatureValid) answered.add(received);
      response.writeHead(answer, { 'content-type': 'application/json' }).end(JSON.stringify({ received: answer < 300 }));
    });
  }

  const server = createServer({ key, cert }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}

// One HTTP attempt of a webhook delivery: POST the event body bytes, signed, to the receiver, through an
// https Agent whose DNS lookup is the SSRF guard (so the guard judges the address actually connected) and
// which trusts the system CAs plus any extra CA certificates configured (WEBHOOK_CA_FILE).
// The attempt ends with the receiver's status, a time-out, or a network/TLS/guard error, named by a reason
// that labels the failure metric; it never throws.
import { createHmac } from 'node:crypto';
import https from 'node:https';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { TargetGuard } from '../../infra/net/targetGuard.js';

export const SIGNATURE_HEADER = 'x-service-signature';
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';
const RESPONSE_EXCERPT_BYTES = 1024;

export type AttemptRequest = { url: string; body: string; secret: string; deliveryId: string };

/** Why an attempt failed, in few enough kinds to label a metric with: the receiver answered other than 2xx
 * (`status`), did not answer in time, could not be reached (`network`) or trusted (`tls`), is an internal
 * address or not https (`refused`), or the signing secret could not be opened (`secret`). */
export type FailureReason = 'status' | 'timeout' | 'network' | 'tls' | 'refused' | 'secret';

export type AttemptResult = {
  started_at: Date;
  duration_ms: number;
  /** True for a 2xx answer. */
  succeeded: boolean;
  status_code: number | null;
  /** Why no answer came (time-out, network, TLS, refused target); null when the receiver answered. */
  error: string | null;
  /** Null when the attempt succeeded. */
  failure: FailureReason | null;
  response_body: string | null;
};

export type SenderOptions = {
  guard: TargetGuard;
  timeoutMs: number;
  userAgent: string;
  /** PEM certificates trusted in addition to the system's. */
  extraCa?: string[];
};

export type Sender = { send(request: AttemptRequest): Promise<AttemptResult>; close(): void };

/** Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the subscription's signing secret. */
export function signature(secret: string, body: Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ETARGETREFUSED') return `refused: ${error.message}`;
    return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

/** OpenSSL's certificate verdicts and Node's TLS errors, as error codes. */
const TLS_ERROR_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

function reasonOf(error: unknown): FailureReason {
  const code = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? '') : '';
  if (code === 'ETARGETREFUSED') return 'refused';
  return TLS_ERROR_CODE.test(code) ? 'tls' : 'network';
}

/** PostgreSQL text cannot hold NUL; the excerpt is for people, so it is made printable. */
function excerpt(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '');
}

export function createSender(options: SenderOptions): Sender {
  const agent = new https.Agent({
    keepAlive: true,
    lookup: options.guard.lookup,
    // One secure context for every connection: passing `ca` instead would parse every root certificate
    // again on each TLS handshake.
    ...(options.extraCa?.length ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...options.extraCa] }) } : {}),
  });

  function send(request: AttemptRequest): Promise<AttemptResult> {
    const started_at = new Date();
    const startedMs = performance.now();
    const bytes = Buffer.from(request.body, 'utf8');
    return new Promise((resolve) => {
      let settled = false;
      let status_code: number | null = null;
      const received: Buffer[] = [];
      let receivedBytes = 0;
      let timer: NodeJS.Timeout | undefined;

      /** Settles the attempt: with the receiver's answer if one came, else with why it did not. */
      const finish = (error: string | null, reason: FailureReason) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const answered = status_code !== null;
        const succeeded = answered && status_code! >= 200 && status_code! < 300;
        resolve({
          started_at,
          duration_ms: Math.round(performance.now() - startedMs),
          succeeded,
          status_code,
          error: answered ? null : error,
          failure: succeeded ? null : answered ? 'status' : reason,
          response_body: answered ? excerpt(received) : null,
        });
      };

      const url = new URL(request.url);
      const literal = options.guard.literalRefusal(url.hostname);
      // Checked again here: a literal IP host skips DNS, so the Agent's guarded lookup would not see it.
      if (url.protocol !== 'https:' || literal) {
        finish(url.protocol !== 'https:' ? 'refused: not an https URL' : `refused: ${literal}`, 'refused');
        return;
      }

      const outgoing = https.request(url, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          'user-agent': options.userAgent,
          [SIGNATURE_HEADER]: signature(request.secret, bytes),
          [DELIVERY_ID_HEADER]: request.deliveryId,
        },
      });
      // The outcome is decided by the status; a receiver that then stalls its body is cut off at the deadline.
      timer = setTimeout(() => {
        outgoing.destroy();
        finish(`timed out after ${options.timeoutMs} ms`, 'timeout');
      }, options.timeoutMs);
      outgoing.on('response', (response) => {
        status_code = response.statusCode ?? null;
        response.on('data', (chunk: Buffer) => {
          if (receivedBytes < RESPONSE_EXCERPT_BYTES) received.push(chunk);
          receivedBytes += chunk.length;
        });
        response.on('end', () => finish(null, 'status'));
        response.on('error', (error) => finish(describe(error), reasonOf(error)));
      });
      outgoing.on('error', (error) => finish(describe(error), reasonOf(error)));
      outgoing.end(bytes);
    });
  }

  return { send, close: () => agent.destroy() };
}

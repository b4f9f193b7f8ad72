// One HTTP attempt of a webhook delivery: POST the event body bytes, signed, to the receiver, through the one
// guarded outbound client (infra/net/outbound.ts: the SSRF guard judges the address actually connected, no
// redirect is followed), trusting the system CAs plus any extra CA certificates configured (WEBHOOK_CA_FILE).
// The attempt ends with the receiver's status, a time-out, or a network/TLS/guard error, named by a reason
// that labels the failure metric; it never throws.
import { createHmac } from 'node:crypto';
import type { TargetGuard } from '../../infra/net/targetGuard.js';
import { createOutboundClient, outboundFailure } from '../../infra/net/outbound.js';

export const SIGNATURE_HEADER = 'x-service-signature';
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';
const RESPONSE_EXCERPT_BYTES = 1024;
/** The answer is read for its excerpt only; a longer one is cut. */
const MAX_RESPONSE_BYTES = 64 * 1024;

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

/** PostgreSQL text cannot hold NUL; the excerpt is for people, so it is made printable. */
function excerpt(bytes: Uint8Array): string {
  return Buffer.from(bytes).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '');
}

/** The first bytes of the receiver's answer; a body that stalls or breaks after them is not waited for. */
async function firstBytes(response: Response): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = response.body?.getReader();
  try {
    while (reader && length < RESPONSE_EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.byteLength;
    }
  } catch {
    // The status decided the outcome; what arrived of the body is kept.
  } finally {
    await reader?.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks);
}

export function createSender(options: SenderOptions): Sender {
  const client = createOutboundClient({ guard: options.guard, userAgent: options.userAgent, extraCa: options.extraCa });

  async function send(request: AttemptRequest): Promise<AttemptResult> {
    const started_at = new Date();
    const startedMs = performance.now();
    const bytes = Buffer.from(request.body, 'utf8');
    const took = () => Math.round(performance.now() - startedMs);
    // Only https: the guard lets plain http through to allowed hosts for other callers, never for deliveries.
    if (new URL(request.url).protocol !== 'https:') {
      return {
        started_at,
        duration_ms: took(),
        succeeded: false,
        status_code: null,
        error: 'refused: not an https URL',
        failure: 'refused',
        response_body: null,
      };
    }
    try {
      const response = await client.request(request.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signature(request.secret, bytes),
          [DELIVERY_ID_HEADER]: request.deliveryId,
        },
        body: bytes,
        timeoutMs: options.timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
      const succeeded = response.status >= 200 && response.status < 300;
      const body = excerpt(await firstBytes(response));
      return {
        started_at,
        duration_ms: took(),
        succeeded,
        status_code: response.status,
        error: null,
        failure: succeeded ? null : 'status',
        response_body: body,
      };
    } catch (error) {
      const failure = outboundFailure(error);
      const reason: FailureReason = failure.reason === 'too_large' ? 'network' : failure.reason;
      return {
        started_at,
        duration_ms: took(),
        succeeded: false,
        status_code: null,
        error: failure.message,
        failure: reason,
        response_body: null,
      };
    }
  }

  return { send, close: () => client.close() };
}

// Maps a WhatsApp Cloud API (Graph API) failure to a ProviderError: the Graph error code decides the reason.
// Codes: https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes
import { z } from 'zod';
import { ProviderError, RATE_LIMITED_CODES, UNAVAILABLE_CODES, type ProviderFailureReason } from './errors.js';
import { OutboundError } from '../../infra/net/outbound.js';

const graphErrorBody = z.object({
  error: z
    .object({
      message: z.string().optional(),
      code: z.number().int().optional(),
      error_subcode: z.number().int().optional(),
      error_data: z.object({ details: z.string().optional() }).passthrough().optional(),
    })
    .passthrough(),
});

const AUTHENTICATION = new Set([0, 3, 10, 102, 190]);
const RECIPIENT = new Set([131021, 131026, 131030, 131049, 131050]);

function reasonOf(code: number | undefined, httpStatus: number): ProviderFailureReason {
  if (code !== undefined) {
    if (AUTHENTICATION.has(code) || (code >= 200 && code <= 299)) return 'authentication';
    if (RATE_LIMITED_CODES.has(String(code))) return 'rate_limited';
    if (code === 131047) return 'window_closed';
    if (code >= 132000 && code < 133000) return 'template';
    if (RECIPIENT.has(code)) return 'recipient';
    if (UNAVAILABLE_CODES.has(String(code))) return 'unavailable';
  }
  if (httpStatus === 401 || httpStatus === 403) return 'authentication';
  if (httpStatus === 429) return 'rate_limited';
  if (httpStatus >= 500) return 'unavailable';
  return 'invalid_request';
}

export function graphError(httpStatus: number, body: unknown): ProviderError {
  const parsed = graphErrorBody.safeParse(body);
  if (!parsed.success) {
    return new ProviderError('whatsapp', reasonOf(undefined, httpStatus), `The WhatsApp Cloud API answered HTTP ${httpStatus}`);
  }
  const { message, code, error_data } = parsed.data.error;
  return new ProviderError(
    'whatsapp',
    reasonOf(code, httpStatus),
    message ?? `HTTP ${httpStatus}`,
    code === undefined ? null : String(code),
    error_data?.details ?? null,
  );
}

const timedOut = (cause: unknown) => cause instanceof OutboundError && cause.reason === 'timeout';

export function unreachable(cause: unknown): ProviderError {
  return new ProviderError(
    'whatsapp',
    'unavailable',
    timedOut(cause) ? 'The WhatsApp Cloud API did not answer in time' : 'The WhatsApp Cloud API could not be reached',
  );
}

/** A media file whose bytes stopped arriving after the answer began. */
export function downloadCut(cause: unknown): ProviderError {
  return new ProviderError(
    'whatsapp',
    'unavailable',
    timedOut(cause) ? 'The media file did not arrive in time' : 'The media file download was cut off',
  );
}

// Who may call from another origin. Cross-origin pages may call the API with a key (CORS without credentials:
// the key is theirs to send); nothing that a cookie authenticates is ever shared with another origin: no
// Access-Control-Allow-* on /auth or on a request carrying a cookie, never Allow-Credentials, and X-CSRF-Token is
// not a header another origin may send. Requests a cookie can authenticate must come from this origin as the
// browser tells it (Origin, Sec-Fetch-Site); requests from non-browser clients carry neither and are judged by
// their credential alone.
import type { CORSOptions } from 'graphql-yoga';

/** The headers a cross-origin page may send with a key. */
const KEY_REQUEST_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'idempotency-key',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'x-request-id',
];

function carriesCookie(request: Request): boolean {
  return request.headers.get('authorization') === null && request.headers.has('cookie');
}

/** Yoga's CORS answer for a request: none for the console's door and for cookie requests, key-only otherwise. */
export function corsFor(request: Request): CORSOptions | false {
  const path = new URL(request.url).pathname;
  if (path.startsWith('/auth/') || carriesCookie(request)) return false;
  return { credentials: false, allowedHeaders: KEY_REQUEST_HEADERS };
}

/** Why a browser request is not from this origin, or null when it is (or when no browser said where it came
 * from). Sec-Fetch-Site `none` is the person's own navigation (a typed address, a bookmark). */
export function crossOriginRefusal(request: Request, url: URL): string | null {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return `a ${site} request`;
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== url.origin) return `a request from ${origin}`;
  return null;
}

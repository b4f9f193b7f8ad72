// GraphiQL at GET /graphql, served whole from this service (its script, styles and editor workers inlined), so it
// works without internet; its inline script runs under a per-response nonce. The page is rendered once at build
// time into dist/console/graphiql.html (scripts/build.mjs) with two slots, the nonce and the headers GraphiQL
// sends, filled here per answer from parts read once.
// The page is served here rather than by Yoga's own GraphiQL option because Yoga answers before the pipeline
// authenticates: after it, a person signed in to the console finds their session's CSRF token already set, so
// GraphiQL works with the session cookie; an integrator enters `Authorization: Bearer <key>` in the headers pane.
import { randomBytes } from 'node:crypto';
import { shouldRenderGraphiQL, type Plugin } from 'graphql-yoga';
import { requestState } from '../../infra/http/requestState.js';
import { CSRF_HEADER } from '../../infra/http/sessionCookie.js';
import { readFile } from 'node:fs/promises';
import { builtFilePath, notBuiltResponse } from './builtFiles.js';
import { routeHook } from '../../infra/http/routeHook.js';

/** The slots scripts/build.mjs leaves in the page. */
const NONCE_SLOT = '__GRAPHIQL_NONCE__';
const HEADERS_SLOT = JSON.stringify({ __GRAPHIQL_HEADER__: '__GRAPHIQL_VALUE__' });

/** Monaco adds style elements at run time and its workers start from blob: URLs. */
function policy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    'worker-src blob:',
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

type Part = Uint8Array | 'nonce' | 'headers';

/** The page cut at its slots, each fixed part encoded once. */
function partsOf(page: string): Part[] {
  return page
    .split(HEADERS_SLOT)
    .flatMap((piece, index): Part[] => [
      ...(index > 0 ? ['headers' as const] : []),
      ...piece.split(NONCE_SLOT).flatMap((text, at): Part[] => [...(at > 0 ? ['nonce' as const] : []), Buffer.from(text)]),
    ]);
}

let template: Promise<Part[] | null> | null = null;

function pageParts(): Promise<Part[] | null> {
  // Read without keeping the text: only the encoded parts stay, and only once GraphiQL is asked for.
  template ??= readFile(builtFilePath('graphiql.html'), 'utf8').then(partsOf, () => {
    template = null;
    return null;
  });
  return template;
}

function body(parts: Part[], nonce: string, csrfToken: string | undefined): ReadableStream<Uint8Array> {
  const filled = {
    nonce: Buffer.from(nonce),
    headers: Buffer.from(JSON.stringify(csrfToken ? { [CSRF_HEADER]: csrfToken } : {})),
  };
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      const part = parts[next++];
      if (part === undefined) return controller.close();
      controller.enqueue(typeof part === 'string' ? filled[part] : part);
    },
  });
}

export function useGraphiQLPage(): Plugin {
  return {
    onRequest: routeHook(
      ({ request, url }) => url.pathname === '/graphql' && shouldRenderGraphiQL(request),
      async ({ request, endResponse }) => {
        const parts = await pageParts();
        if (!parts) {
          endResponse(notBuiltResponse());
          return;
        }
        const nonce = randomBytes(18).toString('base64');
        endResponse(
          new Response(body(parts, nonce, requestState(request).csrfToken), {
            headers: {
              'content-type': 'text/html; charset=utf-8',
              'content-security-policy': policy(nonce),
              'x-content-type-options': 'nosniff',
              'referrer-policy': 'no-referrer',
              // The page embeds the session's CSRF token.
              'cache-control': 'no-store',
            },
          }),
        );
      },
    ),
  };
}

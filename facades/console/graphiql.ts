// GraphiQL at GET /graphql, served whole from this service (@graphql-yoga/render-graphiql inlines its script,
// styles and editor workers), so it works without internet; its inline script runs under a per-response nonce.
// The page is served here rather than by Yoga's own GraphiQL option because Yoga answers before the pipeline
// authenticates: after it, a person signed in to the console finds their session's CSRF token already set, so
// GraphiQL works with the session cookie; an integrator enters `Authorization: Bearer <key>` in the headers pane.
import { randomBytes } from 'node:crypto';
import { shouldRenderGraphiQL, type Plugin } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { requestState } from '../../infra/http/requestState.js';
import { CSRF_HEADER } from '../../infra/http/sessionCookie.js';

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

function page(csrfToken: string | undefined, nonce: string): string {
  const html = renderGraphiQL({
    title: 'Messaging CRM GraphQL',
    endpoint: '/graphql',
    subscriptionsProtocol: 'GRAPHQL_SSE',
    credentials: 'same-origin',
    ...(csrfToken ? { additionalHeaders: { [CSRF_HEADER]: csrfToken } } : {}),
  });
  // The template holds one style and one script element, before the inlined code that could contain either text.
  return html.replace('<style>', `<style nonce="${nonce}">`).replace('<script>', `<script nonce="${nonce}">`);
}

export function useGraphiQLPage(): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (url.pathname !== '/graphql' || !shouldRenderGraphiQL(request)) return;
      const nonce = randomBytes(18).toString('base64');
      endResponse(
        new Response(page(requestState(request).csrfToken, nonce), {
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
  };
}

// The console (console/, built into dist/console by scripts/build.mjs): its page at / and at each of its client
// routes, and its script and stylesheet under /console/. Everything is served from this origin under a strict
// Content-Security-Policy: no inline script, no CDN, no external font. The page itself is public; the console
// signs people in through /auth and then speaks GraphQL with their session cookie.
import { extname } from 'node:path';
import type { Plugin } from 'graphql-yoga';
import { builtFile, notBuiltResponse } from './builtFiles.js';
import { routeHook } from '../../infra/http/routeHook.js';

export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** The console's client routes: each answers the same page, whose router shows the right view. */
const PAGE_PATHS = [
  /^\/$/,
  /^\/(inbox|contacts|templates|knowledge|automations|reports|scheduling|campaigns)(\/[^/]+)?$/,
  /^\/settings\/[a-z-]+(\/[^/]+)?$/,
  /^\/(setup|invite|sign-in)$/,
  /^\/oauth\/consent$/,
];
const ASSET_PATH = /^\/console\/(app\.js|app-styles\.css)(\.map)?$/;
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
};

function served(body: string, name: string, cache: string): Response {
  return new Response(body, {
    headers: {
      'content-type': CONTENT_TYPES[extname(name)] ?? 'application/octet-stream',
      'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cache-control': cache,
    },
  });
}

export function useConsolePages(): Plugin {
  return {
    onRequest: routeHook(
      ({ request, url }) => (request.method === 'GET' || request.method === 'HEAD' ? builtFileNameOf(url.pathname) : null),
      async ({ endResponse }, name) => {
        const body = await builtFile(name);
        if (!body) {
          endResponse(notBuiltResponse());
          return;
        }
        // The page names the current build's files, so it is always revalidated; the files are revalidated too, as
        // their names do not change between builds.
        endResponse(served(body, name, 'no-cache'));
      },
    ),
  };
}

/** The built file a path names: an asset, or the page of every console path; null for any other path. */
function builtFileNameOf(path: string): string | null {
  const asset = ASSET_PATH.exec(path);
  return asset ? `${asset[1]}${asset[2] ?? ''}` : PAGE_PATHS.some((pattern) => pattern.test(path)) ? 'index.html' : null;
}

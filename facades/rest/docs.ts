// GET /docs: the human API reference, Swagger UI rendering /api/v1/openapi.json. Its assets are served from
// the swagger-ui-dist package, so the page loads nothing from another host (the CSP says so too).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { OPENAPI_PATH } from './openapi.js';

export const DOCS_PATH = '/docs';

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Messaging CRM API reference</title>
  <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/reference.js"></script>
</body>
</html>
`;

const START = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

type Page = { contentType: string; body: () => string | Uint8Array<ArrayBuffer> };

const asset = (file: string) => () => new Uint8Array(readFileSync(join(SWAGGER_UI_DIR, file)));

const PAGES: Record<string, Page> = {
  [DOCS_PATH]: { contentType: 'text/html; charset=utf-8', body: () => PAGE },
  [`${DOCS_PATH}/reference.js`]: { contentType: 'text/javascript; charset=utf-8', body: () => START },
  [`${DOCS_PATH}/swagger-ui.css`]: { contentType: 'text/css; charset=utf-8', body: asset('swagger-ui.css') },
  [`${DOCS_PATH}/swagger-ui-bundle.js`]: { contentType: 'text/javascript; charset=utf-8', body: asset('swagger-ui-bundle.js') },
  [`${DOCS_PATH}/favicon-32x32.png`]: { contentType: 'image/png', body: asset('favicon-32x32.png') },
};

export const DOCS_PATHS = Object.keys(PAGES);

const cache = new Map<string, string | Uint8Array<ArrayBuffer>>();

export function docsResponse(path: string): Response {
  const page = PAGES[path];
  if (!page) throw new Error(`No reference page at ${path}`);
  let body = cache.get(path);
  if (body === undefined) {
    body = page.body();
    cache.set(path, body);
  }
  return new Response(body, {
    headers: {
      'content-type': page.contentType,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=3600',
    },
  });
}

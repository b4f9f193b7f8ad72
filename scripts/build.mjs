// `npm run build`: the server, the worker process and the CLI as ES modules, dist/main.js, dist/worker.js and
// dist/cli.js, for `npm start`, `npm run worker`, `npm run cli` and production, and the console (console/, Preact)
// as one script and one stylesheet under dist/console/ for the browser, in about two seconds. Type checking is
// `npm run typecheck`.
// Running compiled JavaScript rather than through tsx saves the TypeScript loader's thread and memory
// (about 75 MB resident) and its start-up time. The server's dependencies are bundled with it: Node then
// reads one file instead of resolving, reading and linking some 350 modules, which took half a second of
// every start. Those that load files of their own beside their code stay in node_modules (EXTERNAL).
// V8 keeps a script's whole source in memory, and at two bytes a character once one character is not ASCII: the
// bundle is written without comments and indentation and with every other character escaped (asciiOnly), so
// its 5 MB cost 5 MB rather than 13.
// GraphiQL's page (9 MB: its script, styles and editor workers inlined) is rendered here once, into
// dist/console/graphiql.html with slots for what each answer fills in (facades/console/graphiql.ts), so the server
// never loads @graphql-yoga/render-graphiql (30 MB of heap) nor renders the page per request.
// A new embedded database, migrated, is written to dist/embedded-database.tar (app/embeddedTemplate.ts): a new
// DATA_DIR starts as a copy of it rather than creating a database (PGlite's initdb), which is most of a first start.
// `npm install` builds (postinstall); `npm start` and the tests build again only when a source or a migration is newer
// than the build (scripts/buildFreshness.mjs).
import { execFileSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { buildIsOutdated } from './buildFreshness.mjs';

// `--if-outdated` (the tests' global set-up): nothing to do when dist/ is newer than everything it was made from.
if (process.argv.includes('--if-outdated') && !(await buildIsOutdated(`${process.cwd()}/`))) process.exit(0);

/** Packages that read files next to their own code (WebAssembly, data, assets) or load optional native code. */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@prisma/client',
  'swagger-ui-dist',
  'pino',
  'pg-native',
  'esbuild',
  '@graphql-yoga/render-graphiql',
].flatMap((name) => [name, `${name}/*`]);

/**
 * Prisma's query compiler is a module that holds its WebAssembly as a base64 string (4.6 MB), which V8 kept for the
 * process's life twice, as the module's source and as the string: 9 MB of every process's heap. The build writes the
 * decoded bytes beside the bundle once (QUERY_COMPILER_WASM), and the module Prisma imports becomes one that reads
 * them when asked. The generated client passes what it imports to Buffer.from(…, 'base64'), which copies bytes given
 * as bytes and takes an object's valueOf(): exported as an object whose valueOf() reads the file, the 3.4 MB are read
 * when a client builds its compiler and dropped after, instead of held by the module for the process's life.
 */
const QUERY_COMPILER_MODULE = '@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs';
const QUERY_COMPILER_WASM = 'query-compiler.wasm';
const queryCompilerFromFile = {
  name: 'query-compiler-from-file',
  setup(build) {
    build.onResolve({ filter: /wasm-base64\.mjs$/ }, ({ path }) =>
      path === QUERY_COMPILER_MODULE ? { path: QUERY_COMPILER_WASM, namespace: 'query-compiler' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'query-compiler' }, () => ({
      loader: 'js',
      contents: `import { readFileSync } from 'node:fs'; export const wasm = { valueOf: () => readFileSync(new URL('./${QUERY_COMPILER_WASM}', import.meta.url)) };`,
    }));
  },
};

async function writeQueryCompilerWasm() {
  const { wasm } = await import(QUERY_COMPILER_MODULE);
  await mkdir('dist', { recursive: true });
  await writeFile(`dist/${QUERY_COMPILER_WASM}`, Buffer.from(wasm, 'base64'));
}

const server = build({
  entryPoints: { main: 'app/main.ts', worker: 'app/worker.ts', cli: 'app/cli.ts', 'embedded-template': 'app/embeddedTemplate.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  plugins: [queryCompilerFromFile],
  minifyWhitespace: true,
  legalComments: 'none',
  // Bundled CommonJS packages call require(), which an ES module does not have.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});

// The console is served by facades/console/pages.ts under a CSP allowing only its own script and stylesheet.
const browserApp = build({
  metafile: true,
  entryPoints: { app: 'console/main.tsx', 'app-styles': 'console/styles.css' },
  outdir: 'dist/console',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: ['chrome111', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: true,
  tsconfig: 'console/tsconfig.json',
  logLevel: 'warning',
});

/** The slots of graphiql.html, filled by facades/console/graphiql.ts: the answer's nonce and the page's headers. */
const NONCE_SLOT = '__GRAPHIQL_NONCE__';
const HEADERS_SLOT = { __GRAPHIQL_HEADER__: '__GRAPHIQL_VALUE__' };

function graphiqlPage() {
  const html = renderGraphiQL({
    title: 'Messaging CRM GraphQL',
    endpoint: '/graphql',
    subscriptionsProtocol: 'GRAPHQL_SSE',
    credentials: 'same-origin',
    additionalHeaders: HEADERS_SLOT,
  });
  // The template holds one style and one script element, before the inlined code that could contain either text.
  return html.replace('<style>', `<style nonce="${NONCE_SLOT}">`).replace('<script>', `<script nonce="${NONCE_SLOT}">`);
}

/** Escapes what esbuild leaves unescaped (characters inside regular expression and template literals). */
async function asciiOnly(file) {
  const source = await readFile(file, 'utf8');
  // A character beyond U+FFFF is written as its two UTF-16 halves, as JavaScript escapes it.
  const unit = (code) => `\\u${code.toString(16).padStart(4, '0')}`;
  const escaped = source.replace(/[^\p{ASCII}]/gu, (character) =>
    [...Array(character.length).keys()].map((at) => unit(character.charCodeAt(at))).join(''),
  );
  if (escaped !== source) await writeFile(file, escaped);
}

const [serverBuild, browserBuild] = await Promise.all([server, browserApp, writeQueryCompilerWasm()]);
const built = [serverBuild, browserBuild];
await Promise.all(['dist/main.js', 'dist/worker.js', 'dist/cli.js'].map(asciiOnly));
await mkdir('dist/console', { recursive: true });
await copyFile('console/index.html', 'dist/console/index.html');
await writeFile('dist/console/graphiql.html', graphiqlPage());
execFileSync(process.execPath, ['dist/embedded-template.js'], { stdio: 'inherit' });
// What the build was made from, for scripts/start.mjs to tell whether it is older than the sources: the modules, and
// the migrations (their folder changes when one is added).
// A plugin's module (named `namespace:path`) is no file.
const inputs = built
  .flatMap(({ metafile }) => Object.keys(metafile.inputs))
  .filter((input) => !input.startsWith('node_modules/') && !/^[\w-]+:/.test(input));
const migrations = (await readdir('prisma/migrations', { withFileTypes: true }))
  .filter((entry) => entry.isDirectory())
  .map((entry) => `prisma/migrations/${entry.name}/migration.sql`);
// This file too: a build that makes another entry (or makes one differently) is not the one on disk.
await writeFile(
  'dist/inputs.json',
  JSON.stringify(['scripts/build.mjs', 'console/index.html', 'prisma/migrations', ...migrations, ...inputs]),
);

// ESLint: typescript-eslint's type-checked recommended rules over the whole project; formatting is
// Prettier's (eslint-config-prettier turns off the rules that would disagree with it).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: [
      'prisma/generated/',
      'dist/',
      'bench/.cache/',
      'facades/core/operations.generated.ts',
      '.data/',
      '.scratch/',
      'test/facades/typedClient/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', '.dependency-cruiser.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    rules: {
      // Yoga's and envelop's hook payloads declare their callbacks (endResponse, setRequest, …) as methods,
      // though they are closures meant to be destructured.
      '@typescript-eslint/unbound-method': 'off',
      // `async` marks functions that implement a promise-returning interface; one without an await is fine.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore names a value left out on purpose (a destructured field dropped from a copy).
      // A timer declared before the closures that clear it, and set once they exist.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Node's servers take Yoga's async request listener, which handles its own rejections.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Every outbound request goes through the one guarded client (infra/net/outbound.ts): the SSRF guard at
    // connect, no redirects, bounded time and size. The browser's code (console/, the booking page) and tests may fetch.
    files: ['**/*.ts'],
    ignores: ['infra/net/**', 'console/**', 'test/**', 'bench/**', 'scripts/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Send outbound requests with infra/net/outbound.ts.' }],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'undici', message: 'Send outbound requests with infra/net/outbound.ts.' }], patterns: ['undici/*'] },
      ],
      'no-restricted-properties': [
        'error',
        ...['http', 'https'].flatMap((object) =>
          ['request', 'get'].map((property) => ({ object, property, message: 'Send outbound requests with infra/net/outbound.ts.' })),
        ),
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', module: 'writable' } },
  },
  {
    // The dependency-cruiser configuration is CommonJS, as that tool loads it.
    files: ['**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    // The booking page's own script runs in the visitor's browser.
    files: ['facades/public/booking/page.client.js'],
    languageOptions: {
      globals: {
        document: 'readonly',
        window: 'readonly',
        fetch: 'readonly',
        Intl: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        FormData: 'readonly',
        CSS: 'readonly',
      },
    },
  },
  {
    // Tests read answers as untyped JSON on purpose, as a client of the API does, and their assertions check
    // the shapes.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);

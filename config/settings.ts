// Every setting of the service, read once from the environment and validated, so a typo fails at start-up
// instead of at the first request. README.md lists them in a table.
import { z } from 'zod';
import { resolve } from 'node:path';

const boolean = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GRAPHIQL: boolean.optional(),
  MIGRATE_ON_START: boolean.default(true),
  WHATSAPP_GRAPH_URL: z.string().url().default('https://graph.facebook.com/v22.0'),
  WHATSAPP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  SANDBOX_STATUS_INTERVAL_MS: z.coerce.number().int().min(1).max(3_600_000).default(2_000),
  TEMPLATE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  // The production edge (README, "Production edge" in docs/api-decisions.md).
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  TRUST_PROXY: boolean.default(false),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(10),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(1000),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(100),
  REDIS_URL: z.string().url().optional(),
  REDIS_KEY_PREFIX: z.string().min(1).default('messaging-crm'),
  MCP_MAX_SESSIONS_PER_KEY: z.coerce.number().int().min(1).default(5),
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  CUSTOMERS_SUNSET: z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { message: 'must be an ISO 8601 date or date-time' })
    .transform((value) => new Date(value))
    .optional(),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine(isOrigin, 'must be origins such as https://app.example.com, comma-separated'))),
}).refine((settings) => (settings.TLS_CERT_FILE === undefined) === (settings.TLS_KEY_FILE === undefined), {
  message: 'TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither',
  path: ['TLS_CERT_FILE'],
});

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

export type Settings = Omit<z.infer<typeof schema>, 'GRAPHIQL'> & { GRAPHIQL: boolean; DATA_DIR: string };

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid settings:\n  ${problems.join('\n  ')}`);
  }
  const settings = parsed.data;
  return {
    ...settings,
    DATA_DIR: resolve(settings.DATA_DIR),
    GRAPHIQL: settings.GRAPHIQL ?? settings.NODE_ENV !== 'production',
  };
}

// Every setting of the service, read once from the environment and validated, so a typo fails at start-up
// instead of at the first request. README.md lists them in a table.
import { z } from 'zod';
import { resolve } from 'node:path';

/** The highest send rate a campaign (or CAMPAIGN_SEND_RATE_PER_MINUTE) may ask for, in messages per minute. */
export const MAX_CAMPAIGN_SEND_RATE = 1000;

const boolean = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const milliseconds = z.coerce.number().int().min(1);

const DURATION = /^\s*(\d+)(ms|s|m|h|d)\s*$/;
const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION_HINT = 'must be a duration such as 500ms, 10s, 5m, 2h or 1d';

function toMilliseconds(text: string): number {
  const [, amount, unit] = DURATION.exec(text) as unknown as [string, string, keyof typeof DURATION_UNITS_MS];
  return Number(amount) * DURATION_UNITS_MS[unit];
}

const duration = z.string().regex(DURATION, DURATION_HINT).transform(toMilliseconds);
/** A comma-separated list of words, blanks around them ignored; empty by default. */
const commaList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** A comma-separated list of durations such as `10s,1m,2h`, in milliseconds. */
const durations = z
  .string()
  .refine((list) => list.split(',').every((item) => DURATION.test(item)), `must be a comma-separated list; each ${DURATION_HINT}`)
  .transform((list) => list.split(',').map(toMilliseconds));

/**
 * The embedded database's shared_buffers: PGlite's own default (128 MB) is resident from the start, in this
 * process; 32 MB is what its cache needs at the data sizes PGlite serves (the OS page cache holds the files too).
 */
export const EMBEDDED_SHARED_BUFFERS = '32MB';

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z.string().url().optional(),
    DATA_DIR: z.string().default('./.data'),
    DATABASE_PREPARED_STATEMENTS: boolean.default(true),
    EMBEDDED_DB_SHARED_BUFFERS: z
      .string()
      .regex(/^[1-9][0-9]*(kB|MB|GB)$/, 'must be a size such as 32MB (kB, MB or GB)')
      .default(EMBEDDED_SHARED_BUFFERS),
    ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    GRAPHIQL: boolean.optional(),
    MIGRATE_ON_START: boolean.default(true),
    WHATSAPP_GRAPH_URL: z.string().url().default('https://graph.facebook.com/v22.0'),
    WHATSAPP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    WHATSAPP_MEDIA_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(300_000),
    SANDBOX_STATUS_INTERVAL_MS: z.coerce.number().int().min(1).max(3_600_000).default(2_000),
    /** How long the sandbox takes to review a submitted template. */
    SANDBOX_TEMPLATE_REVIEW_MS: z.coerce.number().int().min(0).max(86_400_000).default(2_000),
    TEMPLATE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    // Sends the provider refuses for throughput (130429) or pair rate (131056): tries in all, first pause, and the
    // least pause after a pair-rate refusal (Meta: one message to a recipient per 6 s).
    SEND_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(5).default(3),
    SEND_RETRY_BASE_MS: z.coerce.number().int().min(1).max(60_000).default(1_000),
    SEND_PAIR_INTERVAL_MS: z.coerce.number().int().min(1).max(60_000).default(6_000),
    // Media files fetched from the provider, kept under DATA_DIR/media up to this many bytes (0: none kept).
    MEDIA_CACHE_MAX_BYTES: z.coerce.number().int().min(0).default(268_435_456),
    // The production edge (README, "Production edge" in docs/api-decisions.md).
    TLS_CERT_FILE: z.string().min(1).optional(),
    TLS_KEY_FILE: z.string().min(1).optional(),
    TRUST_PROXY: boolean.default(false),
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(2_097_152),
    GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(10),
    GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(1000),
    API_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(100),
    SESSION_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    REDIS_URL: z.string().url().optional(),
    REDIS_KEY_PREFIX: z.string().min(1).default('messaging-crm'),
    MCP_MAX_SESSIONS_PER_KEY: z.coerce.number().int().min(1).default(5),
    MCP_SESSION_IDLE_MS: milliseconds.default(5 * 60_000),
    METRICS_HOST: z.string().default('127.0.0.1'),
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    CUSTOMERS_SUNSET: z
      .union([z.iso.datetime({ offset: true }), z.iso.date()], { message: 'must be an ISO 8601 date or date-time' })
      .transform((value) => new Date(value))
      .optional(),
    MCP_ALLOWED_ORIGINS: commaList.pipe(
      z.array(z.string().refine(isOrigin, 'must be origins such as https://app.example.com, comma-separated')),
    ),
    WEBHOOK_WORKERS: boolean.default(true),
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
    WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: z.coerce.number().int().min(1).max(1000).default(4),
    WEBHOOK_TIMEOUT_MS: milliseconds.default(10_000),
    WEBHOOK_LEASE_MS: milliseconds.default(30_000),
    WEBHOOK_RETRY_DELAYS: durations.prefault('10s,1m,5m,30m,1h,2h,4h,8h,8h'),
    WEBHOOK_DISABLE_AFTER: duration.prefault('24h'),
    WEBHOOK_POLL_MS: milliseconds.default(1000),
    WEBHOOK_DEPTH_SAMPLE_MS: milliseconds.default(10_000),
    WEBHOOK_ALLOWED_HOSTS: commaList,
    WEBHOOK_CA_FILE: z.string().min(1).optional(),
    EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    EVENT_PRUNE_INTERVAL_MS: milliseconds.default(3_600_000),
    REPORT_DAYS_INTERVAL_MS: milliseconds.default(300_000),
    CAMPAIGN_WORKERS: boolean.default(true),
    CAMPAIGN_SEND_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(MAX_CAMPAIGN_SEND_RATE).default(60),
    CAMPAIGN_POLL_MS: milliseconds.default(1000),
    CAMPAIGN_LEASE_MS: milliseconds.default(60_000),
    AGENT_WORKERS: boolean.default(true),
    AGENT_POLL_MS: milliseconds.default(500),
    AGENT_LEASE_MS: milliseconds.default(300_000),
    AGENT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
    AUTOMATION_WORKERS: boolean.default(true),
    AUTOMATION_POLL_MS: milliseconds.default(250),
    AUTOMATION_LEASE_MS: milliseconds.default(60_000),
    // OAuth for MCP (docs/api-decisions.md, "OAuth for MCP"): token lifetimes.
    OAUTH_ACCESS_TOKEN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
    OAUTH_REFRESH_TOKEN_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(31_536_000)
      .default(30 * 86_400),
    PUBLIC_BASE_URL: z
      .string()
      .url()
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
  })
  .refine((settings) => (settings.TLS_CERT_FILE === undefined) === (settings.TLS_KEY_FILE === undefined), {
    message: 'TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither',
    path: ['TLS_CERT_FILE'],
  })
  .refine((settings) => settings.WEBHOOK_LEASE_MS > settings.WEBHOOK_TIMEOUT_MS, {
    path: ['WEBHOOK_LEASE_MS'],
    message: 'must be longer than WEBHOOK_TIMEOUT_MS, or a slow attempt would be claimed twice',
  })
  .refine((settings) => settings.CAMPAIGN_LEASE_MS > settings.WHATSAPP_TIMEOUT_MS, {
    path: ['CAMPAIGN_LEASE_MS'],
    message: 'must be longer than WHATSAPP_TIMEOUT_MS, or a send still in flight would look abandoned',
  });

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

export type Settings = Omit<z.infer<typeof schema>, 'GRAPHIQL'> & {
  GRAPHIQL: boolean;
  DATA_DIR: string;
};

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

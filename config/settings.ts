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
  PUBLIC_BASE_URL: z
    .string()
    .url()
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
});

export type Settings = Omit<z.infer<typeof schema>, 'GRAPHIQL' | 'PUBLIC_BASE_URL'> & {
  GRAPHIQL: boolean;
  DATA_DIR: string;
  PUBLIC_BASE_URL: string;
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
    PUBLIC_BASE_URL: settings.PUBLIC_BASE_URL ?? `http://localhost:${settings.PORT}`,
  };
}

// `npm run cli -- <command>`: operator commands that run on the same database as the server. On the embedded
// database they work through the running server, which owns DATA_DIR; with no server running they open it themselves.
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { loadSettings } from '../infra/config/settings.js';
import { openRuntime, type Runtime } from './runtime.js';
import { migrate } from '../infra/db/migrate.js';
import { createWorkspace } from '../resolvers/workspace/workspaces.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../resolvers/workspace/apiKeys.js';
import { readStandingOnConnect } from '../resolvers/workspace/numberStanding.js';
import { createIntegration, rotateIntegrationSecret } from '../resolvers/workspace/integrations.js';
import { DomainError } from '../resolvers/shared/errors.js';
import { KEY_SCOPES } from '../resolvers/workspace/scopes.js';
import { seedDemo } from './seed.js';
import { checkedPassword, hashPassword } from '../resolvers/people/passwords.js';
import { setPassword } from '../resolvers/people/team.js';

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  workspace create --name N --email E [--password-stdin] [--json]
      Create a workspace with its owner, a sandbox messaging integration and an all-scopes API key belonging to
      the owner. With --password-stdin, the owner's console password is read from standard input.
  user set-password --email E [--workspace ID] --password-stdin [--json]
      Set a person's console password (read from standard input) and sign them out everywhere.
  integration create --workspace ID --phone-number-id P --business-account-id B
                     [--access-token T] [--app-secret S] [--verify-token V]
                     [--display-phone-number +E164] [--provider whatsapp|sandbox] [--json]
      Connect a WhatsApp Cloud API phone number to a workspace (provider whatsapp by default). The access
      token and app secret may come from WHATSAPP_ACCESS_TOKEN and WHATSAPP_APP_SECRET instead of flags;
      a verify token is generated when not given. Prints the verify token and the callback URL to give the
      provider: PUBLIC_BASE_URL, else the running server's own address, + /webhooks/whatsapp.
  integration rotate-secret --workspace ID --integration ID [--app-secret S] [--json]
      A new app secret for an integration, printed once: generated for the sandbox; for WhatsApp, give the one Meta
      shows after its reset in the app's settings.
  key create --workspace ID --scopes a,b [--name N] [--json]
      Create an API key. Scopes: ${KEY_SCOPES.join(', ')}.
  key list --workspace ID [--json]
  key revoke --workspace ID --key KEY_ID [--json]
  db migrate
      Apply pending SQL migrations (also done at start-up).
  seed [--contacts N] [--json]
      Create a demo workspace with realistic contacts, conversations, messages and tags (default 200).

Settings come from the environment (DATABASE_URL, DATA_DIR, ...): see README.md. On the embedded database,
commands run while the server runs go through it.`;

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function optional(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function requiredEnv(variable: string, flag: string): string {
  const value = process.env[variable];
  if (!value) throw new UsageError(`--${flag} (or ${variable}) is required`);
  return value;
}

class UsageError extends Error {}

/** A password piped in (`printf %s "$PASSWORD" | …`); one trailing newline from `echo` is not part of it. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--password-stdin reads the password from standard input: pipe it in');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.replace(/\r?\n$/, '');
}

function print(json: boolean, value: unknown, text: string) {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

async function run(runtime: Runtime, command: string, options: Options): Promise<void> {
  const json = options['json'] === true;
  const { prisma, secrets } = runtime.services;
  switch (command) {
    case 'workspace create': {
      const passwordHash = options['password-stdin'] === true ? await hashPassword(checkedPassword(await readStdin())) : null;
      const created = await createWorkspace(
        { prisma, secrets },
        { name: required(options, 'name'), email: required(options, 'email'), passwordHash },
      );
      print(
        json,
        created,
        [
          `Workspace ${created.workspace_id} created.`,
          `API key (shown once, store it now): ${created.api_key}`,
          `Sandbox integration ${created.integration_id}: phone_number_id ${created.phone_number_id}`,
          `Provider webhook app secret: ${created.app_secret}`,
          `Provider webhook verify token: ${created.verify_token}`,
        ].join('\n'),
      );
      return;
    }
    case 'user set-password': {
      if (options['password-stdin'] !== true) throw new UsageError('--password-stdin is required: pipe the password in');
      const changed = await setPassword(prisma, {
        email: required(options, 'email'),
        workspace: optional(options, 'workspace'),
        password: await readStdin(),
      });
      print(json, changed, `Password set for user ${changed.user_id}; their sessions were ended.`);
      return;
    }
    case 'integration create': {
      const created = await createIntegration(runtime.services, {
        workspaceId: required(options, 'workspace'),
        provider: optional(options, 'provider') ?? 'whatsapp',
        phone_number_id: required(options, 'phone-number-id'),
        business_account_id: required(options, 'business-account-id'),
        display_phone_number: optional(options, 'display-phone-number'),
        access_token: optional(options, 'access-token') ?? requiredEnv('WHATSAPP_ACCESS_TOKEN', 'access-token'),
        app_secret: optional(options, 'app-secret') ?? requiredEnv('WHATSAPP_APP_SECRET', 'app-secret'),
        verify_token: optional(options, 'verify-token'),
      });
      await readStandingOnConnect(runtime.services, created.integration_id);
      print(
        json,
        created,
        [
          `Integration ${created.integration_id} (${created.provider}) connected: phone_number_id ${created.phone_number_id}.`,
          `Callback URL for the provider: ${created.callback_url}`,
          `Verify token: ${created.verify_token}`,
        ].join('\n'),
      );
      return;
    }
    case 'integration rotate-secret': {
      const rotated = await rotateIntegrationSecret(runtime.services, {
        workspaceId: required(options, 'workspace'),
        id: required(options, 'integration'),
        app_secret: optional(options, 'app-secret'),
      });
      print(json, rotated, `New app secret of integration ${rotated.integration_id} (shown once, store it now): ${rotated.app_secret}`);
      return;
    }
    case 'key create': {
      const scopes = required(options, 'scopes')
        .split(',')
        .map((scope) => scope.trim())
        .filter(Boolean);
      const { api_key, key } = await createApiKey(prisma, {
        workspaceId: required(options, 'workspace'),
        name: typeof options['name'] === 'string' ? options['name'] : undefined,
        scopes,
      });
      print(json, { api_key, ...key }, `API key ${key.id} (${key.scopes.join(', ')}), shown once: ${api_key}`);
      return;
    }
    case 'key list': {
      const keys = await listApiKeys(prisma, required(options, 'workspace'));
      print(
        json,
        keys,
        keys
          .map(
            (key) =>
              `${key.id}  ${key.prefix}…  ${key.scopes.join(',')}  ${key.revoked_at ? 'revoked' : 'active'}  last used ${key.last_used_at?.toISOString() ?? 'never'}`,
          )
          .join('\n') || 'No keys.',
      );
      return;
    }
    case 'key revoke': {
      const key = await revokeApiKey(prisma, required(options, 'workspace'), required(options, 'key'));
      print(json, key, `API key ${key.id} revoked.`);
      return;
    }
    case 'db migrate': {
      const applied = await migrate(runtime.db.sql);
      print(json, { applied }, applied.length ? `Applied ${applied.join(', ')}.` : 'The database is up to date.');
      return;
    }
    case 'seed': {
      const contacts = Number(options['contacts'] ?? 200);
      if (!Number.isInteger(contacts) || contacts < 0) throw new UsageError('--contacts must be a whole number');
      const bar =
        !json && contacts >= 5000
          ? new SingleBar({ format: 'seeding [{bar}] {percentage}% {value}/{total} contacts | eta {eta}s' }, Presets.shades_classic)
          : null;
      bar?.start(contacts, 0);
      const created = await seedDemo({ prisma, secrets }, { contacts, onProgress: (done) => bar?.update(done) });
      bar?.stop();
      print(json, created, `Demo workspace ${created.workspace_id} with ${contacts} contacts.\nAPI key (shown once): ${created.api_key}`);
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      name: { type: 'string' },
      email: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      workspace: { type: 'string' },
      integration: { type: 'string' },
      scopes: { type: 'string' },
      key: { type: 'string' },
      contacts: { type: 'string' },
      provider: { type: 'string' },
      'phone-number-id': { type: 'string' },
      'business-account-id': { type: 'string' },
      'display-phone-number': { type: 'string' },
      'access-token': { type: 'string' },
      'app-secret': { type: 'string' },
      'verify-token': { type: 'string' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const command = positionals.join(' ');
  // On the embedded database a running server owns DATA_DIR and this command works through it.
  const runtime = await openRuntime(loadSettings(), {
    migrate: command !== 'db migrate',
    claim: { role: `\`npm run cli -- ${command}\``, throughOwner: true },
  });
  try {
    await run(runtime, command, values);
    return 0;
  } catch (error) {
    const owner = runtime.db.owner;
    if (!owner?.lost()) throw error;
    throw new Error(
      `This command worked through ${owner.description}, which stopped before the command finished: what the command had ` +
        'committed is kept, the rest is not. Run it again once the server is back, or with no server running.',
      { cause: error },
    );
  } finally {
    await runtime.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${HELP}\n`);
    else if (error instanceof DomainError)
      process.stderr.write(`${error.code}: ${error.message}${error.details ? ` ${JSON.stringify(error.details)}` : ''}\n`);
    else process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);

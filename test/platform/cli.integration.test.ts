// `npm run cli -- integration create`, run as an operator runs it (a child process on an embedded
// database in a temporary DATA_DIR): it connects a WhatsApp phone number to a workspace.
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

describe('the integration create command', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  // Always the embedded database: the operator's DATABASE_URL is not this test's.
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  const env = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  const cli = async (args: string[], extraEnv: Record<string, string> = {}) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'app/cli.ts', ...args], { env: { ...env, ...extraEnv } });
    return JSON.parse(stdout);
  };

  it('connects a WhatsApp phone number to a workspace and prints its verify token and the callback URL for the provider', async () => {
    const workspace = await cli(['workspace', 'create', '--name', 'Acme', '--email', 'owner@acme.example', '--json']);
    const integration = await cli(
      [
        'integration',
        'create',
        '--workspace',
        workspace.workspace_id,
        '--phone-number-id',
        '106540352242922',
        '--business-account-id',
        '102290129340398',
        '--json',
      ],
      { WHATSAPP_ACCESS_TOKEN: 'EAAGexample', WHATSAPP_APP_SECRET: 'app-secret', PUBLIC_BASE_URL: 'https://crm.example.test/' },
    );
    expect(integration).toEqual({
      integration_id: expect.any(String),
      provider: 'whatsapp',
      phone_number_id: '106540352242922',
      business_account_id: '102290129340398',
      verify_token: expect.stringMatching(/^\S{16,}$/),
      callback_url: 'https://crm.example.test/webhooks/whatsapp',
    });
  }, 60_000);
});

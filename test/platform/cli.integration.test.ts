// `npm run cli -- integration create`, run as an operator runs it (a child process on an embedded
// database in a temporary DATA_DIR): it connects a WhatsApp phone number to a workspace, and the callback URL it
// prints is PUBLIC_BASE_URL's or, while a server runs (`node dist/main.js` on a port of its own), that server's.
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliArguments, startServer } from '../support/server.js';

const run = promisify(execFile);

describe('the integration create command', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  // Always the embedded database: the operator's DATABASE_URL is not this test's.
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  const env = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  /** The database a started server uses (test/support/server.ts), for commands run beside it. */
  const serverDatabase: Record<string, string> = process.env['TEST_DATABASE_URL'] ? { DATABASE_URL: process.env['TEST_DATABASE_URL'] } : {};
  const cli = async (args: string[], extraEnv: Record<string, string> = {}) => {
    const { stdout } = await run(process.execPath, cliArguments(...args), { env: { ...env, ...extraEnv } });
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

  it('prints the callback URL of the server it works beside, on the port that server listens on', async () => {
    const server = await startServer({ dataDir });
    try {
      const workspace = await cli(['workspace', 'create', '--name', 'Beside', '--email', 'owner@beside.example', '--json'], serverDatabase);
      const integration = await cli(
        [
          'integration',
          'create',
          '--workspace',
          workspace.workspace_id,
          '--phone-number-id',
          '106540352242923',
          '--business-account-id',
          '102290129340399',
          '--json',
        ],
        { ...serverDatabase, WHATSAPP_ACCESS_TOKEN: 'EAAGexample', WHATSAPP_APP_SECRET: 'app-secret' },
      );
      expect(integration.callback_url).toBe(`https://localhost:${server.port}/webhooks/whatsapp`);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

// A server started with an ENCRYPTION_KEY that cannot open a connected integration's credentials says so once, in
// the error log, naming the integration and its workspace (each refusal of its sends and callbacks is a 409 that the
// request log keeps at info); a server holding the key they were sealed with names none of them.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { prepareWorkspace, startServer, tempDir, type LogLine } from '../support/server.js';

type UnreadableLog = LogLine & { integrations: { id: string; workspace_id: string; provider: string }[] };

const isUnreadableReport = (line: LogLine): line is UnreadableLog => Array.isArray(line['integrations']);

describe('integrations whose credentials the server cannot read', { timeout: 120_000 }, () => {
  it('are named in the error log at start; with the sealing key, they are not', async () => {
    const dataDir = tempDir('credentials-at-start');
    const workspace = await prepareWorkspace(dataDir);

    const wrongKey = await startServer({ dataDir, env: { ENCRYPTION_KEY: randomBytes(32).toString('hex') } });
    const report = (await wrongKey.waitForLog(isUnreadableReport)) as UnreadableLog;
    expect(report['level']).toBe(50);
    expect(report.msg).toMatch(/ENCRYPTION_KEY cannot read/);
    expect(report.integrations).toContainEqual({ id: expect.any(String), workspace_id: workspace.workspaceId, provider: 'sandbox' });
    await wrongKey.stop();

    const sealingKey = await startServer({ dataDir, env: { ENCRYPTION_KEY: workspace.encryptionKey } });
    // The check is done before the metrics listener is announced.
    await sealingKey.waitForLog((line) => /^metrics on/.test(line.msg));
    const named = sealingKey
      .logs()
      .filter(isUnreadableReport)
      .flatMap((line) => line.integrations);
    expect(named.map((integration) => integration.workspace_id)).not.toContain(workspace.workspaceId);
    await sealingKey.stop();
  });
});

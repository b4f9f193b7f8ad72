// Crash safety of the agent in real processes: the server (dist/main.js, its in-process agent worker on) is
// killed with SIGKILL while the model is working on a reply, then started again on the same database. The run
// is taken over once its lease runs out and the contact gets exactly one reply. On the embedded database and,
// with TEST_DATABASE_URL, on PostgreSQL.
import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';
import { createSecretBox } from '../../infra/crypto/secrets.js';
import { selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { createWorkspace } from '../../resolvers/workspace/workspaces.js';
import { httpsFetch, startServer, tempDir, type ServerProcess } from '../support/server.js';
import { startFakeModel } from '../support/fakeModel.js';
import { AGENT_WORKER_LOCK } from '../support/agent.js';
import { takeTurnsWithOtherWorkerFiles } from '../support/webhooks.js';
import { hubSignature, inboundPayload } from '../support/whatsappPayloads.js';

takeTurnsWithOtherWorkerFiles(AGENT_WORKER_LOCK);

const databaseUrl = process.env['TEST_DATABASE_URL'];

async function openDataDirDatabase(dataDir: string): Promise<Database> {
  if (databaseUrl) return openDatabase({ url: databaseUrl, poolSize: 2 });
  const db = await openDatabase({ dataDir });
  await migrate(db.sql);
  return db;
}

describe(`the agent across a SIGKILL (${databaseUrl ? 'PostgreSQL' : 'embedded'} database)`, () => {
  it('sends exactly one reply to a message whose run was cut off mid-model-call', async () => {
    const dataDir = tempDir('agent-kill');
    const encryptionKey = randomBytes(32).toString('hex');
    const setup = await openDataDirDatabase(dataDir);
    const ws = await createWorkspace(
      { prisma: setup.prisma, secrets: createSecretBox(Buffer.from(encryptionKey, 'hex')) },
      { name: 'Agent crash test', email: `agent-${randomBytes(6).toString('hex')}@example.com` },
    );
    await setup.close();

    const model = await startFakeModel();
    model.script('crash', ['hang', { content: 'Only once [1].' }]);
    const env = {
      ENCRYPTION_KEY: encryptionKey,
      AGENT_WORKERS: 'true',
      AGENT_POLL_MS: '50',
      AGENT_LEASE_MS: '2000',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
    };
    const call = (server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      httpsFetch(server.port, path, {
        caFile: selfSignedCertificatePaths(dataDir).certFile,
        method,
        headers: { authorization: `Bearer ${ws.api_key}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    const from = `1555${randomInt(1_000_000, 9_999_999)}`;
    const say = async (server: ServerProcess, text: string) => {
      const raw = JSON.stringify(inboundPayload(ws.phone_number_id, { from, text }));
      const answer = await call(server, 'POST', '/webhooks/whatsapp', raw, { 'x-hub-signature-256': hubSignature(raw, ws.app_secret) });
      expect(answer.status).toBe(200);
    };

    const first = await startServer({ dataDir, env });
    await say(first, 'Hi');
    const conversations = JSON.parse((await call(first, 'GET', '/api/v1/conversations')).body) as { data: { id: string }[] };
    const conversationId = conversations.data[0]!.id;
    expect((await call(first, 'PATCH', `/api/v1/conversations/${conversationId}`, { service_enabled: true })).status).toBe(200);
    const settings = { kind: 'llm', llm_base_url: model.url, llm_model: 'crash', llm_api_key: model.apiKey };
    expect((await call(first, 'PATCH', '/api/v1/agent', settings)).status).toBe(200);
    // The model's reply cites the document it answers from, or it is not sent.
    const document = { title: 'Answers', content: 'We answer every message once.' };
    expect((await call(first, 'POST', '/api/v1/knowledge/documents', document)).status).toBe(201);

    const asked = model.nextRequest('crash');
    await say(first, 'Will you answer me once?');
    await asked;
    expect(await first.stop('SIGKILL')).toBe(null);

    const second = await startServer({ dataDir, env });
    const runsOf = async () =>
      (
        JSON.parse((await call(second, 'GET', `/api/v1/conversations/${conversationId}/agent-runs`)).body) as {
          data: Record<string, unknown>[];
        }
      ).data;
    await expect.poll(async () => (await runsOf())[0]?.['status'], { timeout: 30_000 }).toBe('replied');
    const [run] = await runsOf();
    expect(run).toMatchObject({ reply: 'Only once.\n\nSource: Answers', attempt_count: 2, model_calls: 1 });
    expect(model.requests('crash')).toHaveLength(2);
    expect(await second.stop('SIGTERM')).toBe(0);

    const after = await openDataDirDatabase(dataDir);
    try {
      const outbound = await after.prisma.message.findMany({ where: { conversation_id: conversationId, direction: 'outbound' } });
      expect(outbound.map((message) => [message.body, message.id])).toEqual([['Only once.\n\nSource: Answers', run!['reply_message_id']]]);
    } finally {
      await after.close();
    }
  }, 180_000);
});

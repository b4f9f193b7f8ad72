// Faults survived under load, as operators meet them: the PostgreSQL connection cut and restored while clients
// keep writing (through a TCP relay the test owns) and Redis cut while clients keep calling. During a database
// outage a request gets 503 with the spec's error object, never a 500; the service recovers without a restart;
// every write it acknowledged is there afterwards. A Redis outage fails no request.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { httpsFetch, prepareWorkspace, startServer, tempDir, type HttpsAnswer, type ServerProcess } from '../support/server.js';
import { pingRedis, startRelay } from '../support/tcpRelay.js';

const databaseUrl = process.env['TEST_DATABASE_URL'];

type Outcome = { name: string; answer: HttpsAnswer };

/** Clients creating tags one after another until stopped, each answer kept. */
function writeLoad(server: ServerProcess, apiKey: string, clients: number) {
  const outcomes: Outcome[] = [];
  let running = true;
  const caFile = selfSignedCertificatePaths(server.dataDir).certFile;
  const client = async (index: number) => {
    for (let sequence = 0; running; sequence++) {
      const name = `fault-${index}-${sequence}-${randomBytes(3).toString('hex')}`;
      const answer = await httpsFetch(server.port, '/api/v1/tags', {
        caFile,
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      outcomes.push({ name, answer });
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  return {
    outcomes,
    count: () => outcomes.length,
    async stop() {
      running = false;
      await done;
    },
  };
}

async function until(condition: () => boolean, timeoutMs: number) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function tagNames(server: ServerProcess, apiKey: string): Promise<Set<string>> {
  const answer = await httpsFetch(server.port, '/api/v1/tags', {
    caFile: selfSignedCertificatePaths(server.dataDir).certFile,
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(answer.status).toBe(200);
  return new Set((JSON.parse(answer.body).tags as { name: string }[]).map((tag) => tag.name));
}

describe.skipIf(!databaseUrl)('the PostgreSQL connection cut and restored under load', { timeout: 180_000 }, () => {
  it('answers 503 with the error object in the gap, recovers without a restart, and keeps every acknowledged write', async () => {
    const target = new URL(databaseUrl!);
    const relay = await startRelay({ host: target.hostname, port: Number(target.port || 5432) });
    const dataDir = tempDir('faults-db');
    const workspace = await prepareWorkspace(dataDir);
    const viaRelay = new URL(databaseUrl!);
    viaRelay.host = `127.0.0.1:${relay.port}`;
    const server = await startServer({
      dataDir,
      env: { ENCRYPTION_KEY: workspace.encryptionKey, DATABASE_URL: viaRelay.toString(), RATE_LIMIT_PER_MINUTE: '100000' },
    });
    const load = writeLoad(server, workspace.apiKey, 4);
    await until(() => load.count() >= 20, 30_000);
    await relay.cut();
    const cutAt = load.count();
    await until(() => load.outcomes.slice(cutAt).some((outcome) => outcome.answer.status === 503), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await relay.restore();
    const restoredAt = load.count();
    await until(() => load.outcomes.slice(restoredAt).filter((outcome) => outcome.answer.status === 201).length >= 20, 60_000);
    await load.stop();

    const statuses = new Set(load.outcomes.map((outcome) => outcome.answer.status));
    expect([...statuses].sort()).toEqual([201, 503]);
    for (const { answer } of load.outcomes.filter((outcome) => outcome.answer.status === 503)) {
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', request_id: expect.any(String) });
    }
    const stored = await tagNames(server, workspace.apiKey);
    const acknowledged = load.outcomes.filter((outcome) => outcome.answer.status === 201).map((outcome) => outcome.name);
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    await server.stop();
  });
});

describe('Redis cut under load', { timeout: 180_000 }, () => {
  it('fails no request: the rate limit and sign-in counts fall back to memory', async () => {
    await pingRedis();
    const relay = await startRelay({ host: '127.0.0.1', port: 6379 });
    const dataDir = tempDir('faults-redis');
    const workspace = await prepareWorkspace(dataDir);
    const server = await startServer({
      dataDir,
      env: {
        ENCRYPTION_KEY: workspace.encryptionKey,
        REDIS_URL: `redis://127.0.0.1:${relay.port}`,
        REDIS_KEY_PREFIX: `crm-faults-${randomBytes(4).toString('hex')}`,
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    await server.waitForLog((line) => line.msg.startsWith('redis connected'), 10_000);
    const load = writeLoad(server, workspace.apiKey, 4);
    await until(() => load.count() >= 20, 30_000);
    await relay.cut();
    const cutAt = load.count();
    await until(() => load.count() >= cutAt + 40, 60_000);
    await load.stop();
    expect(load.outcomes.filter((outcome) => outcome.answer.status !== 201).map((outcome) => outcome.answer.status)).toEqual([]);
    await server.stop();
  });
});

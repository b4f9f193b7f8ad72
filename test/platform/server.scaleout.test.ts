// Two real server processes sharing the machine's Redis (127.0.0.1:6379) hold the rate limit at exactly
// the key's budget per minute between them; when Redis goes away, both keep serving and each counts
// in its own memory. Redis is reached through a TCP relay owned by the test, so the outage is real for
// the servers without touching the machine's Redis. Keys in Redis carry a prefix unique to this run.
// The budget is 20 rather than the default 100 so that every request of a test falls in one 60-second window even when
// the machine's two cores are shared with another test run: 120 requests once took longer than the window on CI.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { pingRedis, startRelay, type Relay } from '../support/tcpRelay.js';
import { httpsFetch, prepareWorkspace, startServer, tempDir, type PreparedWorkspace, type ServerProcess } from '../support/server.js';

let first: ServerProcess;
let second: ServerProcess;
let workspace: PreparedWorkspace;
let relay: Relay;
const BUDGET = 20;

beforeAll(async () => {
  await pingRedis();
  relay = await startRelay({ host: '127.0.0.1', port: 6379 });
  const [firstDir, secondDir] = [tempDir('scale-a'), tempDir('scale-b')];
  workspace = await prepareWorkspace(firstDir, [secondDir]);
  const env = {
    RATE_LIMIT_PER_MINUTE: String(BUDGET),
    ENCRYPTION_KEY: workspace.encryptionKey,
    REDIS_URL: `redis://127.0.0.1:${relay.port}`,
    REDIS_KEY_PREFIX: `crm-test-${Date.now()}-${randomBytes(4).toString('hex')}`,
  };
  [first, second] = await Promise.all([startServer({ dataDir: firstDir, env }), startServer({ dataDir: secondDir, env })]);
  for (const server of [first, second]) await server.waitForLog((line) => line.msg.startsWith('redis connected'), 10_000);
});

function caOf(server: ServerProcess) {
  return selfSignedCertificatePaths(server.dataDir).certFile;
}

function graphql(server: ServerProcess, apiKey: string) {
  return httpsFetch(server.port, '/graphql', {
    caFile: caOf(server),
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ health { status } }' }),
  });
}

describe('two instances sharing Redis', () => {
  it('allow exactly the budget per minute per key between them; the rest get 429 with Retry-After', async () => {
    const answers = [];
    for (let index = 0; index < BUDGET + 10; index++) answers.push(await graphql(index % 2 === 0 ? first : second, workspace.apiKey));

    const served = answers.filter((answer) => answer.status === 200);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(served).toHaveLength(BUDGET);
    expect(limited).toHaveLength(10);
    expect(answers.slice(0, BUDGET).every((answer) => answer.status === 200)).toBe(true);

    // One shared count: the remaining budget falls by one per request whichever instance answers.
    expect(served.map((answer) => answer.headers['ratelimit'])).toEqual(
      served.map((_, index) => expect.stringMatching(new RegExp(`^"perkey";r=${BUDGET - 1 - index};t=\\d+$`))),
    );
    for (const answer of limited) {
      const seconds = Number(answer.headers['retry-after']);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
      const body = JSON.parse(answer.body);
      expect(body.error.code).toBe('RATE_LIMITED');
      expect(body.error.message).toContain(`retry in ${seconds} seconds`);
      expect(answer.headers['ratelimit-policy']).toBe(`"perkey";q=${BUDGET};w=60`);
    }
  });

  it('keep serving when Redis goes away, each instance then counting in its own memory', async () => {
    await relay.cut();
    await first.waitForLog((line) => line.msg.startsWith('redis unavailable'), 15_000);

    const onFirst = [];
    for (let index = 0; index <= BUDGET; index++) onFirst.push((await graphql(first, workspace.secondKey)).status);
    expect(onFirst.slice(0, BUDGET).every((status) => status === 200)).toBe(true);
    expect(onFirst[BUDGET]).toBe(429);
    // The other instance has counted nothing for this key in its memory.
    expect((await graphql(second, workspace.secondKey)).status).toBe(200);
  });
});

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
});

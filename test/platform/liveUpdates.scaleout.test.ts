// Live updates across instances (PostgreSQL only: the embedded database has one owner process): two real
// server processes on one database; a dashboard subscribed over SSE (the graphql-sse client) to the second
// sees an inbound WhatsApp message posted to the first, carried by LISTEN/NOTIFY (the hub has no other path, no
// polling). How fast is the bench's to measure (live updates, docs/performance.md): under CI's two test runs on two
// cores the same arrival took 1.7 s once, where it takes a few milliseconds on a quiet machine.
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-sse';
import { selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { openDatabase } from '../../infra/db/database.js';
import { createSecretBox } from '../../infra/crypto/secrets.js';
import { createWorkspace, type CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';
import { httpsFetch, startServer, tempDir, trustingFetch, type ServerProcess } from '../support/server.js';
import { hubSignature, inboundPayload } from '../support/whatsappPayloads.js';

const url = process.env['TEST_DATABASE_URL'];

describe.skipIf(!url)('live updates across two server processes', () => {
  let first: ServerProcess;
  let second: ServerProcess;
  let workspace: CreatedWorkspace;

  beforeAll(async () => {
    const encryptionKey = randomBytes(32).toString('hex');
    const db = await openDatabase({ url: url!, poolSize: 2 });
    try {
      workspace = await createWorkspace(
        { prisma: db.prisma, secrets: createSecretBox(Buffer.from(encryptionKey, 'hex')) },
        { name: 'Live', email: `live-${randomBytes(6).toString('hex')}@example.com` },
      );
    } finally {
      await db.close();
    }
    const env = { ENCRYPTION_KEY: encryptionKey };
    [first, second] = await Promise.all([
      startServer({ dataDir: tempDir('live-a'), env }),
      startServer({ dataDir: tempDir('live-b'), env }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
  });

  it('an inbound message posted to one reaches a subscriber of the other', async () => {
    const caFile = selfSignedCertificatePaths(second.dataDir).certFile;
    const client = createClient({
      url: `https://127.0.0.1:${second.port}/graphql`,
      headers: { authorization: `Bearer ${workspace.api_key}` },
      fetchFn: trustingFetch(caFile),
      retryAttempts: 0,
    });
    const arrivals: { body: string }[] = [];
    const errors: unknown[] = [];
    const stop = client.subscribe<{ messageCreated: { message: { body: string } } }>(
      { query: 'subscription { messageCreated { id message { body } } }' },
      {
        next: (result) => result.data && arrivals.push({ body: result.data.messageCreated.message.body }),
        error: (error) => errors.push(error),
        complete: () => {},
      },
    );
    try {
      // The subscription is open once the server has answered its head; give it a moment to join the hub.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const post = (text: string) => {
        const raw = JSON.stringify(inboundPayload(workspace.phone_number_id, { from: `1555${randomInt(1_000_000, 9_999_999)}`, text }));
        return httpsFetch(first.port, '/webhooks/whatsapp', {
          caFile: selfSignedCertificatePaths(first.dataDir).certFile,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, workspace.app_secret) },
          body: raw,
        });
      };
      // A first message warms both processes up (a fresh process compiles its first queries); the second is the one proved.
      expect((await post('Warming up')).status).toBe(200);
      await expect.poll(() => arrivals.length, { timeout: 10_000, interval: 20 }).toBe(1);
      expect((await post('Across instances')).status).toBe(200);
      await expect.poll(() => arrivals.length, { timeout: 15_000, interval: 20 }).toBe(2);
      expect(errors).toEqual([]);
      expect(arrivals.map((arrival) => arrival.body)).toEqual(['Warming up', 'Across instances']);
    } finally {
      stop();
      client.dispose();
    }
  });
});

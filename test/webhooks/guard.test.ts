// The SSRF guard at delivery time: the address is judged at connect time, by the lookup of the delivery
// client's https Agent, so a name that resolved to a public address when the subscription was created but
// resolves to an internal one now (DNS rebinding) is refused, and no connection is made. DNS answers come
// from a stub; the only "internal" listener is a trap on 127.0.0.1 that counts the connections it gets.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createServer, type Socket } from 'node:net';
import diagnostics from 'node:diagnostics_channel';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { openHarness } from '../support/harness.js';
import { startReceiver, testCertificate } from '../support/webhookReceiver.js';
import { recordMessageEvents, takeTurnsWithOtherWorkerFiles, testDeliveryOptions } from '../support/webhooks.js';
import { createTargetGuard, internalRange } from '../../infra/net/targetGuard.js';
import { createSender } from '../../workers/webhooks/sender.js';
import { startDeliveryWorker } from '../../workers/webhooks/worker.js';
import { createLogger } from '../../infra/observability/logger.js';

takeTurnsWithOtherWorkerFiles();

/** DNS whose answers a test can change; every question is recorded. */
function stubDns(initial: Record<string, string[]>) {
  const table = { ...initial };
  const asked: string[] = [];
  return {
    table,
    asked,
    async resolve(hostname: string): Promise<LookupAddress[]> {
      asked.push(hostname);
      const addresses = table[hostname];
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
}

/** A TCP listener on 127.0.0.1 standing for an internal service: it only counts connections. */
async function startTrap() {
  const connections: Socket[] = [];
  const server = createServer((socket) => {
    connections.push(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, connections };
}

/** Counts client sockets created and sockets that connected, process-wide, during a test. */
function watchSockets() {
  const seen = { created: 0, connected: 0 };
  const onSocket = (message: unknown) => {
    seen.created++;
    (message as { socket: Socket }).socket.once('connect', () => seen.connected++);
  };
  diagnostics.subscribe('net.client.socket', onSocket);
  onTestFinished(() => {
    diagnostics.unsubscribe('net.client.socket', onSocket);
  });
  return seen;
}

async function sender(resolve: (hostname: string) => Promise<LookupAddress[]>, allowedHosts: string[] = []) {
  const created = createSender({
    guard: createTargetGuard({ allowedHosts, resolve }),
    timeoutMs: 2000,
    userAgent: 'test',
    extraCa: [(await testCertificate()).cert],
  });
  onTestFinished(() => created.close());
  return created;
}

const request = (url: string) => ({ url, body: '{"id":"evt_x"}', secret: 'whsec_test', deliveryId: 'd1' });

describe('classifying addresses', () => {
  it.each([
    ['93.184.215.14', null],
    ['8.8.8.8', null],
    ['2606:4700:4700::1111', null],
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', null],
    ['2002:a00:1::', 'private'],
    ['2002:808:808::1', null],
    ['2001:0:808:808::f5ff:fffe', 'private'],
    ['2001:0:808:808::f7f7:f7f7', null],
    ['not-an-ip', 'invalid'],
  ])('%s is %s', (address, range) => {
    expect(internalRange(address)).toBe(range);
  });
});

describe('the SSRF guard at connect time', () => {
  it('refuses a name resolving to loopback before connecting: the listener there gets no connection', async () => {
    const trap = await startTrap();
    const dns = stubDns({ 'hooks.crm.test': ['127.0.0.1'] });
    const sockets = watchSockets();
    const result = await (await sender(dns.resolve)).send(request(`https://hooks.crm.test:${trap.port}/hook`));
    expect(result).toMatchObject({
      succeeded: false,
      status_code: null,
      error: 'refused: hooks.crm.test resolves to an internal address, 127.0.0.1 (loopback)',
    });
    expect(dns.asked).toEqual(['hooks.crm.test']);
    expect(trap.connections).toHaveLength(0);
    expect(sockets.connected).toBe(0);
  });

  it.each([
    [['10.20.30.40'], '10.20.30.40 (private)'],
    [['169.254.169.254'], '169.254.169.254 (linkLocal)'],
    [['::ffff:192.168.0.1'], '::ffff:192.168.0.1 (private)'],
    [['93.184.215.14', '10.0.0.7'], '10.0.0.7 (private)'],
    [['fd12:3456::1'], 'fd12:3456::1 (uniqueLocal)'],
  ])('refuses a name resolving to %j without any socket connecting', async (addresses, detail) => {
    const dns = stubDns({ 'hooks.crm.test': addresses });
    const sockets = watchSockets();
    const result = await (await sender(dns.resolve)).send(request('https://hooks.crm.test/hook'));
    expect(result.error).toBe(`refused: hooks.crm.test resolves to an internal address, ${detail}`);
    expect(sockets.connected).toBe(0);
  });

  it('refuses an internal IP literal without DNS and without creating a socket', async () => {
    const dns = stubDns({});
    const sockets = watchSockets();
    const client = await sender(dns.resolve);
    const literals = [
      'https://10.1.2.3/hook',
      'https://[::1]:8443/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://[::127.0.0.1]/',
      'https://169.254.169.254/',
    ];
    for (const url of literals) {
      expect((await client.send(request(url))).error).toMatch(/^refused: .* is an internal address/);
    }
    expect(dns.asked).toEqual([]);
    expect(sockets.created).toBe(0);
  });

  it('connects through the guarded lookup to a host of WEBHOOK_ALLOWED_HOSTS (a development receiver)', async () => {
    const receiver = await startReceiver({ secrets: ['whsec_test'] });
    onTestFinished(() => receiver.close());
    const dns = stubDns({ localhost: ['127.0.0.1'] });
    const port = new URL(receiver.url).port;
    const result = await (await sender(dns.resolve, ['localhost'])).send(request(`https://localhost:${port}/webhooks`));
    expect(result).toMatchObject({ succeeded: true, status_code: 200 });
    expect(dns.asked).toEqual(['localhost']);
    expect(receiver.requests[0]?.signatureValid).toBe(true);
  });
});

describe('DNS rebinding between creation and delivery', async () => {
  const dns = stubDns({ 'hooks.crm.test': ['93.184.215.14'] });
  const h = await openHarness({ webhookTargets: createTargetGuard({ resolve: dns.resolve }) });

  it('refuses every delivery attempt once the name resolves to an internal address', async () => {
    const trap = await startTrap();
    const workspace = await h.workspace();
    onTestFinished(async () => {
      await h.db.prisma.webhookSubscription.deleteMany({ where: { company_id: workspace.workspace_id } });
    });
    const created = await h.graphql<{ webhookCreate: { id: string } }>(
      workspace.api_key,
      `mutation ($url: String!) { webhookCreate(url: $url, events: ["message.received"]) { id } }`,
      { url: `https://hooks.crm.test:${trap.port}/hook` },
    );
    const subscriptionId = created.body.data!.webhookCreate.id;

    dns.table['hooks.crm.test'] = ['127.0.0.1'];
    const worker = startDeliveryWorker(h.services, await testDeliveryOptions({ retryDelaysMs: [20, 20] }), createLogger('silent'));
    onTestFinished(() => worker.stop());
    await recordMessageEvents(h.db.prisma, workspace.workspace_id, 1);

    const deadline = Date.now() + 20_000;
    let delivery;
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      delivery = await h.db.prisma.webhookDelivery.findFirst({
        where: { subscription_id: subscriptionId },
        include: { attempts: { orderBy: { number: 'asc' } } },
      });
    } while (delivery?.status !== 'failed' && Date.now() < deadline);
    expect(delivery?.status).toBe('failed');
    expect(delivery?.attempts.map((attempt) => attempt.error)).toEqual(
      Array(3).fill('refused: hooks.crm.test resolves to an internal address, 127.0.0.1 (loopback)'),
    );
    expect(trap.connections).toHaveLength(0);
  });
});

// The one guarded outbound client (issue 34 point 3, infra/net/outbound.ts), which webhook deliveries, the WhatsApp
// Cloud API and the AI agent's model endpoint use: an internal target is refused before any socket opens (a
// literal address, a name resolving to one, a name that resolved to a public address when saved and to an
// internal one at the call: no rebinding); a redirect is an answer, never followed; the time and the size of an
// answer are bounded; the model client keeps judging its saved URL at each call and says nothing of ports.
// Traffic goes only to loopback servers of this file, and only when the guard is told to allow them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createOutboundClient, OutboundError } from '../../infra/net/outbound.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { createChatClient, ModelError } from '../../adapters/agent/chatClient.js';

type Local = { url: string; port: number; connections: () => number; server: Server };

async function localServer(handler: Parameters<typeof createServer>[1]): Promise<Local> {
  const server = createServer(handler);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, connections: () => connections, server };
}

const loopbackAllowed = createOutboundClient({ guard: createTargetGuard({ allowedHosts: ['127.0.0.1'] }), userAgent: 'test' });
const production = createOutboundClient({ guard: createTargetGuard(), userAgent: 'test' });
afterAll(() => {
  loopbackAllowed.close();
  production.close();
});
const ask = { timeoutMs: 2_000, maxResponseBytes: 64 * 1024 };

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('internal targets', () => {
  it('refuses a loopback address, as a literal or behind a name, before any socket opens', async () => {
    const target = await localServer((_request, response) => response.end('reached'));
    for (const url of [
      `https://127.0.0.1:${target.port}/`,
      `https://[::ffff:127.0.0.1]:${target.port}/`,
      `http://127.0.0.1:${target.port}/`,
    ]) {
      expect((await refusal(production.request(url, ask))).reason).toBe('refused');
    }
    const named = createOutboundClient({
      guard: createTargetGuard({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] }),
      userAgent: 'test',
    });
    const refused = await refusal(named.request(`https://hooks.crm.test:${target.port}/`, ask));
    expect(refused).toMatchObject({
      reason: 'refused',
      message: 'refused: hooks.crm.test resolves to an internal address, 127.0.0.1 (loopback)',
    });
    named.close();
    expect(target.connections()).toBe(0);
  });

  it('judges the address where it connects: a name public when saved and internal at the call is refused', async () => {
    const target = await localServer((_request, response) => response.end('reached'));
    let answers = [{ address: '93.184.215.14', family: 4 }];
    const guard = createTargetGuard({ resolve: async () => answers });
    expect(await guard.refusal(`https://rebind.crm.test:${target.port}/`)).toBeNull();
    answers = [{ address: '127.0.0.1', family: 4 }];
    const client = createOutboundClient({ guard, userAgent: 'test' });
    expect((await refusal(client.request(`https://rebind.crm.test:${target.port}/`, ask))).reason).toBe('refused');
    client.close();
    expect(target.connections()).toBe(0);
  });
});

describe('redirects, time and size', () => {
  it('answers a redirect as it came and never follows it', async () => {
    const elsewhere = await localServer((_request, response) => response.end('followed'));
    const redirecting = await localServer((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/internal` }).end();
    });
    const response = await loopbackAllowed.request(`${redirecting.url}/v1/chat/completions`, { ...ask, method: 'POST', body: '{}' });
    expect(response.status).toBe(307);
    expect(elsewhere.connections()).toBe(0);
  });

  it('cuts an answer past its size, and one whose body stalls at the deadline', async () => {
    const large = await localServer((_request, response) => response.end(Buffer.alloc(256 * 1024, 1)));
    const big = await loopbackAllowed.request(large.url, { timeoutMs: 2_000, maxResponseBytes: 1024 });
    expect((await refusal(big.arrayBuffer())).reason).toBe('too_large');
    const stalling = await localServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"partial":');
    });
    const started = performance.now();
    const stalled = await loopbackAllowed.request(stalling.url, { timeoutMs: 300, maxResponseBytes: 1024 });
    expect((await refusal(stalled.text())).reason).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(2_000);
    const silent = await localServer(() => undefined);
    expect(await refusal(loopbackAllowed.request(silent.url, { timeoutMs: 300, maxResponseBytes: 1024 }))).toMatchObject({
      reason: 'timeout',
      message: 'timed out after 300 ms',
    });
  });
});

describe('the model endpoint', () => {
  const endpoint = (baseUrl: string) => ({ baseUrl, model: 'm', apiKey: null, temperature: null, maxTokens: null, timeoutMs: 1_000 });
  const once = { retries: 0, backoffMs: 0 };

  it('does not follow a redirect to an internal address', async () => {
    const internal = await localServer((_request, response) => response.end('{}'));
    const model = await localServer((_request, response) => response.writeHead(302, { location: `${internal.url}/steal` }).end());
    const client = createChatClient(loopbackAllowed, endpoint(model.url), once);
    await expect(client.complete({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
      new ModelError('The model endpoint answered HTTP 302'),
    );
    expect(internal.connections()).toBe(0);
  });

  it('stops calling a saved URL whose host left the allow-list, and names no port when one is closed', async () => {
    const model = await localServer((_request, response) => response.end('{}'));
    const refused = createChatClient(production, endpoint(model.url), once);
    await expect(refused.complete({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
      new ModelError('The model endpoint’s address is not allowed'),
    );
    expect(model.connections()).toBe(0);
    const closed = await localServer(() => undefined);
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    const unreachable = createChatClient(loopbackAllowed, endpoint(closed.url), once);
    const error = await unreachable.complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toBe('The model endpoint could not be reached (after 1 attempts)');
  });
});

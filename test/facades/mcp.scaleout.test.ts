// MCP across instances without sticky routing (PostgreSQL only: the embedded database has one owner process):
// two real server processes on one database behind a round-robin proxy started here, which sends each HTTP
// request to the other server than the one before. The MCP SDK's own clients, on both transports, work through
// it: a Streamable HTTP session opened on one server is served by both, and the messages of an SSE session
// POSTed to the server that does not hold its stream reach the stream. Ten clients that never close do not lock
// their key out.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { openDatabase } from '../../infra/db/database.js';
import { createSecretBox } from '../../infra/crypto/secrets.js';
import { createWorkspace, type CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';
import { startServer, tempDir, type ServerProcess } from '../support/server.js';

const url = process.env['TEST_DATABASE_URL'];
const MAX_SESSIONS_PER_KEY = 3;

type Backend = { port: number; ca: Buffer; requests: number };

/** An HTTP proxy that hands each request to the next backend in turn, streaming both ways (SSE included). */
async function startRoundRobin(backends: Backend[]): Promise<{ base: string; server: Server }> {
  let next = 0;
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const backend = backends[next++ % backends.length]!;
    backend.requests += 1;
    const upstream = httpsRequest(
      {
        host: '127.0.0.1',
        port: backend.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: `127.0.0.1:${backend.port}` },
        ca: backend.ca,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    outgoing.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(!url)('MCP on two instances behind a round-robin proxy', () => {
  let servers: ServerProcess[] = [];
  let backends: Backend[] = [];
  let proxy: { base: string; server: Server };
  let workspace: CreatedWorkspace;
  const clients: Client[] = [];

  beforeAll(async () => {
    const encryptionKey = randomBytes(32).toString('hex');
    const db = await openDatabase({ url: url!, poolSize: 2 });
    try {
      workspace = await createWorkspace(
        { prisma: db.prisma, secrets: createSecretBox(Buffer.from(encryptionKey, 'hex')) },
        { name: 'MCP scale-out', email: `mcp-${randomBytes(6).toString('hex')}@example.com` },
      );
    } finally {
      await db.close();
    }
    const env = { ENCRYPTION_KEY: encryptionKey, MCP_MAX_SESSIONS_PER_KEY: String(MAX_SESSIONS_PER_KEY) };
    servers = await Promise.all(['mcp-a', 'mcp-b'].map((name) => startServer({ dataDir: tempDir(name), env })));
    backends = servers.map((server) => ({
      port: server.port,
      ca: readFileSync(selfSignedCertificatePaths(server.dataDir).certFile),
      requests: 0,
    }));
    proxy = await startRoundRobin(backends);
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    proxy?.server.closeAllConnections();
    proxy?.server.close();
    await Promise.all(servers.map((server) => server.stop()));
  });

  async function connect(transport: 'Streamable HTTP' | 'SSE'): Promise<Client> {
    const endpoint = new URL(transport === 'SSE' ? '/mcp/sse' : '/mcp', proxy.base);
    const requestInit = { headers: { authorization: `Bearer ${workspace.api_key}` } };
    const client = new Client({ name: 'scale-out', version: '1' });
    await client.connect(
      transport === 'SSE'
        ? new SSEClientTransport(endpoint, { requestInit })
        : new StreamableHTTPClientTransport(endpoint, { requestInit }),
    );
    clients.push(client);
    return client;
  }

  async function createAndReadTag(client: Client, name: string) {
    const created = (await client.callTool({ name: 'tags_create', arguments: { name } })) as CallToolResult;
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const listed = (await client.callTool({ name: 'tags_list', arguments: {} })) as CallToolResult;
    expect(JSON.stringify(listed.structuredContent)).toContain(name);
  }

  it.each(['Streamable HTTP', 'SSE'] as const)(
    'serves one %s session from both servers: every call answered, whichever server receives it',
    async (transport) => {
      const before = backends.map((backend) => backend.requests);
      const client = await connect(transport);
      for (let call = 0; call < 4; call += 1) {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        await createAndReadTag(client, `${transport === 'SSE' ? 'sse' : 'http'}-${call}-${randomBytes(3).toString('hex')}`);
      }
      for (const [index, backend] of backends.entries()) expect(backend.requests - before[index]!).toBeGreaterThan(2);
    },
  );

  it(`never locks the key out: ten clients that never close, and an eleventh works; the key holds at most ${MAX_SESSIONS_PER_KEY}`, async () => {
    const abandoned: Client[] = [];
    for (let opened = 0; opened < 10; opened += 1) abandoned.push(await connect('Streamable HTTP'));
    const latest = await connect('Streamable HTTP');
    expect((await latest.listTools()).tools.length).toBeGreaterThan(0);
    expect((await abandoned.at(-1)!.listTools()).tools.length).toBeGreaterThan(0);
    await expect(abandoned[0]!.listTools()).rejects.toThrow();
  });
});

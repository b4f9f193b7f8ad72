// The real server (`app/main.ts` as a child process) on its one port: HTTPS with the self-signed
// certificate it generates once, plain HTTP refused before the application, slow clients cut off with a
// JSON 408, metrics on their own loopback listener, request logs without secrets, and SIGTERM draining.
import { X509Certificate } from 'node:crypto';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { httpsFetch, prepareWorkspace, startServer, tempDir, type PreparedWorkspace, type ServerProcess } from '../support/server.js';

const REQUEST_TIMEOUT_MS = 4000;

let server: ServerProcess;
let workspace: PreparedWorkspace;
let caFile: string;

beforeAll(async () => {
  const dataDir = tempDir('https');
  workspace = await prepareWorkspace(dataDir);
  server = await startServer({
    dataDir,
    env: { ENCRYPTION_KEY: workspace.encryptionKey, REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
  });
  caFile = selfSignedCertificatePaths(dataDir).certFile;
});

function plainHttp(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTPS with a self-signed certificate generated into the data directory', () => {
  it('prints the SHA-256 fingerprint of the certificate file it serves', () => {
    const certificate = new X509Certificate(readFileSync(caFile));
    const line = server.logs().find((entry) => entry.msg.includes('fingerprint'));
    expect(line?.msg).toContain(certificate.fingerprint256);
    expect(certificate.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  });

  it('answers `curl --cacert <cert> https://localhost:<port>/health` with the Health object', async () => {
    const { stdout } = await promisify(execFile)('curl', [
      '--silent',
      '--show-error',
      '--cacert',
      caFile,
      '--write-out',
      '\n%{http_code}',
      `https://localhost:${server.port}/health`,
    ]);
    const [body, status] = stdout.split('\n');
    expect(status).toBe('200');
    expect(JSON.parse(body!)).toMatchObject({ status: 'ok', service: 'messaging-crm' });
  });

  it('verifies for the address 127.0.0.1 too (IP subject alternative name)', async () => {
    const answer = await httpsFetch(server.port, '/health', { caFile, host: '127.0.0.1' });
    expect(answer.status).toBe(200);
  });
});

describe('plain HTTP on the same port', () => {
  it('is answered 400 with the error object HTTPS_REQUIRED and never reaches the application', async () => {
    const probe = 'plain-http-probe-0001';
    const answer = await plainHttp(server.port, '/graphql', {
      'x-request-id': probe,
      authorization: `Bearer ${workspace.apiKey}`,
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toContain('application/json');
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'HTTPS_REQUIRED', message: expect.stringContaining('HTTPS only'), request_id: answer.headers['x-request-id'] },
    });
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
    // Every request that reaches the application is logged with its request id; this one is not.
    const reached = 'https-probe-000000001';
    await httpsFetch(server.port, '/health', { caFile, headers: { 'x-request-id': reached } });
    await server.waitForLog((line) => line['request_id'] === reached, 5000);
    expect(server.output()).not.toContain(probe);
  });
});

describe('requests Node itself refuses', () => {
  it("answer malformed HTTP with 400 and the error object, not Node's bare text", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = netConnect(server.port, '127.0.0.1', () => socket.write('NOT-HTTP at all\r\n\r\n'));
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'Malformed HTTP request', request_id: expect.stringMatching(/^req_/) },
    });
  });

  it('answer a client too slow to send its request with 408 and the error object REQUEST_TIMEOUT', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: server.port, servername: 'localhost', ca: readFileSync(caFile) }, () => {
        socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n'); // headers never finished
      });
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      error: {
        code: 'REQUEST_TIMEOUT',
        message: `The request was not received within ${REQUEST_TIMEOUT_MS} ms`,
        request_id: /x-request-id: (req_\S+)/.exec(raw)?.[1],
      },
    });
  });

  it('answer a request whose body arrives too slowly exactly once: one 408, nothing after it on the connection', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: server.port, servername: 'localhost', ca: readFileSync(caFile) }, () => {
        const head = `POST /graphql HTTP/1.1\r\nHost: localhost\r\nauthorization: Bearer ${workspace.apiKey}\r\n`;
        socket.write(`${head}content-type: application/json\r\ncontent-length: 1000\r\n\r\n{"query":`);
      });
      // A byte now and then, never the whole body: the connection stays busy but the request never completes.
      const trickle = setInterval(() => socket.writable && socket.write(' '), 500);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      const end = () => {
        clearInterval(trickle);
        resolve(received);
      };
      socket.on('close', end);
      // The server closes the connection after its answer; a byte of the trickle written after that may come back as
      // a reset, which ends the connection as the close does. A reset before any answer is a failure.
      socket.on('error', (error: Error) => (received ? end() : reject(error)));
    });
    expect(raw.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 408']);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'REQUEST_TIMEOUT' } });
  });
});

describe('request logs', () => {
  it('carry request id, workspace id and key prefix, and never the API key or the request body', async () => {
    const marker = 'body-text-that-must-not-be-logged-7f3a';
    const answer = await httpsFetch(server.port, '/graphql', {
      caFile,
      method: 'POST',
      headers: { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query ($q: String!) { contactSearch(q: $q) { has_more } }', variables: { q: marker } }),
    });
    expect(answer.status).toBe(200);
    const requestId = answer.headers['x-request-id'] as string;
    const line = await server.waitForLog((entry) => entry['request_id'] === requestId, 5000);
    expect(line).toMatchObject({
      msg: 'request',
      method: 'POST',
      path: '/graphql',
      status: 200,
      workspace_id: workspace.workspaceId,
      key_prefix: workspace.apiKey.slice(0, 13),
    });
    expect(server.output()).not.toContain(workspace.apiKey);
    expect(server.output()).not.toContain(marker);
  });
});

describe('metrics', () => {
  it('are served in Prometheus format on the loopback metrics port, with requests by route and status', async () => {
    const response = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/health",status="200"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="[0-9.]+",method="POST",route="\/graphql",status="200"\} \d+/);
    expect(text).toContain('webhook_queue_depth');
    expect(text).toContain('webhook_delivery_failures_total');
  });

  it('are not served on the public port', async () => {
    const answer = await httpsFetch(server.port, '/metrics', { caFile });
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain('http_requests_total');
  });
});

/** A GraphQL request whose body is held back; resolves `reachedApplication` once the server has dispatched it. */
function requestInFlight(port: number, apiKey: string) {
  const body = JSON.stringify({ query: '{ users { email } }' });
  const request = httpsRequest({
    host: '127.0.0.1',
    port,
    path: '/graphql',
    method: 'POST',
    ca: readFileSync(caFile),
    servername: 'localhost',
    agent: false,
    // With Expect: 100-continue, Node says "go on" only once it has handed the request to the application.
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      expect: '100-continue',
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
  });
  request.flushHeaders();
  return {
    reachedApplication: new Promise<void>((resolve) => request.once('continue', resolve)),
    answer,
    finish: () => request.end(body),
    abandon: () => request.destroy(),
  };
}

describe('SIGTERM', () => {
  it('stops accepting, lets the request in flight finish, closes the database and exits 0', async () => {
    const inFlight = requestInFlight(server.port, workspace.apiKey);
    await inFlight.reachedApplication;

    const exitCode = server.stop('SIGTERM');
    await server.waitForLog((line) => line.msg.startsWith('shutting down'), 5000);
    // Refused either before the TCP handshake or, when the connection races the listener closing, before TLS.
    await expect(httpsFetch(server.port, '/health', { caFile })).rejects.toThrow(
      /ECONNREFUSED|ECONNRESET|socket hang up|socket disconnected before secure TLS connection was established/,
    );

    inFlight.finish();
    const finished = await inFlight.answer;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body).data.users).toHaveLength(1);

    expect(await exitCode).toBe(0);
    const messages = server.logs().map((line) => line.msg);
    expect(messages).toEqual(expect.arrayContaining(['https server stopped', 'database stopped', 'metrics server stopped']));
    expect(server.logs().at(-1)).toMatchObject({ msg: 'shutdown complete', clean: true });
  });

  let restarted: ServerProcess;

  it('keeps the generated certificate: a restart on the same data directory serves the same fingerprint', async () => {
    const fingerprint = new X509Certificate(readFileSync(caFile)).fingerprint256;
    restarted = await startServer({
      dataDir: server.dataDir,
      env: { ENCRYPTION_KEY: workspace.encryptionKey, SHUTDOWN_TIMEOUT_MS: '1000' },
    });
    expect(restarted.logs().find((line) => line.msg.includes('fingerprint'))?.msg).toContain(fingerprint);
    expect((await httpsFetch(restarted.port, '/health', { caFile })).status).toBe(200);
  });

  it('does not wait past SHUTDOWN_TIMEOUT_MS for a request that never finishes: it is cut and the exit code is 1', async () => {
    const stalled = requestInFlight(restarted.port, workspace.apiKey);
    await stalled.reachedApplication;
    const cut = stalled.answer.catch((error: Error) => error);
    expect(await restarted.stop('SIGTERM')).toBe(1);
    expect(await cut).toBeInstanceOf(Error);
    expect(restarted.logs().map((line) => line.msg)).toEqual(
      expect.arrayContaining(['https server did not stop cleanly within 1000 ms', 'database stopped']),
    );
    stalled.abandon();
  });

  it('exits when its standard output has gone: the log lines it can no longer write are dropped, not retried for ever', async () => {
    const orphaned = await startServer({ dataDir: tempDir('orphaned') });
    // The reader of the log pipe goes away (a log shipper that died); the next lines meet a closed pipe (EPIPE).
    orphaned.child.stdout!.destroy();
    expect(await orphaned.stop('SIGTERM')).toBe(0);
  });
});

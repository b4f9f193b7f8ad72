// The real server with the operator's own certificate files (TLS_CERT_FILE, TLS_KEY_FILE) behind a
// TLS-terminating proxy (TRUST_PROXY=true): plain HTTP is served only when the proxy's X-Forwarded-Proto
// says the client used HTTPS; TLS connections are still served directly.
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCertificate, selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { httpsFetch, startServer, tempDir, type ServerProcess } from '../support/server.js';

let server: ServerProcess;
let certFile: string;

beforeAll(async () => {
  const operatorDir = tempDir('operator-cert');
  const issued = await loadCertificate({ dataDir: operatorDir });
  certFile = join(operatorDir, 'operator-cert.pem');
  const keyFile = join(operatorDir, 'operator-key.pem');
  writeFileSync(certFile, issued.cert);
  writeFileSync(keyFile, issued.key, { mode: 0o600 });
  server = await startServer({
    dataDir: tempDir('proxy'),
    env: { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile, TRUST_PROXY: 'true' },
  });
});

function plainHealth(headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path: '/health', headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('TLS_CERT_FILE and TLS_KEY_FILE', () => {
  it('are served instead of a generated certificate, and their fingerprint is printed', async () => {
    const fingerprint = new X509Certificate(readFileSync(certFile)).fingerprint256;
    const line = server.logs().find((entry) => entry.msg.includes('fingerprint'));
    expect(line).toMatchObject({ tls: { source: 'files', cert_file: certFile, fingerprint_sha256: fingerprint } });
    expect(existsSync(selfSignedCertificatePaths(server.dataDir).certFile)).toBe(false);
    expect((await httpsFetch(server.port, '/health', { caFile: certFile })).status).toBe(200);
  });
});

describe('TRUST_PROXY=true', () => {
  it('serves plain HTTP that the proxy marks X-Forwarded-Proto: https', async () => {
    const answer = await plainHealth({ 'x-forwarded-proto': 'https' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' });
  });

  it('refuses plain HTTP that the proxy received over HTTP, or that carries no X-Forwarded-Proto', async () => {
    const refused: Record<string, string>[] = [{ 'x-forwarded-proto': 'http' }, {}, { 'x-forwarded-proto': 'https, http' }];
    for (const headers of refused) {
      const answer = await plainHealth(headers);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error.code).toBe('HTTPS_REQUIRED');
    }
  });
});

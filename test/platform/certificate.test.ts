// The certificate `npm start` serves without configuration: self-signed for localhost, 127.0.0.1 and ::1,
// generated once into the data directory (key readable by the owner only) and reused afterwards.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCertificate, selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { tempDir } from '../support/server.js';

describe('self-signed certificate', () => {
  it('is generated for localhost, 127.0.0.1 and ::1, valid now, server-auth only, with its key beside it', async () => {
    const dataDir = tempDir('cert');
    const certificate = await loadCertificate({ dataDir });
    const x509 = new X509Certificate(certificate.cert);
    expect(certificate.source).toBe('self-signed');
    expect(x509.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(x509.ca).toBe(false);
    expect(x509.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(new Date(x509.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(x509.validTo).getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);
    expect(x509.checkPrivateKey(createPrivateKey(certificate.key))).toBe(true);
    expect(certificate.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(statSync(selfSignedCertificatePaths(dataDir).keyFile).mode & 0o777).toBe(0o600);
  });

  it('is generated once: the next start reuses the same certificate', async () => {
    const dataDir = tempDir('cert-reuse');
    const first = await loadCertificate({ dataDir });
    const second = await loadCertificate({ dataDir });
    expect(second.fingerprint256).toBe(first.fingerprint256);
    expect(second.certFile).toBe(selfSignedCertificatePaths(dataDir).certFile);
  });
});

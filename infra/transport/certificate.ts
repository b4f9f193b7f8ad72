// The TLS certificate the server presents: the operator's files (TLS_CERT_FILE, TLS_KEY_FILE) when given,
// otherwise a self-signed certificate for localhost generated once into the data directory, so that
// `npm start` serves HTTPS with no setup. Its SHA-256 fingerprint is what a client pins or compares.
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Certificate = {
  cert: string;
  key: string;
  /** Uppercase hex pairs separated by colons, as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint256: string;
  source: 'files' | 'self-signed';
  certFile: string;
  validTo: Date;
};

const VALIDITY_DAYS = 825;
const DAY_MS = 86_400_000;

export function selfSignedCertificatePaths(dataDir: string) {
  const dir = join(dataDir, 'tls');
  return { dir, certFile: join(dir, 'self-signed-cert.pem'), keyFile: join(dir, 'self-signed-key.pem') };
}

export async function loadCertificate(options: {
  certFile?: string | undefined;
  keyFile?: string | undefined;
  dataDir: string;
}): Promise<Certificate> {
  if (options.certFile && options.keyFile) {
    return describe(readFileSync(options.certFile, 'utf8'), readFileSync(options.keyFile, 'utf8'), 'files', options.certFile);
  }
  const paths = selfSignedCertificatePaths(options.dataDir);
  if (existsSync(paths.certFile) && existsSync(paths.keyFile)) {
    const stored = describe(readFileSync(paths.certFile, 'utf8'), readFileSync(paths.keyFile, 'utf8'), 'self-signed', paths.certFile);
    // An expired certificate would make every client fail; a new one only changes the fingerprint.
    if (stored.validTo.getTime() > Date.now() + DAY_MS) return stored;
  }
  const generated = await generateSelfSigned();
  mkdirSync(paths.dir, { recursive: true });
  writeFileSync(paths.keyFile, generated.key, { mode: 0o600 });
  writeFileSync(paths.certFile, generated.cert);
  return describe(generated.cert, generated.key, 'self-signed', paths.certFile);
}

async function generateSelfSigned(): Promise<{ cert: string; key: string }> {
  // Loaded only to generate: selfsigned and its X.509 and ASN.1 libraries took 70 ms of every start to load.
  const { generate } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - DAY_MS);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + VALIDITY_DAYS * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

function describe(cert: string, key: string, source: Certificate['source'], certFile: string): Certificate {
  const x509 = new X509Certificate(cert);
  return { cert, key, fingerprint256: x509.fingerprint256, source, certFile, validTo: new Date(x509.validTo) };
}

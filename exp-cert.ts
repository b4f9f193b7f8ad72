import { loadCertificate } from './transport/certificate.js';
import { X509Certificate, createPrivateKey } from 'node:crypto';
const t = Date.now();
const c = await loadCertificate({ dataDir: '/tmp/exp/certdata' });
console.log(Date.now() - t, c.fingerprint256, c.validTo, c.source);
const x = new X509Certificate(c.cert);
console.log(x.subjectAltName, x.subject, x.ca, x.checkPrivateKey(createPrivateKey(c.key)));

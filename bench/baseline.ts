// The raw baseline: a minimal node:http + pg server answering the same contacts list, search and get as
// the service, with hand-written SQL and the same API-key check (one indexed lookup by key prefix + hash).
// It has no GraphQL, no validation library and no ORM: the floor the service is measured against. It serves
// HTTPS with the same kind of certificate as the service (self-signed P-256), so that the ratio measures the
// service's own cost and not the encryption both must pay.
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCertificate } from '../infra/transport/certificate.js';
import { createHash } from 'node:crypto';
import pg from 'pg';

const COLUMNS = `id, company_id, phone_number, wa_id, email, name, image_url, metadata, created_at, updated_at`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startBaseline(databaseUrl: string, port = 0): Promise<{ port: number; close(): Promise<void> }> {
  const { cert, key } = await loadCertificate({ dataDir: join(tmpdir(), 'crm-bench-baseline') });
  // Without JIT, as the service runs: the floor is the best the same server can do for these statements.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: '-c jit=off' });

  async function workspaceOf(authorization: string | undefined): Promise<string | null> {
    const key = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!key) return null;
    const hash = createHash('sha256').update(key).digest('hex');
    const { rows } = await pool.query('SELECT company_id FROM api_keys WHERE prefix = $1 AND hash = $2 AND revoked_at IS NULL', [
      key.slice(0, 13),
      hash,
    ]);
    return rows[0]?.company_id ?? null;
  }

  function page(rows: Record<string, unknown>[], limit: number) {
    const has_more = rows.length > limit;
    const data = has_more ? rows.slice(0, limit) : rows;
    return { data, next_cursor: has_more ? (data.at(-1)?.['id'] as string) : null, has_more };
  }

  const server = createServer({ cert, key }, async (request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    try {
      const url = new URL(request.url ?? '/', 'http://baseline');
      const workspace = await workspaceOf(request.headers.authorization);
      if (!workspace) return send(401, { error: { code: 'UNAUTHORIZED', message: 'Unauthorized' } });
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 50)));
      const cursor = url.searchParams.get('cursor');
      const after = cursor && UUID.test(cursor) ? cursor : null;
      const getMatch = /^\/api\/v1\/contacts\/([0-9a-f-]{36})$/.exec(url.pathname);
      if (url.pathname === '/api/v1/contacts') {
        const { rows } = await pool.query(
          `SELECT ${COLUMNS} FROM customers WHERE company_id = $1 AND ($2::uuid IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
          [workspace, after, limit + 1],
        );
        return send(200, page(rows, limit));
      }
      if (url.pathname === '/api/v1/contacts/search') {
        const q = `%${(url.searchParams.get('q') ?? '').replace(/[\\%_]/g, '\\$&')}%`;
        const { rows } = await pool.query(
          `SELECT ${COLUMNS} FROM customers WHERE company_id = $1 AND (name ILIKE $2 OR phone_number ILIKE $2 OR email ILIKE $2)
           AND ($3::uuid IS NULL OR id < $3) ORDER BY id DESC LIMIT $4`,
          [workspace, q, after, limit + 1],
        );
        return send(200, page(rows, limit));
      }
      if (getMatch) {
        const { rows } = await pool.query(
          `SELECT ${COLUMNS}, profile_name, notes, last_message_at,
             (SELECT coalesce(array_agg(t.name ORDER BY t.name), '{}') FROM customer_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.customer_id = c.id) AS tags,
             (SELECT count(*)::int FROM conversations v WHERE v.customer_id = c.id) AS conversation_count
           FROM customers c WHERE id = $1 AND company_id = $2`,
          [getMatch[1], workspace],
        );
        return rows[0] ? send(200, rows[0]) : send(404, { error: { code: 'NOT_FOUND', message: 'Customer not found' } });
      }
      send(404, { error: { code: 'NOT_FOUND', message: 'No route' } });
    } catch (error) {
      send(500, { error: { code: 'INTERNAL', message: String(error) } });
    }
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: async () => {
          server.close();
          await pool.end();
        },
      });
    });
  });
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is required');
  const { port } = await startBaseline(url, Number(process.env['PORT'] ?? 0));
  console.log(`baseline listening on port ${port}`);
}

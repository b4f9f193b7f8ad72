// The raw baseline: a minimal node:http + pg server answering the same contacts list, search and get, conversations
// list (by status, before a date-time) and a conversation's messages as the service, in the same JSON, with
// hand-written SQL and the same API-key check (one indexed lookup by key prefix + hash).
// It has no GraphQL, no validation library and no ORM: the floor the service is measured against. It serves
// HTTPS with the same kind of certificate as the service (self-signed P-256), so that the ratio measures the
// service's own cost and not the encryption both must pay.
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCertificate } from '../infra/transport/certificate.js';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { phoneDigits } from '../resolvers/contacts/search.js';
import { containsPattern } from '../resolvers/shared/substringSearch.js';

const CONTACT_FIELDS = `id company_id phone_number wa_id email name image_url metadata created_at updated_at
  marketing_consent_status marketing_consent_source marketing_consent_updated_at`.split(/\s+/);
const COLUMNS = CONTACT_FIELDS.join(', ');
const CONVERSATION_COLUMNS = `v.id, v.company_id, v.customer_id, v.agent_id, v.integration_id, v.session_id, v.provider, v.status,
  v.service_enabled, v.assigned_user_id, v.details, v.last_message_at, v.external_conversation_id, v.created_at, v.updated_at`;
const MESSAGE_COLUMNS = `m.id, m.conversation_id, m.body, m.direction, m.status, m.type, m.media, m.content, m.sender_type, m.sender_id,
  m.reply_to_message_id, m.provider_message_id, m.template_name, m.template_language, m.error_code, m.error_title, m.error_details,
  m.pricing, m.sent_at, m.delivered_at, m.read_at, m.failed_at, m.created_at, m.updated_at`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOrNull = (value: string | null) => (value && UUID.test(value) ? value : null);

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

  /** A contact row as the service's contact: its marketing consent as one object. */
  function contact(row: Record<string, unknown>) {
    const { marketing_consent_status, marketing_consent_source, marketing_consent_updated_at, ...fields } = row;
    return {
      ...fields,
      marketing_consent: { status: marketing_consent_status, source: marketing_consent_source, updated_at: marketing_consent_updated_at },
    };
  }

  /** A conversation row with its contact's columns (prefixed `contact_`) as the service's conversation. */
  function conversation(row: Record<string, unknown>) {
    const fields: Record<string, unknown> = {};
    const customer: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) {
      if (column.startsWith('contact_')) customer[column.slice('contact_'.length)] = value;
      else fields[column] = value;
    }
    return { ...fields, customer: contact(customer) };
  }

  /** A message row as the service's message detail. */
  function message(row: Record<string, unknown>) {
    const { content, sender_type, sender_id, template_name, template_language, error_code, error_title, error_details, ...rest } = row;
    const parts = (content ?? {}) as Record<string, unknown>;
    return {
      ...rest,
      location: parts['location'] ?? null,
      contacts: parts['contacts'] ?? null,
      reply: parts['reply'] ?? null,
      reaction: parts['reaction'] ?? null,
      template: template_name && template_language ? { name: template_name, language: template_language } : null,
      sender: { type: sender_type ?? (row['direction'] === 'inbound' ? 'contact' : 'api_key'), id: sender_id },
      error: row['status'] === 'failed' ? { code: error_code, title: error_title, details: error_details, retryable: false } : null,
    };
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
      const after = uuidOrNull(url.searchParams.get('cursor'));
      const getMatch = /^\/api\/v1\/contacts\/([0-9a-f-]{36})$/.exec(url.pathname);
      const messagesMatch = /^\/api\/v1\/conversations\/([0-9a-f-]{36})\/messages$/.exec(url.pathname);
      if (url.pathname === '/api/v1/conversations') {
        const status = url.searchParams.get('status');
        const before = url.searchParams.get('before');
        const since = before && !Number.isNaN(Date.parse(before)) ? before : null;
        // Conditions written only when given, and the order of the (company_id, status, last_message_at DESC, id
        // DESC) index when the date excludes conversations without messages (which come last otherwise).
        const params: unknown[] = [workspace, limit + 1];
        const and = (condition: string, value: unknown) => `AND ${condition} $${params.push(value)}`;
        const { rows } = await pool.query(
          `SELECT ${CONVERSATION_COLUMNS}, ${CONTACT_FIELDS.map((field) => `c.${field} AS contact_${field}`).join(', ')}
           FROM conversations v JOIN customers c ON c.id = v.customer_id
           WHERE v.company_id = $1 ${status ? and('v.status =', status) : ''} ${since ? and('v.last_message_at <', since) : ''}
           ORDER BY v.last_message_at DESC ${since ? '' : 'NULLS LAST'}, v.id DESC LIMIT $2`,
          params,
        );
        return send(200, page(rows.map(conversation), limit));
      }
      if (messagesMatch) {
        // One statement: no row when the conversation is not the workspace's, one row of nulls when it has no message.
        const { rows } = await pool.query(
          `SELECT m.* FROM conversations v LEFT JOIN LATERAL (
             SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = v.id AND ($3::uuid IS NULL OR m.id < $3) ORDER BY m.id DESC LIMIT $4
           ) AS m ON true WHERE v.id = $1 AND v.company_id = $2`,
          [messagesMatch[1], workspace, uuidOrNull(url.searchParams.get('before')), limit + 1],
        );
        if (rows.length === 0) return send(404, { error: { code: 'NOT_FOUND', message: 'Conversation not found' } });
        return send(200, page(rows.filter((row) => row['id'] !== null).map(message), limit));
      }
      if (url.pathname === '/api/v1/contacts') {
        const { rows } = await pool.query(
          `SELECT ${COLUMNS} FROM customers WHERE company_id = $1 AND ($2::uuid IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
          [workspace, after, limit + 1],
        );
        return send(200, page(rows.map(contact), limit));
      }
      if (url.pathname === '/api/v1/contacts/search') {
        const term = url.searchParams.get('q') ?? '';
        // The service's rule for a term typed as a phone number (its digits, a leading 00 dropped), so that both
        // answer the same contacts.
        const phone = phoneDigits(term);
        const { rows } = await pool.query(
          `SELECT ${COLUMNS} FROM customers WHERE company_id = $1
           AND (name ILIKE $2 OR ${phone === null ? 'phone_number ILIKE $2' : 'phone_number LIKE $5'} OR email ILIKE $2)
           AND ($3::uuid IS NULL OR id < $3) ORDER BY id DESC LIMIT $4`,
          [workspace, containsPattern(term), after, limit + 1, ...(phone === null ? [] : [containsPattern(phone)])],
        );
        return send(200, page(rows.map(contact), limit));
      }
      if (getMatch) {
        const { rows } = await pool.query(
          `SELECT ${COLUMNS}, profile_name, notes, last_message_at,
             (SELECT coalesce(array_agg(t.name ORDER BY t.name), '{}') FROM customer_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.customer_id = c.id) AS tags,
             (SELECT count(*)::int FROM conversations v WHERE v.customer_id = c.id) AS conversation_count
           FROM customers c WHERE id = $1 AND company_id = $2`,
          [getMatch[1], workspace],
        );
        return rows[0] ? send(200, contact(rows[0])) : send(404, { error: { code: 'NOT_FOUND', message: 'Customer not found' } });
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

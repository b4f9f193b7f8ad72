// Migration 0004 gives the contacts that existed before it their identities as primary channels, with
// UUIDv7 ids and the provider new channels get, so the mirror rule holds for old data too.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../infra/db/migrate.js';
import { openDatabaseBefore } from '../support/databaseBefore.js';

const CHANNELS = '0004_contact_channels';

describe(`migration ${CHANNELS}`, async () => {
  const db = await openDatabaseBefore(CHANNELS);
  afterAll(() => db.close());

  it('backfills each identity of existing contacts as a primary channel', async () => {
    const [workspace] = await db.sql.query<{ id: string }>(
      `INSERT INTO workspaces (id, name, updated_at) VALUES ('0190f3a0-0000-7000-8000-000000000001', 'Old', now()) RETURNING id`,
    );
    await db.sql.query(
      `INSERT INTO integrations (id, company_id, provider, phone_number_id, business_account_id, credentials, updated_at)
       VALUES ('0190f3a0-0000-7000-8000-000000000002', $1, 'whatsapp', 'pn-old', 'waba-old', 'sealed', now())`,
      [workspace!.id],
    );
    await db.sql.query(
      `INSERT INTO customers (id, company_id, phone_number, wa_id, email, updated_at) VALUES
         ('0190f3a0-0000-7000-8000-000000000003', $1, '+15550001111', '15550001111', 'Old@Example.com', now()),
         ('0190f3a0-0000-7000-8000-000000000004', $1, NULL, NULL, NULL, now())`,
      [workspace!.id],
    );

    expect(await migrate(db.sql)).toContain(CHANNELS);

    const channels = await db.sql.query<{
      id: string;
      customer_id: string;
      type: string;
      value: string;
      provider: string;
      is_primary: boolean;
    }>('SELECT id, customer_id, type, value, provider, is_primary FROM contact_channels ORDER BY type');
    expect(channels.map(({ id: _id, ...channel }) => channel)).toEqual([
      { customer_id: '0190f3a0-0000-7000-8000-000000000003', type: 'email', value: 'old@example.com', provider: 'email', is_primary: true },
      { customer_id: '0190f3a0-0000-7000-8000-000000000003', type: 'phone', value: '+15550001111', provider: 'whatsapp', is_primary: true },
      { customer_id: '0190f3a0-0000-7000-8000-000000000003', type: 'wa_id', value: '15550001111', provider: 'whatsapp', is_primary: true },
    ]);
    for (const { id } of channels) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [customer] = await db.sql.query<{ email: string }>(
      `SELECT email FROM customers WHERE id = '0190f3a0-0000-7000-8000-000000000003'`,
    );
    expect(customer!.email).toBe('old@example.com');
  });
});

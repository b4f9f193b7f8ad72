// Migration 0012 reads a BSUID that earlier versions stored as the wa_id as what it is (the bsuid channel and
// column), and gives every contact whose identities have no channel yet its primary channels, so that
// contacts written before every path went through the channels writer follow the mirror rule too.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../infra/db/migrate.js';
import { openDatabaseBefore } from '../support/databaseBefore.js';

const IDENTITY = '0012_provider_identity';
const WORKSPACE = '0190f3a0-0000-7000-8000-000000000001';
const LEGACY_BSUID = '0190f3a0-0000-7000-8000-000000000003';
const WITHOUT_CHANNELS = '0190f3a0-0000-7000-8000-000000000004';

describe(`migration ${IDENTITY}`, async () => {
  const db = await openDatabaseBefore(IDENTITY);
  afterAll(() => db.close());

  it('moves BSUIDs stored as wa_ids to the bsuid channel and column, and backfills missing channels', async () => {
    await db.sql.query(`INSERT INTO workspaces (id, name, public_id, updated_at) VALUES ($1, 'Old', 'old-workspace-public-id', now())`, [
      WORKSPACE,
    ]);
    await db.sql.query(
      `INSERT INTO customers (id, company_id, phone_number, wa_id, updated_at) VALUES
         ($2, $1, NULL, 'US.13491208655302741918', now()),
         ($3, $1, '+15550001111', '15550001111', now())`,
      [WORKSPACE, LEGACY_BSUID, WITHOUT_CHANNELS],
    );
    await db.sql.query(
      `INSERT INTO contact_channels (id, company_id, customer_id, type, value, provider, is_primary, updated_at)
       VALUES ('0190f3a0-0000-7000-8000-000000000005', $1, $2, 'wa_id', 'US.13491208655302741918', 'whatsapp', true, now())`,
      [WORKSPACE, LEGACY_BSUID],
    );

    expect(await migrate(db.sql)).toContain(IDENTITY);

    const customers = await db.sql.query<{ id: string; wa_id: string | null; bsuid: string | null; phone_number: string | null }>(
      'SELECT id, wa_id, bsuid, phone_number FROM customers ORDER BY id',
    );
    expect(customers).toEqual([
      { id: LEGACY_BSUID, wa_id: null, bsuid: 'US.13491208655302741918', phone_number: null },
      { id: WITHOUT_CHANNELS, wa_id: '15550001111', bsuid: null, phone_number: '+15550001111' },
    ]);
    const channels = await db.sql.query<{ customer_id: string; type: string; value: string; is_primary: boolean }>(
      'SELECT customer_id, type, value, is_primary FROM contact_channels ORDER BY customer_id, type',
    );
    expect(channels).toEqual([
      { customer_id: LEGACY_BSUID, type: 'bsuid', value: 'US.13491208655302741918', is_primary: true },
      { customer_id: WITHOUT_CHANNELS, type: 'phone', value: '+15550001111', is_primary: true },
      { customer_id: WITHOUT_CHANNELS, type: 'wa_id', value: '15550001111', is_primary: true },
    ]);
  });
});

// A transaction of another database on TEST_DATABASE_URL's server, as another application sharing the server runs
// one (an index build, a batch job): open, holding its transaction id, until released.
import pg from 'pg';
import { databaseOnTestServer } from './freshDatabase.js';

/** Opens a transaction in the server's `postgres` database holding a transaction id (pg_current_xact_id assigns one,
 * as a first write does); resolves to the function that commits it and disconnects. */
export async function holdTransactionInAnotherDatabase(): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: databaseOnTestServer('postgres') });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_current_xact_id()');
  return async () => {
    await client.query('COMMIT');
    await client.end();
  };
}

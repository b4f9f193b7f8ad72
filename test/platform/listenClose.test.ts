// Closing a PostgreSQL database never waits for a listener left open: the listening connection is one of the pool's,
// so a process whose live streams were not all stopped (a crash path, an app a test forgot) would otherwise wait
// for ever in the pool's end. (The embedded database has no pool to wait on.)
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../infra/db/database.js';

const url = process.env['TEST_DATABASE_URL'];

describe.skipIf(!url)('closing a PostgreSQL database with a listener still open', () => {
  it('hears a notice, then closes at once without the listener being stopped', async () => {
    const db = await openDatabase({ url: url!, poolSize: 2 });
    const heard: (string | null)[] = [];
    await db.listen('listen_close_test', (payload) => heard.push(payload));
    await db.prisma.$executeRawUnsafe(`NOTIFY listen_close_test, 'hello'`);
    await expect.poll(() => heard).toEqual(['hello']);
    const closed = await Promise.race([db.close().then(() => 'closed'), sleep(5_000).then(() => 'still waiting')]);
    expect(closed).toBe('closed');
  });
});

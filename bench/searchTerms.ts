// Contact search measured by kind of term, since one kind alone says nothing of the others: short terms, common
// and rare fragments, absent ones, several words, phone and e-mail fragments, most drawn from rows of the workspace
// itself. Each class is one client cycling through its terms for the latency time (bench/run.ts).
import type pg from 'pg';

export const SEARCH_CLASSES = ['short', 'common', 'rare', 'absent', 'words', 'phone', 'email'] as const;
export type SearchClass = (typeof SEARCH_CLASSES)[number];

type Sample = { name: string; phone_number: string; email: string };

/** Five contacts with an e-mail address, spread over the workspace, newest to oldest. */
async function samples(pool: pg.Pool, workspaceId: string, contacts: number): Promise<Sample[]> {
  const rows: Sample[] = [];
  for (const fraction of [0.01, 0.2, 0.45, 0.7, 0.95]) {
    const { rows: found } = await pool.query<Sample>(
      'SELECT name, phone_number, email FROM customers WHERE company_id = $1 AND email IS NOT NULL ORDER BY id DESC OFFSET $2 LIMIT 1',
      // Two contacts in three have an e-mail address in the bench data.
      [workspaceId, Math.floor((contacts * 2 * fraction) / 3)],
    );
    if (found[0]) rows.push(found[0]);
  }
  return rows;
}

/** The terms of each class for one workspace. */
export async function searchTermsFor(pool: pg.Pool, workspaceId: string, contacts: number): Promise<Record<SearchClass, string[]>> {
  const rows = await samples(pool, workspaceId, contacts);
  const words = (row: Sample) => row.name.split(' ');
  const local = (row: Sample) => row.email.split('@')[0]!;
  const digits = (row: Sample) => row.phone_number.slice(1);
  return {
    short: ['a', 'e', words(rows[1]!)[0]!.slice(0, 2).toLowerCase(), 'q', 'xq'],
    common: rows.map((row) => words(row)[1]!).concat('example'),
    rare: rows.map((row) => local(row)),
    absent: ['xqz', 'nobody at all', 'zz9', '+4930', 'qwerty'],
    words: rows.map((row) => (row === rows[0] ? words(row).slice(0, 2).join(' ') : row.name)),
    phone: [
      rows[0]!.phone_number.slice(0, 8),
      digits(rows[1]!).slice(3, 10),
      `${digits(rows[2]!).slice(1, 4)} ${digits(rows[2]!).slice(4, 8)}`,
      `${digits(rows[3]!).slice(1, 4)}-${digits(rows[3]!).slice(4, 8)}`,
      rows[4]!.phone_number,
    ],
    email: [
      `@${rows[0]!.email.split('@')[1]!}`,
      local(rows[1]!).slice(0, 6),
      rows[2]!.email,
      local(rows[3]!).slice(-5),
      rows[4]!.email.slice(2, 12),
    ],
  };
}

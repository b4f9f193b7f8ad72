// Search measured by kind of term, since one kind alone says nothing of the others: short terms, common and rare
// fragments, absent ones, several words, phone and e-mail fragments, most drawn from rows of the workspace itself.
// Contacts, conversations and messages are each searched with the terms that can match them (a message has no
// phone number). Each class is one client cycling through its terms for the latency time (bench/run.ts).
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

export const SEARCHED_LISTS = ['contacts', 'conversations', 'messages'] as const;
export type SearchedList = (typeof SEARCHED_LISTS)[number];
export type SearchTerms = Partial<Record<SearchClass, string[]>>;

/** The order reference in the first message of the contact's conversation (bench/seed.ts: R and its ordinal). */
const orderReference = (row: Sample) => `R${String(Number(row.phone_number.slice(5))).padStart(7, '0')}`;

/** The terms of each class, for each list, in one workspace. */
export async function searchTermsFor(pool: pg.Pool, workspaceId: string, contacts: number): Promise<Record<SearchedList, SearchTerms>> {
  const rows = await samples(pool, workspaceId, contacts);
  const words = (row: Sample) => row.name.split(' ');
  const local = (row: Sample) => row.email.split('@')[0]!;
  const digits = (row: Sample) => row.phone_number.slice(1);
  const references = rows.map(orderReference);
  const contactTerms = {
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
  const messageTerms = {
    short: ['a', 'e', 'q', 'xq', 'zy'],
    common: ['order', 'thanks', 'address', 'check that', 'ANYTHING'],
    // One message each, and one prefix shared by ten.
    rare: [...references.slice(0, 4), references[4]!.slice(0, -1)],
    absent: ['xqz', 'nobody at all', 'refund', 'Q9999999', 'zz9'],
    words: ['is my order', 'change my address', 'let me check', `order ${references[1]!}`, 'on its way? order r0'],
  };
  return {
    contacts: contactTerms,
    messages: messageTerms,
    conversations: {
      ...contactTerms,
      common: [...messageTerms.common.slice(0, 3), ...contactTerms.common.slice(0, 2)],
      rare: [...references.slice(0, 2), ...contactTerms.rare.slice(2)],
      words: [...messageTerms.words.slice(0, 3), ...contactTerms.words.slice(0, 2)],
    },
  };
}

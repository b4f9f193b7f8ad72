// Contact search answers exactly what a case-insensitive substring match on name, phone number or e-mail answers (a
// phone number by the digits of a term typed as one), newest first, for every kind of term, through both of its
// steps (resolvers/contacts/search.ts, resolvers/shared/substringSearch.ts): terms common among the newest contacts,
// and rare ones found through the trigram or short-gram indexes among older contacts.
// 1,500 contacts (more than the recent window of 1,000) are written with createMany (setup); every page is read
// over HTTP and the whole walk compared with the same match computed here.
import { beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { openHarness, type Harness } from '../support/harness.js';
import { getJson } from '../support/restFixtures.js';

const CONTACTS = 1500;
const FIRST = ['Ana', 'Bruno', 'Chen', 'Dara', 'Élodie', 'Femi', 'Gita', 'Hugo', 'Ines', 'Jonas'];
const LAST = ['Silva', 'Okafor', 'Nguyen', 'Schmidt', 'García', 'Rossi'];

type Contact = { id: string; name: string | null; phone_number: string | null; email: string | null };

let h: Harness;
let key: string;
let contacts: Contact[];

/** Contacts oldest first; a few rare ones only among the oldest, so that only the index step can find them. */
function contactAt(index: number, at: number): Contact {
  const first = FIRST[index % FIRST.length]!;
  const last = LAST[Math.floor(index / FIRST.length) % LAST.length]!;
  const rare = index < 40 ? { name: `Xq Zyx ${index}`, email: `zz_${index}%@rare.example` } : null;
  return {
    id: uuidv7({ msecs: at + index }),
    name: rare?.name ?? (index % 17 === 0 ? null : `${first} ${last} ${index}`),
    phone_number: index % 5 === 0 ? null : `+1555${String(index).padStart(7, '0')}`,
    email: rare?.email ?? (index % 3 === 0 ? null : `${first.toLowerCase()}.${last.toLowerCase()}${index}@example.com`),
  };
}

/** ILIKE '%term%' on one value, as PostgreSQL reads it: both sides lower-cased. */
const contains = (value: string | null, term: string) => value !== null && value.toLowerCase().includes(term.toLowerCase());

beforeAll(async () => {
  h = await openHarness({ rateLimitPerMinute: 100_000 });
  const workspace = await h.workspace();
  key = workspace.api_key;
  const start = Date.now() - CONTACTS * 1000;
  contacts = Array.from({ length: CONTACTS }, (_, index) => contactAt(index, start));
  await h.db.prisma.customer.createMany({ data: contacts.map((contact) => ({ ...contact, company_id: workspace.workspace_id })) });
  // Another workspace's contacts match every term too, and are never found.
  const other = await h.workspace();
  await h.db.prisma.customer.createMany({
    data: contacts.slice(0, 50).map((contact) => ({ ...contact, id: uuidv7(), company_id: other.workspace_id })),
  });
}, 120_000);

/** Every result of a search, page by page through next_cursor. */
async function walk(term: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query = new URLSearchParams({ q: term, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const page = await getJson(h, `/api/v1/contacts/search?${query}`, { key });
    expect(page.status).toBe(200);
    ids.push(...(page.body.data as Contact[]).map((contact) => contact.id));
    cursor = page.body.next_cursor as string | null;
    if (!page.body.has_more) return ids;
  }
}

describe('contact search', () => {
  const terms = {
    'one character, common': 'a',
    'one character, rare (only among the oldest)': 'x',
    'one character, absent': 'ж',
    'two characters, common': 'si',
    'two characters, rare': 'xq',
    'two characters, absent': 'qj',
    'three or more, common': 'silva',
    'three or more, rare': 'zyx',
    absent: 'nobody-here',
    'several words': 'ana silva 1',
    'accented, another case': 'ÉLODIE',
    'phone fragment with +': '+1555000',
    'phone fragment without +': '5550001',
    'e-mail fragment': 'jonas.rossi',
    'LIKE wildcards taken literally': '%@rare',
    'underscore taken literally': 'zz_1',
    // The end of one field, the separator of the fields kept together for the search (migration 0048), the start of
    // the next: no field holds it.
    'a line break between the end of a name and the start of its e-mail': '1\nbruno.silva1',
  };

  it.each(Object.entries(terms))('%s (%s): exactly the substring matches, newest first, over every page', async (_kind, term) => {
    const expected = contacts
      .filter((contact) => contains(contact.name, term) || contains(contact.phone_number, term) || contains(contact.email, term))
      .map((contact) => contact.id)
      .reverse();
    expect(await walk(term, 100)).toEqual(expected);
  });

  // A phone number is found however it is typed: spaces, dots, dashes, brackets and a leading + or 00 are ignored.
  const phoneTerms = {
    'spaces, brackets and dashes': ['+1 (555) 000-0012', '15550000012'],
    'dashes, no country code': ['555-000-0012', '5550000012'],
    'a leading 00 for +': ['00 1 555 000 0012', '15550000012'],
    'dots, a fragment': ['555.000.1', '5550001'],
    'spaces, a fragment': ['555 000', '555000'],
    'brackets only': ['(555) 000-14', '55500014'],
    'spaces, a fragment only the oldest hold': ['555 000 001', '555000001'],
  };

  it.each(Object.entries(phoneTerms))(
    'a phone number typed with %s (%s) finds what its digits find, over every page',
    async (_kind, [typed, digits]) => {
      const expected = contacts
        .filter((contact) => contains(contact.phone_number, digits!))
        .map((contact) => contact.id)
        .reverse();
      expect(expected.length).toBeGreaterThan(0);
      expect(await walk(typed!, 100)).toEqual(expected);
      expect(await walk(digits!, 100)).toEqual(expected);
    },
  );

  // A term typed as a phone number looks up the name and e-mail as typed and the phone number by its digits, each
  // through its own index: digits too short for a trigram come from the short-gram index, checked against all three.
  const mixedTerms = {
    'digits too short for a trigram, typed with a +': ['+1 5', '15'],
    'digits too short for a trigram, typed with a space': ['1 2', '12'],
    'brackets around two digits': ['(99)', '99'],
    'both short': ['12', '12'],
  };

  it.each(Object.entries(mixedTerms))(
    'a phone term whose %s (%s) finds the name and e-mail as typed, the phone number by its digits, over every page',
    async (_kind, [typed, digits]) => {
      const expected = contacts
        .filter((contact) => contains(contact.name, typed!) || contains(contact.email, typed!) || contains(contact.phone_number, digits!))
        .map((contact) => contact.id)
        .reverse();
      expect(expected.length).toBeGreaterThan(0);
      expect(await walk(typed!, 100)).toEqual(expected);
    },
  );

  it('pages a rare term found only among the oldest contacts in small pages without gap or repeat', async () => {
    const expected = contacts
      .filter((contact) => contains(contact.name, 'xq zyx'))
      .map((contact) => contact.id)
      .reverse();
    expect(expected.length).toBe(40);
    expect(await walk('xq zyx', 7)).toEqual(expected);
  });
});
